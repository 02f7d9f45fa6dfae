import MSAL
import XCTest

// Spies for sign-up, password reset, the sign-in after them, MFA and strong-auth registration,
// shaped as the sign-in spies are.

class SignUpStartDelegateSpy: SignUpStartDelegate {
    private let expectation: XCTestExpectation
    private(set) var error: SignUpStartError?
    private(set) var newState: SignUpCodeRequiredState?
    private(set) var sentTo: String?

    init(expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    func onSignUpStartError(error: SignUpStartError) {
        self.error = error
        expectation.fulfill()
    }

    func onSignUpCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        self.newState = newState
        self.sentTo = sentTo
        expectation.fulfill()
    }
}

class SignUpVerifyCodeDelegateSpy: SignUpVerifyCodeDelegate {
    private let expectation: XCTestExpectation
    private(set) var error: VerifyCodeError?
    private(set) var onSignUpCompletedCalled = false
    private(set) var onSignUpAttributesRequiredCalled = false
    private(set) var signInAfterSignUpState: SignInAfterSignUpState?
    private(set) var attributesRequiredState: SignUpAttributesRequiredState?

    init(expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    func onSignUpVerifyCodeError(error: VerifyCodeError, newState: SignUpCodeRequiredState?) {
        self.error = error
        expectation.fulfill()
    }

    func onSignUpAttributesRequired(attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState) {
        onSignUpAttributesRequiredCalled = true
        attributesRequiredState = newState
        expectation.fulfill()
    }

    func onSignUpCompleted(newState: SignInAfterSignUpState) {
        onSignUpCompletedCalled = true
        signInAfterSignUpState = newState
        expectation.fulfill()
    }
}

class SignInAfterSignUpDelegateSpy: SignInAfterSignUpDelegate {
    private let expectation: XCTestExpectation
    private(set) var error: SignInAfterSignUpError?
    private(set) var result: MSALNativeAuthUserAccountResult?

    init(expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    func onSignInAfterSignUpError(error: SignInAfterSignUpError) {
        self.error = error
        expectation.fulfill()
    }

    func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        self.result = result
        expectation.fulfill()
    }
}

class ResetPasswordStartDelegateSpy: ResetPasswordStartDelegate {
    private let expectation: XCTestExpectation
    private(set) var error: ResetPasswordStartError?
    private(set) var newState: ResetPasswordCodeRequiredState?

    init(expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    func onResetPasswordStartError(error: ResetPasswordStartError) {
        self.error = error
        expectation.fulfill()
    }

    func onResetPasswordCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        self.newState = newState
        expectation.fulfill()
    }
}

class ResetPasswordVerifyCodeDelegateSpy: ResetPasswordVerifyCodeDelegate {
    private let expectation: XCTestExpectation
    private(set) var error: VerifyCodeError?
    private(set) var newState: ResetPasswordRequiredState?

    init(expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    func onResetPasswordVerifyCodeError(error: VerifyCodeError, newState: ResetPasswordCodeRequiredState?) {
        self.error = error
        expectation.fulfill()
    }

    func onPasswordRequired(newState: ResetPasswordRequiredState) {
        self.newState = newState
        expectation.fulfill()
    }
}

class ResetPasswordRequiredDelegateSpy: ResetPasswordRequiredDelegate {
    private let expectation: XCTestExpectation
    private(set) var error: PasswordRequiredError?
    private(set) var signInAfterResetPasswordState: SignInAfterResetPasswordState?

    init(expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    func onResetPasswordRequiredError(error: PasswordRequiredError, newState: ResetPasswordRequiredState?) {
        self.error = error
        expectation.fulfill()
    }

    func onResetPasswordCompleted(newState: SignInAfterResetPasswordState) {
        signInAfterResetPasswordState = newState
        expectation.fulfill()
    }
}

class SignInAfterResetPasswordDelegateSpy: SignInAfterResetPasswordDelegate {
    private let expectation: XCTestExpectation
    private(set) var error: SignInAfterResetPasswordError?
    private(set) var result: MSALNativeAuthUserAccountResult?

    init(expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    func onSignInAfterResetPasswordError(error: SignInAfterResetPasswordError) {
        self.error = error
        expectation.fulfill()
    }

    func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        self.result = result
        expectation.fulfill()
    }
}

class MFARequestChallengeDelegateSpy: MFARequestChallengeDelegate {
    private let expectation: XCTestExpectation
    private(set) var error: MFARequestChallengeError?
    private(set) var newStateMFARequired: MFARequiredState?
    private(set) var sentTo: String?

    init(expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    func onMFARequestChallengeError(error: MFARequestChallengeError, newState: MFARequiredState?) {
        self.error = error
        expectation.fulfill()
    }

    func onMFARequestChallengeVerificationRequired(
        newState: MFARequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        newStateMFARequired = newState
        self.sentTo = sentTo
        expectation.fulfill()
    }
}

class MFASubmitChallengeDelegateSpy: MFASubmitChallengeDelegate {
    private let expectation: XCTestExpectation
    private(set) var error: MFASubmitChallengeError?
    private(set) var result: MSALNativeAuthUserAccountResult?

    init(expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    func onMFASubmitChallengeError(error: MFASubmitChallengeError, newState: MFARequiredState?) {
        self.error = error
        expectation.fulfill()
    }

    func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        self.result = result
        expectation.fulfill()
    }
}

class RegisterStrongAuthChallengeDelegateSpy: RegisterStrongAuthChallengeDelegate {
    private let expectation: XCTestExpectation
    private(set) var error: RegisterStrongAuthChallengeError?
    private(set) var verificationRequired: MSALNativeAuthRegisterStrongAuthVerificationRequiredResult?
    private(set) var result: MSALNativeAuthUserAccountResult?

    init(expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    func onRegisterStrongAuthChallengeError(error: RegisterStrongAuthChallengeError, newState: RegisterStrongAuthState?) {
        self.error = error
        expectation.fulfill()
    }

    func onRegisterStrongAuthVerificationRequired(result: MSALNativeAuthRegisterStrongAuthVerificationRequiredResult) {
        verificationRequired = result
        expectation.fulfill()
    }

    func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        self.result = result
        expectation.fulfill()
    }
}
