import Foundation

/// The two callbacks that every delegate of a step that can end a sign-in declares (sign-in start,
/// password, code, and the sign-in after a sign-up or a password reset), as MSAL declares them on
/// each of those delegates. Both are optional: implement the ones the tenant can ask for. When the
/// tenant asks for one the delegate leaves out, the delegate's error callback gets a general error
/// naming the missing method, as in MSAL.
///
/// They live in this one parent protocol so that a class serving several sign-in steps (one
/// controller for the whole screen) has one default of each, not one per protocol, which Swift
/// would reject as ambiguous.
public protocol SignInStrongAuthDelegate: AnyObject {
    /// The credential was right and the user must pass a second factor: let them choose one of
    /// `authMethods`, then call `newState.requestChallenge(authMethod:delegate:)`.
    @MainActor func onSignInAwaitingMFA(authMethods: [MSALAuthMethod], newState: AwaitingMFAState)
    /// The credential was right and the user must register a strong-auth method first: ask for a
    /// contact for one of `authMethods`, then call `newState.challengeAuthMethod(parameters:delegate:)`.
    @MainActor func onSignInStrongAuthMethodRegistration(authMethods: [MSALAuthMethod], newState: RegisterStrongAuthState)
}

@MainActor
extension SignInStrongAuthDelegate {
    /// The stand-in for a delegate that leaves this callback out. It runs on the main actor and only marks
    /// the call: the SDK then reports a general error naming this method to the delegate's error callback.
    public func onSignInAwaitingMFA(authMethods: [MSALAuthMethod], newState: AwaitingMFAState) {
        UnimplementedCallback.reached("onSignInAwaitingMFA")
    }

    /// The stand-in for a delegate that leaves this callback out. It runs on the main actor and only marks
    /// the call: the SDK then reports a general error naming this method to the delegate's error callback.
    public func onSignInStrongAuthMethodRegistration(authMethods: [MSALAuthMethod], newState: RegisterStrongAuthState) {
        UnimplementedCallback.reached("onSignInStrongAuthMethodRegistration")
    }
}

extension SignInStepResult {
    /// Hands the result to `delegate`'s callback for its case, or to `failed` with MSAL's general
    /// error naming the callback when the delegate does not implement it.
    @MainActor
    package func deliver(
        to delegate: any SignInStrongAuthDelegate, completed: (MSALNativeAuthUserAccountResult) -> Void,
        failed: (NativeAuthErrorDetails) -> Void
    ) {
        let missing: String?
        let correlationId: UUID
        switch self {
        case .completed(let result):
            completed(result)
            return
        case .awaitingMFA(let methods, let state):
            correlationId = state.correlationId
            missing = UnimplementedCallback.detect { delegate.onSignInAwaitingMFA(authMethods: methods, newState: state) }
        case .strongAuthMethodRegistration(let methods, let state):
            correlationId = state.correlationId
            missing = UnimplementedCallback.detect { delegate.onSignInStrongAuthMethodRegistration(authMethods: methods, newState: state) }
        }
        if let missing { failed(.notImplemented(missing, correlationId)) }
    }
}
