/// How the SDK calls an app's delegate: `report` runs on the main actor, with the delegate.
///
/// Delegate protocols are shaped like MSAL's: `@MainActor` on each callback, not on the protocol,
/// and no `Sendable` requirement, so an app's plain class can conform and still be created and read
/// off the main actor. The SDK keeps the delegate in a box and opens it only on the main actor; the
/// box is `@unchecked Sendable` for that reason alone. What the app does with its own object on
/// other threads meanwhile is the app's to order, as with MSAL on Apple platforms.
package func withDelegateOnMainActor<Delegate>(_ delegate: Delegate, _ report: @escaping @MainActor (Delegate) async -> Void) {
    let box = MainActorDelegateBox(delegate)
    Task { @MainActor in await report(box.delegate) }
}

private struct MainActorDelegateBox<Delegate>: @unchecked Sendable {
    private let value: Delegate

    init(_ delegate: Delegate) { value = delegate }

    @MainActor var delegate: Delegate { value }
}
