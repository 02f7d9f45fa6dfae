import Foundation

/// How the SDK learns that a delegate left out an optional callback whose default cannot report
/// the error itself (it lacks the flow's correlation id, or lives in a parent protocol shared by
/// several delegates): the default says so here while the SDK's call is under way, and the caller
/// sends the step's error. Used by the strong-auth callbacks (SignInStrongAuthDelegate.swift) and
/// `onSignUpAttributesInvalid`.
@MainActor
enum UnimplementedCallback {
    private static var missing: String?

    static func reached(_ name: String) { missing = name }

    /// Runs `call`; returns the name of the callback when `call` ended in its default implementation.
    static func detect(_ call: () -> Void) -> String? {
        let outer = missing
        missing = nil
        call()
        defer { missing = outer }
        return missing
    }
}
