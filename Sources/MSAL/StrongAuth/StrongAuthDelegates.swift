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
    public func onMFARequestChallengeVerificationRequired(
        newState: MFARequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        onMFARequestChallengeError(
            error: MFARequestChallengeError(
                type: .generalError, .notImplemented("onMFARequestChallengeVerificationRequired", newState.correlationId)),
            newState: nil)
    }

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
    public func onRegisterStrongAuthVerificationRequired(result: MSALNativeAuthRegisterStrongAuthVerificationRequiredResult) {
        onRegisterStrongAuthChallengeError(
            error: RegisterStrongAuthChallengeError(
                type: .generalError, .notImplemented("onRegisterStrongAuthVerificationRequired", result.newState.correlationId)),
            newState: nil)
    }

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
    public func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        onRegisterStrongAuthSubmitChallengeError(
            error: RegisterStrongAuthSubmitChallengeError(
                type: .generalError, .notImplemented("onSignInCompleted", result.tokens.correlationId)),
            newState: nil)
    }
}
