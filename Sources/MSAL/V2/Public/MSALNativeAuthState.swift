import Foundation

/// The base of every native auth V2 state. Mirrors MSAL's `MSALNativeAuthState`.
///
/// A state is an immutable snapshot of the flow (its continuation token and correlation id): each
/// continuation sends a request from it, and a failure that leaves the state usable (a wrong code
/// or password) lets the app call the same state again. Every continuation has a delegate form
/// and an `async` form returning `MSALNativeAuthFlowResult`; the delegate form runs the `async`
/// one and reports its outcome once, on the main actor.
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public class MSALNativeAuthState: CustomStringConvertible, @unchecked Sendable {
    // `@unchecked` only because the class is not final (MSAL's hierarchy): every stored property
    // is a `let` of a Sendable type, in this class and its subclasses.

    let core: V2StateCore

    /// The flow this state belongs to.
    public var scenario: MSALNativeAuthFlowScenario { core.flow.scenario }

    /// A short description of the state, without personal data.
    public var description: String { "state" }

    init(_ core: V2StateCore) {
        self.core = core
    }

    /// The flow's correlation id, as the server last echoed it.
    var correlationId: UUID { core.continuation.correlationId }

    /// Runs the `async` form `step` and reports its outcome to `delegate`.
    func report(
        to delegate: any MSALNativeAuthFlowDelegate,
        _ step: @escaping @Sendable () async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult
    ) {
        V2Delivery.run(delegate, scenario: scenario, step)
    }
}
