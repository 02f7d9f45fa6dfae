/// How `signIn(parameters:)` went, when it did not fail.
public enum SignInStartResult: Sendable {
    /// The user is signed in.
    case completed(MSALNativeAuthUserAccountResult)
    /// A one-time code was sent; submit it on `newState`.
    case codeRequired(newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
    /// The server wants the password; submit it on `newState`.
    case passwordRequired(newState: SignInPasswordRequiredState)
}

/// How `SignInCodeRequiredState.submitCode(code:)` went, when it did not fail.
public enum SignInVerifyCodeResult: Sendable {
    /// The user is signed in.
    case completed(MSALNativeAuthUserAccountResult)
}

/// How `SignInPasswordRequiredState.submitPassword(password:)` went, when it did not fail.
public enum SignInPasswordRequiredResult: Sendable {
    /// The user is signed in.
    case completed(MSALNativeAuthUserAccountResult)
}

/// How `SignInCodeRequiredState.resendCode()` went, when it did not fail.
public enum SignInResendCodeResult: Sendable {
    /// A new code was sent (the previous one no longer works); submit it on `newState`.
    case codeRequired(newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
}
