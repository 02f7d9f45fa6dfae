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
    /// Called on the main actor when the sign-up started and a code was sent to verify the address: ask
    /// the user for it and call `newState.submitCode(code:delegate:)`. `sentTo` is where it went, through
    /// `channelTargetType`; `codeLength` is how many characters to expect. Without an implementation of
    /// its own, `onSignUpStartError(error:)` gets a general error naming this method.
    public func onSignUpCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        onSignUpStartError(error: SignUpStartError(type: .generalError, .notImplemented("onSignUpCodeRequired", newState.correlationId)))
    }

    /// Called on the main actor when the server refused the values of the attributes in
    /// `attributeNames`. There is no state to go on with: start the sign-up again with corrected values.
    /// Without an implementation of its own, `onSignUpStartError(error:)` gets a general error naming
    /// this method, with the sign-up's correlation id.
    public func onSignUpAttributesInvalid(attributeNames: [String]) {
        UnimplementedCallback.reached("onSignUpAttributesInvalid")
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
    /// Called on the main actor when the address is verified and the user flow needs the attributes in
    /// `attributes`: collect them and call `newState.submitAttributes(attributes:delegate:)`. Without an
    /// implementation of its own, `onSignUpVerifyCodeError(error:newState:)` gets a general error naming
    /// this method, and no state.
    public func onSignUpAttributesRequired(attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState) {
        onSignUpVerifyCodeError(
            error: VerifyCodeError(type: .generalError, .notImplemented("onSignUpAttributesRequired", newState.correlationId)),
            newState: nil)
    }

    /// Called on the main actor when the address is verified and the account needs a password: ask for
    /// it and call `newState.submitPassword(password:delegate:)`. Without an implementation of its own,
    /// `onSignUpVerifyCodeError(error:newState:)` gets a general error naming this method, and no state.
    public func onSignUpPasswordRequired(newState: SignUpPasswordRequiredState) {
        onSignUpVerifyCodeError(
            error: VerifyCodeError(type: .generalError, .notImplemented("onSignUpPasswordRequired", newState.correlationId)),
            newState: nil)
    }

    /// Called on the main actor when the account is created: `newState.signIn(parameters:delegate:)`
    /// signs the user in without asking for anything again. Without an implementation of its own,
    /// `onSignUpVerifyCodeError(error:newState:)` gets a general error naming this method, and no state.
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
    /// Called on the main actor when a new code was sent: submit it on `newState`. `sentTo`,
    /// `channelTargetType` and `codeLength` are as for the first code. Without an implementation of its
    /// own, `onSignUpResendCodeError(error:newState:)` gets a general error naming this method, and no state.
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
    /// Called on the main actor when the password was accepted and the user flow needs the attributes in
    /// `attributes`: collect them and call `newState.submitAttributes(attributes:delegate:)`. Without an
    /// implementation of its own, `onSignUpPasswordRequiredError(error:newState:)` gets a general error
    /// naming this method, and no state.
    public func onSignUpAttributesRequired(attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState) {
        onSignUpPasswordRequiredError(
            error: PasswordRequiredError(type: .generalError, .notImplemented("onSignUpAttributesRequired", newState.correlationId)),
            newState: nil)
    }

    /// Called on the main actor when the password was accepted and the account is created:
    /// `newState.signIn(parameters:delegate:)` signs the user in without asking again. Without an
    /// implementation of its own, `onSignUpPasswordRequiredError(error:newState:)` gets a general error
    /// naming this method, and no state.
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
    /// Called on the main actor when the attributes were accepted but the user flow needs more, those in
    /// `attributes`: collect them and submit them on `newState`. Without an implementation of its own,
    /// `onSignUpAttributesRequiredError(error:)` gets a general error naming this method.
    public func onSignUpAttributesRequired(attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState) {
        onSignUpAttributesRequiredError(
            error: AttributesRequiredError(type: .generalError, .notImplemented("onSignUpAttributesRequired", newState.correlationId)))
    }

    /// Called on the main actor when the server refused the values of the attributes in
    /// `attributeNames`: ask for corrected values and submit them on `newState`. Without an
    /// implementation of its own, `onSignUpAttributesRequiredError(error:)` gets a general error naming
    /// this method.
    public func onSignUpAttributesInvalid(attributeNames: [String], newState: SignUpAttributesRequiredState) {
        onSignUpAttributesRequiredError(
            error: AttributesRequiredError(type: .generalError, .notImplemented("onSignUpAttributesInvalid", newState.correlationId)))
    }

    /// Called on the main actor when the attributes were accepted and the account is created:
    /// `newState.signIn(parameters:delegate:)` signs the user in without asking again. Without an
    /// implementation of its own, `onSignUpAttributesRequiredError(error:)` gets a general error naming
    /// this method.
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
    /// Called on the main actor when the new user is signed in; `result` holds the account and its
    /// tokens. Without an implementation of its own, `onSignInAfterSignUpError(error:)` gets a general
    /// error naming this method.
    public func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        onSignInAfterSignUpError(
            error: SignInAfterSignUpError(type: .generalError, .notImplemented("onSignInCompleted", result.tokens.correlationId)))
    }
}
