import MSAL
import XCTest

/// One spy for a whole V2 sign-up, written as MSAL's V2 end-to-end spies are: a plain `NSObject`
/// subclass conforming to the per-state protocols a sign-up reaches, `@MainActor` on each callback.
class SignUpV2DelegateSpy: NSObject, MSALNativeAuthCodeRequiredDelegate, MSALNativeAuthPasswordRequiredDelegate,
    MSALNativeAuthAttributesRequiredDelegate, MSALNativeAuthSignInAfterSignUpRequiredDelegate
{
    private var expectation: XCTestExpectation
    private(set) var onCodeRequiredCalled = false
    private(set) var onPasswordRequiredCalled = false
    private(set) var onAttributesRequiredCalled = false
    private(set) var onSignInAfterSignUpRequiredCalled = false
    private(set) var onFlowCompletedCalled = false
    private(set) var onFlowErrorCalled = false
    private(set) var codeRequiredState: MSALNativeAuthCodeRequiredState?
    private(set) var passwordRequiredState: MSALNativeAuthPasswordRequiredState?
    private(set) var attributesRequiredState: MSALNativeAuthAttributesRequiredState?
    private(set) var signInAfterSignUpState: MSALNativeAuthSignInAfterSignUpState?
    private(set) var attributes: [MSALNativeAuthRequiredAttribute] = []
    private(set) var result: MSALNativeAuthUserAccountResult?
    private(set) var error: MSALNativeAuthFlowError?
    private(set) var scenario: MSALNativeAuthFlowScenario?
    private(set) var sentTo: String?
    private(set) var codeLength: Int?

    init(expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    func reset(expectation: XCTestExpectation) {
        self.expectation = expectation
        onCodeRequiredCalled = false
        onPasswordRequiredCalled = false
        onAttributesRequiredCalled = false
        onSignInAfterSignUpRequiredCalled = false
        onFlowCompletedCalled = false
        onFlowErrorCalled = false
        error = nil
    }

    @MainActor
    func onCodeRequired(state: MSALNativeAuthCodeRequiredState, scenario: MSALNativeAuthFlowScenario) {
        onCodeRequiredCalled = true
        codeRequiredState = state
        sentTo = state.sentTo
        codeLength = state.codeLength
        self.scenario = scenario
        expectation.fulfill()
    }

    @MainActor
    func onPasswordRequired(state: MSALNativeAuthPasswordRequiredState, scenario: MSALNativeAuthFlowScenario) {
        onPasswordRequiredCalled = true
        passwordRequiredState = state
        self.scenario = scenario
        expectation.fulfill()
    }

    @MainActor
    func onAttributesRequired(state: MSALNativeAuthAttributesRequiredState, scenario: MSALNativeAuthFlowScenario) {
        onAttributesRequiredCalled = true
        attributesRequiredState = state
        attributes = state.attributes
        self.scenario = scenario
        expectation.fulfill()
    }

    @MainActor
    func onSignInAfterSignUpRequired(state: MSALNativeAuthSignInAfterSignUpState, scenario: MSALNativeAuthFlowScenario) {
        onSignInAfterSignUpRequiredCalled = true
        signInAfterSignUpState = state
        self.scenario = scenario
        expectation.fulfill()
    }

    @MainActor
    func onFlowCompleted(result: MSALNativeAuthUserAccountResult, scenario: MSALNativeAuthFlowScenario) {
        onFlowCompletedCalled = true
        self.result = result
        self.scenario = scenario
        expectation.fulfill()
    }

    @MainActor
    func onFlowError(error: MSALNativeAuthFlowError, scenario: MSALNativeAuthFlowScenario) {
        onFlowErrorCalled = true
        self.error = error
        self.scenario = scenario
        expectation.fulfill()
    }
}

/// One spy for a whole V2 password reset: the recovery choice, the code, the new password, a second
/// factor after it, and the sign-in after the reset.
class ResetPasswordV2DelegateSpy: NSObject, MSALNativeAuthAuthMethodSelectionRequiredDelegate, MSALNativeAuthCodeRequiredDelegate,
    MSALNativeAuthNewPasswordRequiredDelegate, MSALNativeAuthMFAVerificationRequiredDelegate,
    MSALNativeAuthSignInAfterResetPasswordRequiredDelegate
{
    private var expectation: XCTestExpectation
    private(set) var onAuthMethodSelectionRequiredCalled = false
    private(set) var onCodeRequiredCalled = false
    private(set) var onNewPasswordRequiredCalled = false
    private(set) var onMFAVerificationRequiredCalled = false
    private(set) var onSignInAfterResetPasswordRequiredCalled = false
    private(set) var onFlowCompletedCalled = false
    private(set) var onFlowErrorCalled = false
    private(set) var authMethodSelectionRequiredState: MSALNativeAuthAuthMethodSelectionRequiredState?
    private(set) var codeRequiredState: MSALNativeAuthCodeRequiredState?
    private(set) var newPasswordRequiredState: MSALNativeAuthNewPasswordRequiredState?
    private(set) var mfaVerificationRequiredState: MSALNativeAuthMFAVerificationRequiredState?
    private(set) var signInAfterResetPasswordState: MSALNativeAuthSignInAfterResetPasswordState?
    private(set) var result: MSALNativeAuthUserAccountResult?
    private(set) var error: MSALNativeAuthFlowError?
    private(set) var scenario: MSALNativeAuthFlowScenario?
    private(set) var channelTargetType: MSALNativeAuthChannelType?
    private(set) var codeLength: Int?

    init(expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    func reset(expectation: XCTestExpectation) {
        self.expectation = expectation
        onAuthMethodSelectionRequiredCalled = false
        onCodeRequiredCalled = false
        onNewPasswordRequiredCalled = false
        onMFAVerificationRequiredCalled = false
        onSignInAfterResetPasswordRequiredCalled = false
        onFlowCompletedCalled = false
        onFlowErrorCalled = false
        error = nil
    }

    @MainActor
    func onAuthMethodSelectionRequired(state: MSALNativeAuthAuthMethodSelectionRequiredState, scenario: MSALNativeAuthFlowScenario) {
        onAuthMethodSelectionRequiredCalled = true
        authMethodSelectionRequiredState = state
        self.scenario = scenario
        expectation.fulfill()
    }

    @MainActor
    func onCodeRequired(state: MSALNativeAuthCodeRequiredState, scenario: MSALNativeAuthFlowScenario) {
        onCodeRequiredCalled = true
        codeRequiredState = state
        channelTargetType = state.channel
        codeLength = state.codeLength
        self.scenario = scenario
        expectation.fulfill()
    }

    @MainActor
    func onNewPasswordRequired(state: MSALNativeAuthNewPasswordRequiredState, scenario: MSALNativeAuthFlowScenario) {
        onNewPasswordRequiredCalled = true
        newPasswordRequiredState = state
        self.scenario = scenario
        expectation.fulfill()
    }

    @MainActor
    func onMFAVerificationRequired(state: MSALNativeAuthMFAVerificationRequiredState, scenario: MSALNativeAuthFlowScenario) {
        onMFAVerificationRequiredCalled = true
        mfaVerificationRequiredState = state
        channelTargetType = state.channel
        codeLength = state.codeLength
        self.scenario = scenario
        expectation.fulfill()
    }

    @MainActor
    func onSignInAfterResetPasswordRequired(state: MSALNativeAuthSignInAfterResetPasswordState, scenario: MSALNativeAuthFlowScenario) {
        onSignInAfterResetPasswordRequiredCalled = true
        signInAfterResetPasswordState = state
        self.scenario = scenario
        expectation.fulfill()
    }

    @MainActor
    func onFlowCompleted(result: MSALNativeAuthUserAccountResult, scenario: MSALNativeAuthFlowScenario) {
        onFlowCompletedCalled = true
        self.result = result
        self.scenario = scenario
        expectation.fulfill()
    }

    @MainActor
    func onFlowError(error: MSALNativeAuthFlowError, scenario: MSALNativeAuthFlowScenario) {
        onFlowErrorCalled = true
        self.error = error
        self.scenario = scenario
        expectation.fulfill()
    }
}
