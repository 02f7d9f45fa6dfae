/// How `signUp(parameters:)` went, when it did not fail.
public enum SignUpStartResult: Sendable {
    /// A verification code was sent; submit it on `newState`.
    case codeRequired(newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
    /// The server refused these attributes; start again with other values.
    case attributesInvalid(attributeNames: [String])
}

/// How `SignUpCodeRequiredState.submitCode(code:)` went, when it did not fail.
public enum SignUpVerifyCodeResult: Sendable {
    /// The account exists; `newState` signs the user in without their password.
    case completed(SignInAfterSignUpState)
    /// The email is verified; the user flow needs a password next.
    case passwordRequired(newState: SignUpPasswordRequiredState)
    /// The email is verified; the user flow needs these attributes next.
    case attributesRequired(attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState)
}

/// How `SignUpPasswordRequiredState.submitPassword(password:)` went, when it did not fail.
public enum SignUpPasswordRequiredResult: Sendable {
    case completed(SignInAfterSignUpState)
    case attributesRequired(attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState)
}

/// How `SignUpAttributesRequiredState.submitAttributes(attributes:)` went, when it did not fail.
public enum SignUpAttributesRequiredResult: Sendable {
    case completed(SignInAfterSignUpState)
    /// More attributes are needed (another screen of them).
    case attributesRequired(attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState)
    /// The server refused these attributes; `newState` accepts corrected values.
    case attributesInvalid(attributeNames: [String], newState: SignUpAttributesRequiredState)
}
