/// Receives the outcome of `resetPassword(parameters:delegate:)`. Mirrors MSAL's `ResetPasswordStartDelegate`.
/// Called on the main actor, once per call; unimplemented optional methods fall back to the error method.
public protocol ResetPasswordStartDelegate: AnyObject {
    @MainActor func onResetPasswordStartError(error: ResetPasswordStartError)
    @MainActor func onResetPasswordCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
}

@MainActor
extension ResetPasswordStartDelegate {
    /// Called on the main actor when the reset started and a code was sent to the account's address: ask
    /// the user for it and call `newState.submitCode(code:delegate:)`. `sentTo` is where it went, through
    /// `channelTargetType`; `codeLength` is how many characters to expect. Without an implementation of
    /// its own, `onResetPasswordStartError(error:)` gets a general error naming this method.
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
    /// Called on the main actor when the code was right: ask for the new password and call
    /// `newState.submitPassword(password:delegate:)`. Without an implementation of its own,
    /// `onResetPasswordVerifyCodeError(error:newState:)` gets a general error naming this method, and no state.
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
    /// Called on the main actor when a new code was sent: submit it on `newState`. `sentTo`,
    /// `channelTargetType` and `codeLength` are as for the first code. Without an implementation of its
    /// own, `onResetPasswordResendCodeError(error:newState:)` gets a general error naming this method,
    /// and no state.
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
    /// Called on the main actor when the password is changed: `newState.signIn(parameters:delegate:)`
    /// signs the user in without asking for the password again. Without an implementation of its own,
    /// `onResetPasswordRequiredError(error:newState:)` gets a general error naming this method, and no state.
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
    /// Called on the main actor when the user is signed in after the reset; `result` holds the account
    /// and its tokens. Without an implementation of its own, `onSignInAfterResetPasswordError(error:)`
    /// gets a general error naming this method.
    public func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        onSignInAfterResetPasswordError(
            error: SignInAfterResetPasswordError(type: .generalError, .notImplemented("onSignInCompleted", result.tokens.correlationId)))
    }
}
