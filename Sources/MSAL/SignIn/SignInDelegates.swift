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
    public func onSignInCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        onSignInStartError(error: SignInStartError(type: .generalError, .notImplemented("onSignInCodeRequired", newState.correlationId)))
    }

    public func onSignInPasswordRequired(newState: SignInPasswordRequiredState) {
        onSignInStartError(
            error: SignInStartError(type: .generalError, .notImplemented("onSignInPasswordRequired", newState.correlationId)))
    }

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
    public func onSignInResendCodeCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        onSignInResendCodeError(
            error: ResendCodeError(type: .generalError, .notImplemented("onSignInResendCodeCodeRequired", newState.correlationId)),
            newState: nil)
    }
}

extension MSALNativeAuthErrorDetails {
    /// The general error MSAL reports when a flow needs an optional delegate method the app left out.
    package static func notImplemented(_ method: String, _ correlationId: UUID) -> Self {
        MSALNativeAuthErrorDetails(message: MSALNativeAuthErrorMessage.delegateNotImplemented(method), correlationId: correlationId)
    }
}
