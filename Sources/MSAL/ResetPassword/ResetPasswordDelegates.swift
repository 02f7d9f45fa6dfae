/// Receives the outcome of `resetPassword(parameters:delegate:)`. Mirrors MSAL's `ResetPasswordStartDelegate`.
/// Called on the main actor, once per call; unimplemented optional methods fall back to the error method.
@MainActor
public protocol ResetPasswordStartDelegate: AnyObject, Sendable {
    func onResetPasswordStartError(error: ResetPasswordStartError)
    func onResetPasswordCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
}

extension ResetPasswordStartDelegate {
    public func onResetPasswordCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        onResetPasswordStartError(
            error: ResetPasswordStartError(type: .generalError, .notImplemented("onResetPasswordCodeRequired", newState.correlationId)))
    }
}

/// Receives the outcome of `ResetPasswordCodeRequiredState.submitCode(code:delegate:)`.
@MainActor
public protocol ResetPasswordVerifyCodeDelegate: AnyObject, Sendable {
    func onResetPasswordVerifyCodeError(error: VerifyCodeError, newState: ResetPasswordCodeRequiredState?)
    func onPasswordRequired(newState: ResetPasswordRequiredState)
}

extension ResetPasswordVerifyCodeDelegate {
    public func onPasswordRequired(newState: ResetPasswordRequiredState) {
        onResetPasswordVerifyCodeError(
            error: VerifyCodeError(type: .generalError, .notImplemented("onPasswordRequired", newState.correlationId)),
            newState: nil)
    }
}

/// Receives the outcome of `ResetPasswordCodeRequiredState.resendCode(delegate:)`.
@MainActor
public protocol ResetPasswordResendCodeDelegate: AnyObject, Sendable {
    func onResetPasswordResendCodeError(error: ResendCodeError, newState: ResetPasswordCodeRequiredState?)
    func onResetPasswordResendCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
}

extension ResetPasswordResendCodeDelegate {
    public func onResetPasswordResendCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        onResetPasswordResendCodeError(
            error: ResendCodeError(type: .generalError, .notImplemented("onResetPasswordResendCodeRequired", newState.correlationId)),
            newState: nil)
    }
}

/// Receives the outcome of `ResetPasswordRequiredState.submitPassword(password:delegate:)`.
@MainActor
public protocol ResetPasswordRequiredDelegate: AnyObject, Sendable {
    func onResetPasswordRequiredError(error: PasswordRequiredError, newState: ResetPasswordRequiredState?)
    func onResetPasswordCompleted(newState: SignInAfterResetPasswordState)
}

extension ResetPasswordRequiredDelegate {
    public func onResetPasswordCompleted(newState: SignInAfterResetPasswordState) {
        onResetPasswordRequiredError(
            error: PasswordRequiredError(type: .generalError, .notImplemented("onResetPasswordCompleted", newState.correlationId)),
            newState: nil)
    }
}

/// Receives the outcome of `SignInAfterResetPasswordState.signIn(parameters:delegate:)`.
@MainActor
public protocol SignInAfterResetPasswordDelegate: SignInStrongAuthDelegate {
    func onSignInAfterResetPasswordError(error: SignInAfterResetPasswordError)
    func onSignInCompleted(result: MSALNativeAuthUserAccountResult)
}

extension SignInAfterResetPasswordDelegate {
    public func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        onSignInAfterResetPasswordError(
            error: SignInAfterResetPasswordError(type: .generalError, .notImplemented("onSignInCompleted", result.tokens.correlationId)))
    }
}
