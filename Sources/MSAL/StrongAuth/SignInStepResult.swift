import Foundation

/// How a sign-in step that redeems a credential went, when it did not fail: the user is signed in,
/// or the tenant wants a second factor first.
///
/// Every step that can end a sign-in answers with this shape (`submitCode`, `submitPassword`, the
/// sign-in after a sign-up or a password reset), so an app handles MFA and strong-auth
/// registration once, whichever step led there:
///
/// ```swift
/// // given: state: SignInPasswordRequiredState, password: String
/// switch try await state.submitPassword(password: password) {
/// case .completed(let result): print("Signed in as", result.account.username ?? "")
/// case .awaitingMFA(let methods, let mfaState): print(methods.count, mfaState)  // pick a method, then mfaState.requestChallenge(authMethod:)
/// case .strongAuthMethodRegistration(let methods, let registerState): print(methods.count, registerState)  // ask for a contact to register
/// }
/// ```
public enum SignInStepResult: Sendable {
    /// The user is signed in.
    case completed(MSALNativeAuthUserAccountResult)
    /// The user must pass a second factor; choose one of `authMethods` and call
    /// `newState.requestChallenge(authMethod:)`. Needs the `.mfaRequired` capability.
    case awaitingMFA(authMethods: [MSALAuthMethod], newState: AwaitingMFAState)
    /// The user must register a strong-auth method first; `authMethods` are the kinds they may
    /// register. Needs the `.registrationRequired` capability.
    case strongAuthMethodRegistration(authMethods: [MSALAuthMethod], newState: RegisterStrongAuthState)
}

/// How `SignInCodeRequiredState.submitCode(code:)` went, when it did not fail.
public typealias SignInVerifyCodeResult = SignInStepResult
/// How `SignInPasswordRequiredState.submitPassword(password:)` went, when it did not fail.
public typealias SignInPasswordRequiredResult = SignInStepResult
/// How `SignInAfterSignUpState.signIn(parameters:)` went, when it did not fail.
public typealias SignInAfterSignUpResult = SignInStepResult
/// How `SignInAfterResetPasswordState.signIn(parameters:)` went, when it did not fail.
public typealias SignInAfterResetPasswordResult = SignInStepResult

/// How `challengeAuthMethod(parameters:)` on a registration state went, when it did not fail.
public enum RegisterStrongAuthChallengeResult: Sendable {
    /// A code was sent to the contact; submit it on `result.newState`.
    case verificationRequired(MSALNativeAuthRegisterStrongAuthVerificationRequiredResult)
    /// The contact was already verified (typically the sign-in email): the method is registered and
    /// the user is signed in.
    case completed(MSALNativeAuthUserAccountResult)
}

/// A code was sent to the contact being registered. Mirrors MSAL's
/// `MSALNativeAuthRegisterStrongAuthVerificationRequiredResult`.
public final class MSALNativeAuthRegisterStrongAuthVerificationRequiredResult: Sendable {
    /// Submit the code on this state with `submitChallenge(challenge:)`.
    public let newState: RegisterStrongAuthVerificationRequiredState
    /// The contact the code went to, as the server echoed it.
    public let sentTo: String
    /// The channel the code went through, `email` or `sms`.
    public let channelTargetType: MSALNativeAuthChannelType
    /// How many characters the code has.
    public let codeLength: Int

    package init(
        newState: RegisterStrongAuthVerificationRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        self.newState = newState
        self.sentTo = sentTo
        self.channelTargetType = channelTargetType
        self.codeLength = codeLength
    }
}
