import MSAL

/// A sign-in delegate that records every callback it receives, for tests of apps that use the
/// delegate API. Each event names the callback; `waitForEvent()` suspends until the next arrives.
@MainActor
public final class RecordingSignInDelegate: SignInStartDelegate, SignInPasswordRequiredDelegate, SignInVerifyCodeDelegate,
    SignInResendCodeDelegate, MFARequestChallengeDelegate, MFASubmitChallengeDelegate, RegisterStrongAuthChallengeDelegate,
    RegisterStrongAuthSubmitChallengeDelegate
{
    /// One delivered callback.
    public enum Event: Sendable {
        case startError(SignInStartError)
        case codeRequired(SignInCodeRequiredState, sentTo: String, channel: String, codeLength: Int)
        case passwordRequired(SignInPasswordRequiredState)
        case completed(MSALNativeAuthUserAccountResult)
        case passwordError(PasswordRequiredError, newState: SignInPasswordRequiredState?)
        case verifyCodeError(VerifyCodeError, newState: SignInCodeRequiredState?)
        case resendError(ResendCodeError, newState: SignInCodeRequiredState?)
        case resendCodeRequired(SignInCodeRequiredState, sentTo: String, codeLength: Int)
        case awaitingMFA([MSALAuthMethod], AwaitingMFAState)
        case strongAuthMethodRegistration([MSALAuthMethod], RegisterStrongAuthState)
        case mfaVerificationRequired(MFARequiredState, sentTo: String, channel: String, codeLength: Int)
        case mfaRequestError(MFARequestChallengeError, newState: MFARequiredState?)
        case mfaSubmitError(MFASubmitChallengeError, newState: MFARequiredState?)
        case registerVerificationRequired(MSALNativeAuthRegisterStrongAuthVerificationRequiredResult)
        case registerChallengeError(RegisterStrongAuthChallengeError, newState: RegisterStrongAuthState?)
        case registerSubmitError(RegisterStrongAuthSubmitChallengeError, newState: RegisterStrongAuthVerificationRequiredState?)

        /// The callback's MSAL name.
        public var name: String {
            switch self {
            case .startError: return "onSignInStartError"
            case .codeRequired: return "onSignInCodeRequired"
            case .passwordRequired: return "onSignInPasswordRequired"
            case .completed: return "onSignInCompleted"
            case .passwordError: return "onSignInPasswordRequiredError"
            case .verifyCodeError: return "onSignInVerifyCodeError"
            case .resendError: return "onSignInResendCodeError"
            case .resendCodeRequired: return "onSignInResendCodeCodeRequired"
            case .awaitingMFA: return "onSignInAwaitingMFA"
            case .strongAuthMethodRegistration: return "onSignInStrongAuthMethodRegistration"
            case .mfaVerificationRequired: return "onMFARequestChallengeVerificationRequired"
            case .mfaRequestError: return "onMFARequestChallengeError"
            case .mfaSubmitError: return "onMFASubmitChallengeError"
            case .registerVerificationRequired: return "onRegisterStrongAuthVerificationRequired"
            case .registerChallengeError: return "onRegisterStrongAuthChallengeError"
            case .registerSubmitError: return "onRegisterStrongAuthSubmitChallengeError"
            }
        }
    }

    /// Every callback received so far, in order.
    public private(set) var events: [Event] = []
    private var waiters: [CheckedContinuation<Event, Never>] = []
    private var delivered = 0

    /// A delegate with no events yet.
    public init() {}

    /// The next event not yet returned by this method, waiting for it if needed.
    public func waitForEvent() async -> Event {
        if delivered < events.count {
            delivered += 1
            return events[delivered - 1]
        }
        return await withCheckedContinuation { waiters.append($0) }
    }

    private func record(_ event: Event) {
        events.append(event)
        if !waiters.isEmpty {
            delivered += 1
            waiters.removeFirst().resume(returning: event)
        }
    }

    /// Records `.startError`.
    public func onSignInStartError(error: SignInStartError) { record(.startError(error)) }
    /// Records `.codeRequired`, with the channel's `value`.
    public func onSignInCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        record(.codeRequired(newState, sentTo: sentTo, channel: channelTargetType.value, codeLength: codeLength))
    }
    /// Records `.passwordRequired`.
    public func onSignInPasswordRequired(newState: SignInPasswordRequiredState) { record(.passwordRequired(newState)) }
    /// Records `.completed`.
    public func onSignInCompleted(result: MSALNativeAuthUserAccountResult) { record(.completed(result)) }
    /// Records `.passwordError`.
    public func onSignInPasswordRequiredError(error: PasswordRequiredError, newState: SignInPasswordRequiredState?) {
        record(.passwordError(error, newState: newState))
    }
    /// Records `.verifyCodeError`.
    public func onSignInVerifyCodeError(error: VerifyCodeError, newState: SignInCodeRequiredState?) {
        record(.verifyCodeError(error, newState: newState))
    }
    /// Records `.resendError`.
    public func onSignInResendCodeError(error: ResendCodeError, newState: SignInCodeRequiredState?) {
        record(.resendError(error, newState: newState))
    }
    /// Records `.resendCodeRequired` (without the channel).
    public func onSignInResendCodeCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        record(.resendCodeRequired(newState, sentTo: sentTo, codeLength: codeLength))
    }

    /// Records `.awaitingMFA`.
    public func onSignInAwaitingMFA(authMethods: [MSALAuthMethod], newState: AwaitingMFAState) {
        record(.awaitingMFA(authMethods, newState))
    }
    /// Records `.strongAuthMethodRegistration`.
    public func onSignInStrongAuthMethodRegistration(authMethods: [MSALAuthMethod], newState: RegisterStrongAuthState) {
        record(.strongAuthMethodRegistration(authMethods, newState))
    }
    /// Records `.mfaVerificationRequired`, with the channel's `value`.
    public func onMFARequestChallengeVerificationRequired(
        newState: MFARequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        record(.mfaVerificationRequired(newState, sentTo: sentTo, channel: channelTargetType.value, codeLength: codeLength))
    }
    /// Records `.mfaRequestError`.
    public func onMFARequestChallengeError(error: MFARequestChallengeError, newState: MFARequiredState?) {
        record(.mfaRequestError(error, newState: newState))
    }
    /// Records `.mfaSubmitError`.
    public func onMFASubmitChallengeError(error: MFASubmitChallengeError, newState: MFARequiredState?) {
        record(.mfaSubmitError(error, newState: newState))
    }
    /// Records `.registerVerificationRequired`.
    public func onRegisterStrongAuthVerificationRequired(result: MSALNativeAuthRegisterStrongAuthVerificationRequiredResult) {
        record(.registerVerificationRequired(result))
    }
    /// Records `.registerChallengeError`.
    public func onRegisterStrongAuthChallengeError(error: RegisterStrongAuthChallengeError, newState: RegisterStrongAuthState?) {
        record(.registerChallengeError(error, newState: newState))
    }
    /// Records `.registerSubmitError`.
    public func onRegisterStrongAuthSubmitChallengeError(
        error: RegisterStrongAuthSubmitChallengeError, newState: RegisterStrongAuthVerificationRequiredState?
    ) {
        record(.registerSubmitError(error, newState: newState))
    }
}
