/// Receives the outcome of `resetPassword(parameters:delegate:)`. Mirrors MSAL's `ResetPasswordStartDelegate`.
/// Called on the main actor, once per call; unimplemented optional methods fall back to the error method.
public protocol ResetPasswordStartDelegate: AnyObject {
    @MainActor func onResetPasswordStartError(error: ResetPasswordStartError)
    @MainActor func onResetPasswordCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
}

@MainActor
extension ResetPasswordStartDelegate {
    public func onResetPasswordCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        onResetPasswordStartError(
            error: ResetPasswordStartError(type: .generalError, .notImplemented("onResetPasswordCodeRequired", newState.correlationId)))
    }
}

/// Receives the outcome of `ResetPasswordCodeRequiredState.submitCode(code:delegate:)`.
public protocol ResetPasswordVerifyCodeDelegate: AnyObject {
    @MainActor func onResetPasswordVerifyCodeError(error: VerifyCodeError, newState: ResetPasswordCodeRequiredState?)
    @MainActor func onPasswordRequired(newState: ResetPasswordRequiredState)
}

@MainActor
extension ResetPasswordVerifyCodeDelegate {
    public func onPasswordRequired(newState: ResetPasswordRequiredState) {
        onResetPasswordVerifyCodeError(
            error: VerifyCodeError(type: .generalError, .notImplemented("onPasswordRequired", newState.correlationId)),
            newState: nil)
    }
}

/// Receives the outcome of `ResetPasswordCodeRequiredState.resendCode(delegate:)`.
public protocol ResetPasswordResendCodeDelegate: AnyObject {
    @MainActor func onResetPasswordResendCodeError(error: ResendCodeError, newState: ResetPasswordCodeRequiredState?)
    @MainActor func onResetPasswordResendCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
}

@MainActor
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
public protocol ResetPasswordRequiredDelegate: AnyObject {
    @MainActor func onResetPasswordRequiredError(error: PasswordRequiredError, newState: ResetPasswordRequiredState?)
    @MainActor func onResetPasswordCompleted(newState: SignInAfterResetPasswordState)
}

@MainActor
extension ResetPasswordRequiredDelegate {
    public func onResetPasswordCompleted(newState: SignInAfterResetPasswordState) {
        onResetPasswordRequiredError(
            error: PasswordRequiredError(type: .generalError, .notImplemented("onResetPasswordCompleted", newState.correlationId)),
            newState: nil)
    }
}

/// Receives the outcome of `SignInAfterResetPasswordState.signIn(parameters:delegate:)`.
public protocol SignInAfterResetPasswordDelegate: SignInStrongAuthDelegate {
    @MainActor func onSignInAfterResetPasswordError(error: SignInAfterResetPasswordError)
    @MainActor func onSignInCompleted(result: MSALNativeAuthUserAccountResult)
}

@MainActor
extension SignInAfterResetPasswordDelegate {
    public func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        onSignInAfterResetPasswordError(
            error: SignInAfterResetPasswordError(type: .generalError, .notImplemented("onSignInCompleted", result.tokens.correlationId)))
    }
}
