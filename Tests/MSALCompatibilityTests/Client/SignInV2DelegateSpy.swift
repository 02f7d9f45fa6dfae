import MSAL
import XCTest

/// One spy for a whole V2 sign-in, written the way MSAL's V2 end-to-end tests write theirs: a plain
/// `NSObject` subclass that conforms to the per-state protocols of the states it handles, with
/// `@MainActor` on each callback. `reset(expectation:)` swaps in a fresh expectation and clears the
/// flags before each continuation call.
class SignInV2DelegateSpy: NSObject, MSALNativeAuthCodeRequiredDelegate, MSALNativeAuthPasswordRequiredDelegate,
    MSALNativeAuthAuthMethodSelectionRequiredDelegate, MSALNativeAuthMFAVerificationRequiredDelegate,
    MSALNativeAuthStrongAuthRegistrationRequiredDelegate, MSALNativeAuthStrongAuthVerificationRequiredDelegate,
    MSALNativeAuthNewPasswordRequiredDelegate
{
    private var expectation: XCTestExpectation
    private(set) var onCodeRequiredCalled = false
    private(set) var onPasswordRequiredCalled = false
    private(set) var onAuthMethodSelectionRequiredCalled = false
    private(set) var onMFAVerificationRequiredCalled = false
    private(set) var onStrongAuthRegistrationRequiredCalled = false
    private(set) var onStrongAuthVerificationRequiredCalled = false
    private(set) var onNewPasswordRequiredCalled = false
    private(set) var onFlowCompletedCalled = false
    private(set) var onFlowErrorCalled = false
    private(set) var codeRequiredState: MSALNativeAuthCodeRequiredState?
    private(set) var passwordRequiredState: MSALNativeAuthPasswordRequiredState?
    private(set) var authMethodSelectionRequiredState: MSALNativeAuthAuthMethodSelectionRequiredState?
    private(set) var mfaVerificationRequiredState: MSALNativeAuthMFAVerificationRequiredState?
    private(set) var strongAuthRegistrationRequiredState: MSALNativeAuthStrongAuthRegistrationRequiredState?
    private(set) var strongAuthVerificationRequiredState: MSALNativeAuthStrongAuthVerificationRequiredState?
    private(set) var newPasswordRequiredState: MSALNativeAuthNewPasswordRequiredState?
    private(set) var result: MSALNativeAuthUserAccountResult?
    private(set) var error: MSALNativeAuthFlowError?
    private(set) var scenario: MSALNativeAuthFlowScenario?
    private(set) var sentTo: String?
    private(set) var channelTargetType: MSALNativeAuthChannelType?
    private(set) var codeLength: Int?

    init(expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    func reset(expectation: XCTestExpectation) {
        self.expectation = expectation
        onCodeRequiredCalled = false
        onPasswordRequiredCalled = false
        onAuthMethodSelectionRequiredCalled = false
        onMFAVerificationRequiredCalled = false
        onStrongAuthRegistrationRequiredCalled = false
        onStrongAuthVerificationRequiredCalled = false
        onNewPasswordRequiredCalled = false
        onFlowCompletedCalled = false
        onFlowErrorCalled = false
        error = nil
    }

    @MainActor
    func onCodeRequired(state: MSALNativeAuthCodeRequiredState, scenario: MSALNativeAuthFlowScenario) {
        onCodeRequiredCalled = true
        codeRequiredState = state
        sentTo = state.sentTo
        channelTargetType = state.channel
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
    func onAuthMethodSelectionRequired(state: MSALNativeAuthAuthMethodSelectionRequiredState, scenario: MSALNativeAuthFlowScenario) {
        onAuthMethodSelectionRequiredCalled = true
        authMethodSelectionRequiredState = state
        self.scenario = scenario
        expectation.fulfill()
    }

    @MainActor
    func onMFAVerificationRequired(state: MSALNativeAuthMFAVerificationRequiredState, scenario: MSALNativeAuthFlowScenario) {
        onMFAVerificationRequiredCalled = true
        mfaVerificationRequiredState = state
        sentTo = state.sentTo
        channelTargetType = state.channel
        codeLength = state.codeLength
        self.scenario = scenario
        expectation.fulfill()
    }

    @MainActor
    func onStrongAuthRegistrationRequired(
        state: MSALNativeAuthStrongAuthRegistrationRequiredState, scenario: MSALNativeAuthFlowScenario
    ) {
        onStrongAuthRegistrationRequiredCalled = true
        strongAuthRegistrationRequiredState = state
        self.scenario = scenario
        expectation.fulfill()
    }

    @MainActor
    func onStrongAuthVerificationRequired(
        state: MSALNativeAuthStrongAuthVerificationRequiredState, scenario: MSALNativeAuthFlowScenario
    ) {
        onStrongAuthVerificationRequiredCalled = true
        strongAuthVerificationRequiredState = state
        sentTo = state.sentTo
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

/// A delegate that handles codes only: a flow that asks for a password reaches `onFlowError` with
/// `isNotImplemented`.
class CodeOnlyV2DelegateSpy: NSObject, MSALNativeAuthCodeRequiredDelegate {
    private let expectation: XCTestExpectation
    private(set) var error: MSALNativeAuthFlowError?
    private(set) var onCodeRequiredCalled = false

    init(expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    @MainActor
    func onCodeRequired(state: MSALNativeAuthCodeRequiredState, scenario: MSALNativeAuthFlowScenario) {
        onCodeRequiredCalled = true
        expectation.fulfill()
    }

    @MainActor
    func onFlowCompleted(result: MSALNativeAuthUserAccountResult, scenario: MSALNativeAuthFlowScenario) {
        expectation.fulfill()
    }

    @MainActor
    func onFlowError(error: MSALNativeAuthFlowError, scenario: MSALNativeAuthFlowScenario) {
        self.error = error
        expectation.fulfill()
    }
}
