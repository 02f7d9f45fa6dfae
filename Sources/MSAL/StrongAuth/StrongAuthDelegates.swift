import Foundation

/// Receives the outcome of `requestChallenge(authMethod:delegate:)` on an MFA state. Mirrors MSAL's
/// `MFARequestChallengeDelegate`.
public protocol MFARequestChallengeDelegate: AnyObject {
    @MainActor func onMFARequestChallengeError(error: MFARequestChallengeError, newState: MFARequiredState?)
    @MainActor func onMFARequestChallengeVerificationRequired(
        newState: MFARequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
    /// Declared as in MSAL; the service's current answers never lead here.
    @MainActor func onMFARequestChallengeSelectionRequired(authMethods: [MSALAuthMethod], newState: MFARequiredState)
}

@MainActor
extension MFARequestChallengeDelegate {
    /// Called on the main actor when a second-factor code was sent: ask the user for it and call
    /// `newState.submitChallenge(challenge:delegate:)`. `sentTo` is where it went (as the server shows
    /// it, which may be masked), through `channelTargetType`; `codeLength` is how many characters to expect.
    /// Without an implementation of its own, `onMFARequestChallengeError(error:newState:)` gets a general
    /// error naming this method, and no state.
    public func onMFARequestChallengeVerificationRequired(
        newState: MFARequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        onMFARequestChallengeError(
            error: MFARequestChallengeError(
                type: .generalError, .notImplemented("onMFARequestChallengeVerificationRequired", newState.correlationId)),
            newState: nil)
    }

    /// Would be called on the main actor if the server asked the user to pick another of `authMethods`;
    /// the SDK never calls it today. Without an implementation of its own,
    /// `onMFARequestChallengeError(error:newState:)` would get a general error naming this method.
    public func onMFARequestChallengeSelectionRequired(authMethods: [MSALAuthMethod], newState: MFARequiredState) {
        onMFARequestChallengeError(
            error: MFARequestChallengeError(
                type: .generalError, .notImplemented("onMFARequestChallengeSelectionRequired", newState.correlationId)),
            newState: nil)
    }
}

/// Receives the outcome of `MFARequiredState.submitChallenge(challenge:delegate:)`. Mirrors MSAL's
/// `MFASubmitChallengeDelegate`.
public protocol MFASubmitChallengeDelegate: AnyObject {
    @MainActor func onMFASubmitChallengeError(error: MFASubmitChallengeError, newState: MFARequiredState?)
    @MainActor func onSignInCompleted(result: MSALNativeAuthUserAccountResult)
}

@MainActor
extension MFASubmitChallengeDelegate {
    /// Called on the main actor when the second-factor code was right and the user is signed in;
    /// `result` holds the account and its tokens. Without an implementation of its own,
    /// `onMFASubmitChallengeError(error:newState:)` gets a general error naming this method, and no state.
    public func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        onMFASubmitChallengeError(
            error: MFASubmitChallengeError(type: .generalError, .notImplemented("onSignInCompleted", result.tokens.correlationId)),
            newState: nil)
    }
}

/// Receives the outcome of `challengeAuthMethod(parameters:delegate:)` on a registration state.
/// Mirrors MSAL's `RegisterStrongAuthChallengeDelegate`.
public protocol RegisterStrongAuthChallengeDelegate: AnyObject {
    @MainActor func onRegisterStrongAuthChallengeError(error: RegisterStrongAuthChallengeError, newState: RegisterStrongAuthState?)
    @MainActor func onRegisterStrongAuthVerificationRequired(result: MSALNativeAuthRegisterStrongAuthVerificationRequiredResult)
    @MainActor func onSignInCompleted(result: MSALNativeAuthUserAccountResult)
}

@MainActor
extension RegisterStrongAuthChallengeDelegate {
    /// Called on the main actor when a verification code was sent to the contact being registered: ask
    /// the user for it and call `result.newState.submitChallenge(challenge:delegate:)`. Without an
    /// implementation of its own, `onRegisterStrongAuthChallengeError(error:newState:)` gets a general
    /// error naming this method, and no state.
    public func onRegisterStrongAuthVerificationRequired(result: MSALNativeAuthRegisterStrongAuthVerificationRequiredResult) {
        onRegisterStrongAuthChallengeError(
            error: RegisterStrongAuthChallengeError(
                type: .generalError, .notImplemented("onRegisterStrongAuthVerificationRequired", result.newState.correlationId)),
            newState: nil)
    }

    /// Called on the main actor when the service already knew the contact as verified: the method is
    /// registered and the user signed in without a code; `result` holds the account and its tokens.
    /// Without an implementation of its own, `onRegisterStrongAuthChallengeError(error:newState:)` gets a
    /// general error naming this method, and no state.
    public func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        onRegisterStrongAuthChallengeError(
            error: RegisterStrongAuthChallengeError(type: .generalError, .notImplemented("onSignInCompleted", result.tokens.correlationId)),
            newState: nil)
    }
}

/// Receives the outcome of `RegisterStrongAuthVerificationRequiredState.submitChallenge(challenge:delegate:)`.
/// Mirrors MSAL's `RegisterStrongAuthSubmitChallengeDelegate`.
public protocol RegisterStrongAuthSubmitChallengeDelegate: AnyObject {
    @MainActor func onRegisterStrongAuthSubmitChallengeError(
        error: RegisterStrongAuthSubmitChallengeError, newState: RegisterStrongAuthVerificationRequiredState?)
    @MainActor func onSignInCompleted(result: MSALNativeAuthUserAccountResult)
}

@MainActor
extension RegisterStrongAuthSubmitChallengeDelegate {
    /// Called on the main actor when the verification code was right: the method is registered and the
    /// user is signed in; `result` holds the account and its tokens. Without an implementation of its own,
    /// `onRegisterStrongAuthSubmitChallengeError(error:newState:)` gets a general error naming this
    /// method, and no state.
    public func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        onRegisterStrongAuthSubmitChallengeError(
            error: RegisterStrongAuthSubmitChallengeError(
                type: .generalError, .notImplemented("onSignInCompleted", result.tokens.correlationId)),
            newState: nil)
    }
}
