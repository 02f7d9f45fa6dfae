/// How `resetPassword(parameters:)` went, when it did not fail.
public enum ResetPasswordStartResult: Sendable {
    /// A code was sent; submit it on `newState`.
    case codeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
}

/// How `ResetPasswordCodeRequiredState.submitCode(code:)` went, when it did not fail.
public enum ResetPasswordVerifyCodeResult: Sendable {
    /// The code was right; submit the new password on `newState`.
    case passwordRequired(newState: ResetPasswordRequiredState)
}

/// How `ResetPasswordCodeRequiredState.resendCode()` went, when it did not fail.
public enum ResetPasswordResendCodeResult: Sendable {
    case codeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
}

/// How `ResetPasswordRequiredState.submitPassword(password:)` went, when it did not fail.
public enum ResetPasswordRequiredResult: Sendable {
    /// The password is changed; `newState` signs the user in without typing it again.
    case completed(SignInAfterResetPasswordState)
}
