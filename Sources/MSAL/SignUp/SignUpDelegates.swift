import Foundation

/// Receives the outcome of `signUp(parameters:delegate:)`. Mirrors MSAL's `SignUpStartDelegate`.
/// Called on the main actor, once per call; unimplemented optional methods fall back to the error method.
public protocol SignUpStartDelegate: AnyObject {
    @MainActor func onSignUpStartError(error: SignUpStartError)
    @MainActor func onSignUpCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
    @MainActor func onSignUpAttributesInvalid(attributeNames: [String])
}

@MainActor
extension SignUpStartDelegate {
    public func onSignUpCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        onSignUpStartError(error: SignUpStartError(type: .generalError, .notImplemented("onSignUpCodeRequired", newState.correlationId)))
    }

    public func onSignUpAttributesInvalid(attributeNames: [String]) {
        onSignUpStartError(error: SignUpStartError(type: .generalError, .notImplemented("onSignUpAttributesInvalid", UUID())))
    }
}

/// Receives the outcome of `SignUpCodeRequiredState.submitCode(code:delegate:)`.
public protocol SignUpVerifyCodeDelegate: AnyObject {
    @MainActor func onSignUpVerifyCodeError(error: VerifyCodeError, newState: SignUpCodeRequiredState?)
    @MainActor func onSignUpAttributesRequired(attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState)
    @MainActor func onSignUpPasswordRequired(newState: SignUpPasswordRequiredState)
    @MainActor func onSignUpCompleted(newState: SignInAfterSignUpState)
}

@MainActor
extension SignUpVerifyCodeDelegate {
    public func onSignUpAttributesRequired(attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState) {
        onSignUpVerifyCodeError(
            error: VerifyCodeError(type: .generalError, .notImplemented("onSignUpAttributesRequired", newState.correlationId)),
            newState: nil)
    }

    public func onSignUpPasswordRequired(newState: SignUpPasswordRequiredState) {
        onSignUpVerifyCodeError(
            error: VerifyCodeError(type: .generalError, .notImplemented("onSignUpPasswordRequired", newState.correlationId)),
            newState: nil)
    }

    public func onSignUpCompleted(newState: SignInAfterSignUpState) {
        onSignUpVerifyCodeError(
            error: VerifyCodeError(type: .generalError, .notImplemented("onSignUpCompleted", newState.correlationId)),
            newState: nil)
    }
}

/// Receives the outcome of `SignUpCodeRequiredState.resendCode(delegate:)`.
public protocol SignUpResendCodeDelegate: AnyObject {
    @MainActor func onSignUpResendCodeError(error: ResendCodeError, newState: SignUpCodeRequiredState?)
    @MainActor func onSignUpResendCodeCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
}

@MainActor
extension SignUpResendCodeDelegate {
    public func onSignUpResendCodeCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        onSignUpResendCodeError(
            error: ResendCodeError(type: .generalError, .notImplemented("onSignUpResendCodeCodeRequired", newState.correlationId)),
            newState: nil)
    }
}

/// Receives the outcome of `SignUpPasswordRequiredState.submitPassword(password:delegate:)`.
public protocol SignUpPasswordRequiredDelegate: AnyObject {
    @MainActor func onSignUpPasswordRequiredError(error: PasswordRequiredError, newState: SignUpPasswordRequiredState?)
    @MainActor func onSignUpAttributesRequired(attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState)
    @MainActor func onSignUpCompleted(newState: SignInAfterSignUpState)
}

@MainActor
extension SignUpPasswordRequiredDelegate {
    public func onSignUpAttributesRequired(attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState) {
        onSignUpPasswordRequiredError(
            error: PasswordRequiredError(type: .generalError, .notImplemented("onSignUpAttributesRequired", newState.correlationId)),
            newState: nil)
    }

    public func onSignUpCompleted(newState: SignInAfterSignUpState) {
        onSignUpPasswordRequiredError(
            error: PasswordRequiredError(type: .generalError, .notImplemented("onSignUpCompleted", newState.correlationId)), newState: nil)
    }
}

/// Receives the outcome of `SignUpAttributesRequiredState.submitAttributes(attributes:delegate:)`.
public protocol SignUpAttributesRequiredDelegate: AnyObject {
    @MainActor func onSignUpAttributesRequiredError(error: AttributesRequiredError)
    @MainActor func onSignUpAttributesRequired(attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState)
    @MainActor func onSignUpAttributesInvalid(attributeNames: [String], newState: SignUpAttributesRequiredState)
    @MainActor func onSignUpCompleted(newState: SignInAfterSignUpState)
}

@MainActor
extension SignUpAttributesRequiredDelegate {
    public func onSignUpAttributesRequired(attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState) {
        onSignUpAttributesRequiredError(
            error: AttributesRequiredError(type: .generalError, .notImplemented("onSignUpAttributesRequired", newState.correlationId)))
    }

    public func onSignUpAttributesInvalid(attributeNames: [String], newState: SignUpAttributesRequiredState) {
        onSignUpAttributesRequiredError(
            error: AttributesRequiredError(type: .generalError, .notImplemented("onSignUpAttributesInvalid", newState.correlationId)))
    }

    public func onSignUpCompleted(newState: SignInAfterSignUpState) {
        onSignUpAttributesRequiredError(
            error: AttributesRequiredError(type: .generalError, .notImplemented("onSignUpCompleted", newState.correlationId)))
    }
}

/// Receives the outcome of `SignInAfterSignUpState.signIn(parameters:delegate:)`.
public protocol SignInAfterSignUpDelegate: SignInStrongAuthDelegate {
    @MainActor func onSignInAfterSignUpError(error: SignInAfterSignUpError)
    @MainActor func onSignInCompleted(result: MSALNativeAuthUserAccountResult)
}

@MainActor
extension SignInAfterSignUpDelegate {
    public func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        onSignInAfterSignUpError(
            error: SignInAfterSignUpError(type: .generalError, .notImplemented("onSignInCompleted", result.tokens.correlationId)))
    }
}
