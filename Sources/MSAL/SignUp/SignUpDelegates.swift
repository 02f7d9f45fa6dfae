import Foundation

/// Receives the outcome of `signUp(parameters:delegate:)`. Mirrors MSAL's `SignUpStartDelegate`.
/// Called on the main actor, once per call; unimplemented optional methods fall back to the error method.
@MainActor
public protocol SignUpStartDelegate: AnyObject, Sendable {
    func onSignUpStartError(error: SignUpStartError)
    func onSignUpCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
    func onSignUpAttributesInvalid(attributeNames: [String])
}

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
@MainActor
public protocol SignUpVerifyCodeDelegate: AnyObject, Sendable {
    func onSignUpVerifyCodeError(error: VerifyCodeError, newState: SignUpCodeRequiredState?)
    func onSignUpAttributesRequired(attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState)
    func onSignUpPasswordRequired(newState: SignUpPasswordRequiredState)
    func onSignUpCompleted(newState: SignInAfterSignUpState)
}

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
@MainActor
public protocol SignUpResendCodeDelegate: AnyObject, Sendable {
    func onSignUpResendCodeError(error: ResendCodeError, newState: SignUpCodeRequiredState?)
    func onSignUpResendCodeCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
}

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
@MainActor
public protocol SignUpPasswordRequiredDelegate: AnyObject, Sendable {
    func onSignUpPasswordRequiredError(error: PasswordRequiredError, newState: SignUpPasswordRequiredState?)
    func onSignUpAttributesRequired(attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState)
    func onSignUpCompleted(newState: SignInAfterSignUpState)
}

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
@MainActor
public protocol SignUpAttributesRequiredDelegate: AnyObject, Sendable {
    func onSignUpAttributesRequiredError(error: AttributesRequiredError)
    func onSignUpAttributesRequired(attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState)
    func onSignUpAttributesInvalid(attributeNames: [String], newState: SignUpAttributesRequiredState)
    func onSignUpCompleted(newState: SignInAfterSignUpState)
}

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
@MainActor
public protocol SignInAfterSignUpDelegate: SignInStrongAuthDelegate {
    func onSignInAfterSignUpError(error: SignInAfterSignUpError)
    func onSignInCompleted(result: MSALNativeAuthUserAccountResult)
}

extension SignInAfterSignUpDelegate {
    public func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        onSignInAfterSignUpError(
            error: SignInAfterSignUpError(type: .generalError, .notImplemented("onSignInCompleted", result.tokens.correlationId)))
    }
}
