import Foundation

/// Receives the outcome of `signIn(parameters:delegate:)`. Mirrors MSAL's `SignInStartDelegate`.
///
/// Every method is called on the main actor, exactly once per call. An optional method the app
/// does not implement falls back to `onSignInStartError` with a general error naming it, as in MSAL.
@MainActor
public protocol SignInStartDelegate: SignInStrongAuthDelegate {
    func onSignInStartError(error: SignInStartError)
    func onSignInCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
    func onSignInPasswordRequired(newState: SignInPasswordRequiredState)
    func onSignInCompleted(result: MSALNativeAuthUserAccountResult)
}

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
@MainActor
public protocol SignInPasswordRequiredDelegate: SignInStrongAuthDelegate {
    func onSignInPasswordRequiredError(error: PasswordRequiredError, newState: SignInPasswordRequiredState?)
    func onSignInCompleted(result: MSALNativeAuthUserAccountResult)
}

extension SignInPasswordRequiredDelegate {
    public func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        onSignInPasswordRequiredError(
            error: PasswordRequiredError(type: .generalError, .notImplemented("onSignInCompleted", result.tokens.correlationId)),
            newState: nil)
    }
}

/// Receives the outcome of `SignInCodeRequiredState.submitCode(code:delegate:)`.
@MainActor
public protocol SignInVerifyCodeDelegate: SignInStrongAuthDelegate {
    func onSignInVerifyCodeError(error: VerifyCodeError, newState: SignInCodeRequiredState?)
    func onSignInCompleted(result: MSALNativeAuthUserAccountResult)
}

extension SignInVerifyCodeDelegate {
    public func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        onSignInVerifyCodeError(
            error: VerifyCodeError(type: .generalError, .notImplemented("onSignInCompleted", result.tokens.correlationId)), newState: nil)
    }
}

/// Receives the outcome of `SignInCodeRequiredState.resendCode(delegate:)`.
@MainActor
public protocol SignInResendCodeDelegate: AnyObject, Sendable {
    func onSignInResendCodeError(error: ResendCodeError, newState: SignInCodeRequiredState?)
    func onSignInResendCodeCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
}

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
