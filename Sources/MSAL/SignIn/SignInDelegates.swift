import Foundation

/// Receives the outcome of `signIn(parameters:delegate:)`. Mirrors MSAL's `SignInStartDelegate`.
///
/// Every method is called on the main actor, exactly once per call. An optional method the app
/// does not implement falls back to `onSignInStartError` with a general error naming it, as in MSAL.
public protocol SignInStartDelegate: SignInStrongAuthDelegate {
    @MainActor func onSignInStartError(error: SignInStartError)
    @MainActor func onSignInCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
    @MainActor func onSignInPasswordRequired(newState: SignInPasswordRequiredState)
    @MainActor func onSignInCompleted(result: MSALNativeAuthUserAccountResult)
}

@MainActor
extension SignInStartDelegate {
    /// Called on the main actor when the server sent a one-time code to sign in with: ask the user for
    /// it and call `newState.submitCode(code:delegate:)`. `sentTo` is where it went, through
    /// `channelTargetType`; `codeLength` is how many characters to expect. Without an implementation of
    /// its own, `onSignInStartError(error:)` gets a general error naming this method.
    public func onSignInCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        onSignInStartError(error: SignInStartError(type: .generalError, .notImplemented("onSignInCodeRequired", newState.correlationId)))
    }

    /// Called on the main actor when the server wants a password and the parameters had none: ask for
    /// it and call `newState.submitPassword(password:delegate:)`. Without an implementation of its own,
    /// `onSignInStartError(error:)` gets a general error naming this method.
    public func onSignInPasswordRequired(newState: SignInPasswordRequiredState) {
        onSignInStartError(
            error: SignInStartError(type: .generalError, .notImplemented("onSignInPasswordRequired", newState.correlationId)))
    }

    /// Called on the main actor when the user is signed in; `result` holds the account and its tokens.
    /// Without an implementation of its own, `onSignInStartError(error:)` gets a general error naming
    /// this method.
    public func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        onSignInStartError(error: SignInStartError(type: .generalError, .notImplemented("onSignInCompleted", result.tokens.correlationId)))
    }
}

/// Receives the outcome of `SignInPasswordRequiredState.submitPassword(password:delegate:)`.
public protocol SignInPasswordRequiredDelegate: SignInStrongAuthDelegate {
    @MainActor func onSignInPasswordRequiredError(error: PasswordRequiredError, newState: SignInPasswordRequiredState?)
    @MainActor func onSignInCompleted(result: MSALNativeAuthUserAccountResult)
}

@MainActor
extension SignInPasswordRequiredDelegate {
    /// Called on the main actor when the password was right and the user is signed in; `result` holds
    /// the account and its tokens. Without an implementation of its own,
    /// `onSignInPasswordRequiredError(error:newState:)` gets a general error naming this method, and no state.
    public func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        onSignInPasswordRequiredError(
            error: PasswordRequiredError(type: .generalError, .notImplemented("onSignInCompleted", result.tokens.correlationId)),
            newState: nil)
    }
}

/// Receives the outcome of `SignInCodeRequiredState.submitCode(code:delegate:)`.
public protocol SignInVerifyCodeDelegate: SignInStrongAuthDelegate {
    @MainActor func onSignInVerifyCodeError(error: VerifyCodeError, newState: SignInCodeRequiredState?)
    @MainActor func onSignInCompleted(result: MSALNativeAuthUserAccountResult)
}

@MainActor
extension SignInVerifyCodeDelegate {
    /// Called on the main actor when the code was right and the user is signed in; `result` holds the
    /// account and its tokens. Without an implementation of its own,
    /// `onSignInVerifyCodeError(error:newState:)` gets a general error naming this method, and no state.
    public func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        onSignInVerifyCodeError(
            error: VerifyCodeError(type: .generalError, .notImplemented("onSignInCompleted", result.tokens.correlationId)), newState: nil)
    }
}

/// Receives the outcome of `SignInCodeRequiredState.resendCode(delegate:)`.
public protocol SignInResendCodeDelegate: AnyObject {
    @MainActor func onSignInResendCodeError(error: ResendCodeError, newState: SignInCodeRequiredState?)
    @MainActor func onSignInResendCodeCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
}

@MainActor
extension SignInResendCodeDelegate {
    /// Called on the main actor when a new code was sent: submit it on `newState`. `sentTo`,
    /// `channelTargetType` and `codeLength` are as for the first code. Without an implementation of its
    /// own, `onSignInResendCodeError(error:newState:)` gets a general error naming this method, and no state.
    public func onSignInResendCodeCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        onSignInResendCodeError(
            error: ResendCodeError(type: .generalError, .notImplemented("onSignInResendCodeCodeRequired", newState.correlationId)),
            newState: nil)
    }
}

extension NativeAuthErrorDetails {
    /// The general error MSAL reports when a flow needs an optional delegate method the app left out.
    package static func notImplemented(_ method: String, _ correlationId: UUID) -> Self {
        NativeAuthErrorDetails(message: NativeAuthErrorMessage.delegateNotImplemented(method), correlationId: correlationId)
    }
}
