import MSAL
import XCTest

// Delegate spies in the shape MSAL's own tests give them: plain classes (no `@MainActor`, no
// `Sendable`), stored properties set by the callbacks, an init taking the expectation that each
// callback fulfils. The tests create and read them from nonisolated test methods.

class SignInPasswordStartDelegateSpy: SignInStartDelegate {
    private let expectation: XCTestExpectation
    private(set) var onSignInStartErrorCalled = false
    private(set) var onSignInCompletedCalled = false
    private(set) var onSignInAwaitingMFACalled = false
    private(set) var error: MSAL.SignInStartError?
    private(set) var result: MSAL.MSALNativeAuthUserAccountResult?
    private(set) var authMethods: [MSALAuthMethod]?
    private(set) var newStateAwaitingMFA: AwaitingMFAState?

    init(expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    public func onSignInStartError(error: MSAL.SignInStartError) {
        onSignInStartErrorCalled = true
        self.error = error
        expectation.fulfill()
    }

    public func onSignInCompleted(result: MSAL.MSALNativeAuthUserAccountResult) {
        onSignInCompletedCalled = true
        self.result = result
        expectation.fulfill()
    }

    public func onSignInAwaitingMFA(authMethods: [MSALAuthMethod], newState: AwaitingMFAState) {
        onSignInAwaitingMFACalled = true
        self.authMethods = authMethods
        newStateAwaitingMFA = newState
        expectation.fulfill()
    }
}

class SignInCodeStartDelegateSpy: SignInStartDelegate {
    private let expectation: XCTestExpectation
    private(set) var onSignInStartErrorCalled = false
    private(set) var onSignInCodeRequiredCalled = false
    private(set) var error: SignInStartError?
    private(set) var newStateCodeRequired: SignInCodeRequiredState?
    private(set) var sentTo: String?
    private(set) var channelTargetType: MSALNativeAuthChannelType?
    private(set) var codeLength: Int?

    init(expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    func onSignInStartError(error: SignInStartError) {
        onSignInStartErrorCalled = true
        self.error = error
        expectation.fulfill()
    }

    func onSignInCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        onSignInCodeRequiredCalled = true
        newStateCodeRequired = newState
        self.sentTo = sentTo
        self.channelTargetType = channelTargetType
        self.codeLength = codeLength
        expectation.fulfill()
    }
}

class SignInResendCodeDelegateSpy: SignInResendCodeDelegate {
    private let expectation: XCTestExpectation
    private(set) var onSignInResendCodeErrorCalled = false
    private(set) var onSignInResendCodeCodeRequiredCalled = false
    private(set) var newState: SignInCodeRequiredState?

    init(expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    func onSignInResendCodeError(error: ResendCodeError, newState: SignInCodeRequiredState?) {
        onSignInResendCodeErrorCalled = true
        self.newState = newState
        expectation.fulfill()
    }

    func onSignInResendCodeCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        onSignInResendCodeCodeRequiredCalled = true
        self.newState = newState
        expectation.fulfill()
    }
}

class SignInVerifyCodeDelegateSpy: SignInVerifyCodeDelegate {
    private let expectation: XCTestExpectation
    private(set) var onSignInVerifyCodeErrorCalled = false
    private(set) var onSignInCompletedCalled = false
    private(set) var error: VerifyCodeError?
    private(set) var result: MSALNativeAuthUserAccountResult?

    init(expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    func onSignInVerifyCodeError(error: VerifyCodeError, newState: SignInCodeRequiredState?) {
        onSignInVerifyCodeErrorCalled = true
        self.error = error
        expectation.fulfill()
    }

    func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        onSignInCompletedCalled = true
        self.result = result
        expectation.fulfill()
    }
}

class CredentialsDelegateSpy: CredentialsDelegate {
    private let expectation: XCTestExpectation
    private(set) var error: RetrieveAccessTokenError?
    private(set) var result: MSALNativeAuthTokenResult?

    init(expectation: XCTestExpectation) {
        self.expectation = expectation
    }

    func onAccessTokenRetrieveError(error: RetrieveAccessTokenError) {
        self.error = error
        expectation.fulfill()
    }

    func onAccessTokenRetrieveCompleted(result: MSALNativeAuthTokenResult) {
        self.result = result
        expectation.fulfill()
    }
}
