import Foundation

/// Receives the outcome of `requestChallenge(authMethod:delegate:)` on an MFA state. Mirrors MSAL's
/// `MFARequestChallengeDelegate`.
@MainActor
public protocol MFARequestChallengeDelegate: AnyObject, Sendable {
    func onMFARequestChallengeError(error: MFARequestChallengeError, newState: MFARequiredState?)
    func onMFARequestChallengeVerificationRequired(
        newState: MFARequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
    /// Declared as in MSAL; the service's current answers never lead here.
    func onMFARequestChallengeSelectionRequired(authMethods: [MSALAuthMethod], newState: MFARequiredState)
}

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
@MainActor
public protocol MFASubmitChallengeDelegate: AnyObject, Sendable {
    func onMFASubmitChallengeError(error: MFASubmitChallengeError, newState: MFARequiredState?)
    func onSignInCompleted(result: MSALNativeAuthUserAccountResult)
}

extension MFASubmitChallengeDelegate {
    public func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        onMFASubmitChallengeError(
            error: MFASubmitChallengeError(type: .generalError, .notImplemented("onSignInCompleted", result.tokens.correlationId)),
            newState: nil)
    }
}

/// Receives the outcome of `challengeAuthMethod(parameters:delegate:)` on a registration state.
/// Mirrors MSAL's `RegisterStrongAuthChallengeDelegate`.
@MainActor
public protocol RegisterStrongAuthChallengeDelegate: AnyObject, Sendable {
    func onRegisterStrongAuthChallengeError(error: RegisterStrongAuthChallengeError, newState: RegisterStrongAuthState?)
    func onRegisterStrongAuthVerificationRequired(result: MSALNativeAuthRegisterStrongAuthVerificationRequiredResult)
    func onSignInCompleted(result: MSALNativeAuthUserAccountResult)
}

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
@MainActor
public protocol RegisterStrongAuthSubmitChallengeDelegate: AnyObject, Sendable {
    func onRegisterStrongAuthSubmitChallengeError(
        error: RegisterStrongAuthSubmitChallengeError, newState: RegisterStrongAuthVerificationRequiredState?)
    func onSignInCompleted(result: MSALNativeAuthUserAccountResult)
}

extension RegisterStrongAuthSubmitChallengeDelegate {
    public func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        onRegisterStrongAuthSubmitChallengeError(
            error: RegisterStrongAuthSubmitChallengeError(
                type: .generalError, .notImplemented("onSignInCompleted", result.tokens.correlationId)),
            newState: nil)
    }
}
