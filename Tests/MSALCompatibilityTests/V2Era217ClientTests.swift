import MSAL
import XCTest

/// Client code of the MSAL 2.16–2.17 era, as its V2 tests and sample wrote it: a password set on
/// `MSALNativeAuthSignUpParametersV2` (inherited from the V1 class until 2.18.1 removed it) and a
/// second selection on the same selection state after a wrong code. Built in Swift 6 mode here and
/// in Swift 5 mode by MSALCompatibilitySwift5Tests, with warnings as errors.
final class V2Era217ClientTests: XCTestCase {
    private var backend: EmulatorBackend!
    private var sut: MSALNativeAuthPublicClientApplication!

    override func setUpWithError() throws {
        backend = try EmulatorBackend()
        sut = try Configuration.makeApplication(authority: backend.authority)
    }

    override func tearDown() {
        sut = nil
        backend = nil
    }

    func test_signUpV2_passwordOnTheV2Parameters_isSentWhenAsked() async throws {
        let username = "ida@example.com"
        let codeRequiredExp = expectation(description: "code required")
        let delegate = SignUpV2DelegateSpy(expectation: codeRequiredExp)
        let parameters = MSALNativeAuthSignUpParametersV2(username: username)
        parameters.password = "Fresh-Start-2026-V2"
        parameters.attributes = ["displayName": "Ida Rhodes"]
        sut.signUpV2(parameters: parameters, delegate: delegate)
        await fulfillment(of: [codeRequiredExp], timeout: 20)
        let codeRequiredState = try XCTUnwrap(delegate.codeRequiredState, "\(String(describing: delegate.error))")

        let signInAfterSignUpExp = expectation(description: "sign-up completed")
        delegate.reset(expectation: signInAfterSignUpExp)
        codeRequiredState.submitCode(try XCTUnwrap(backend.codes(for: username).last), delegate: delegate)
        await fulfillment(of: [signInAfterSignUpExp], timeout: 20)
        XCTAssertTrue(delegate.onSignInAfterSignUpRequiredCalled, "\(String(describing: delegate.error))")
        XCTAssertFalse(delegate.onPasswordRequiredCalled, "the password went with the parameters")
        let signInAfterSignUpState = try XCTUnwrap(delegate.signInAfterSignUpState)

        let completedExp = expectation(description: "signed in")
        delegate.reset(expectation: completedExp)
        signInAfterSignUpState.signIn(parameters: MSALNativeAuthSignInAfterSignUpParameters(), delegate: delegate)
        await fulfillment(of: [completedExp], timeout: 20)
        XCTAssertEqual(delegate.result?.account.username, username, "\(String(describing: delegate.error))")
    }

    func test_signInV2_selectAgainOnTheSameState_afterAWrongCode() async throws {
        let username = "alan@example.com"
        let passwordRequiredExp = expectation(description: "password required")
        let delegate = SignInV2DelegateSpy(expectation: passwordRequiredExp)
        sut.signInV2(parameters: MSALNativeAuthSignInParametersV2(username: username), delegate: delegate)
        await fulfillment(of: [passwordRequiredExp], timeout: 20)
        let passwordRequiredState = try XCTUnwrap(delegate.passwordRequiredState, "\(String(describing: delegate.error))")

        let selectionExp = expectation(description: "MFA selection")
        delegate.reset(expectation: selectionExp)
        passwordRequiredState.submitPassword("Turing-Machine-1936", delegate: delegate)
        await fulfillment(of: [selectionExp], timeout: 20)
        let selectionState = try XCTUnwrap(delegate.authMethodSelectionRequiredState, "\(String(describing: delegate.error))")
        let email = try XCTUnwrap(selectionState.authMethods.first { $0.channelTargetType.isEmailType })

        let firstCodeExp = expectation(description: "first MFA code")
        delegate.reset(expectation: firstCodeExp)
        selectionState.selectAuthMethod(email, delegate: delegate)
        await fulfillment(of: [firstCodeExp], timeout: 20)
        let firstVerificationState = try XCTUnwrap(delegate.mfaVerificationRequiredState)

        let wrongCodeExp = expectation(description: "wrong code")
        delegate.reset(expectation: wrongCodeExp)
        firstVerificationState.submitChallenge("00000000", delegate: delegate)
        await fulfillment(of: [wrongCodeExp], timeout: 20)
        XCTAssertEqual(delegate.error?.isInvalidCode, true)

        // The 2.17 habit: go back to the selection state and choose again.
        let secondCodeExp = expectation(description: "second MFA code")
        delegate.reset(expectation: secondCodeExp)
        selectionState.selectAuthMethod(email, delegate: delegate)
        await fulfillment(of: [secondCodeExp], timeout: 20)
        XCTAssertTrue(delegate.onMFAVerificationRequiredCalled, "\(String(describing: delegate.error))")
        let secondVerificationState = try XCTUnwrap(delegate.mfaVerificationRequiredState)

        let completedExp = expectation(description: "signed in")
        delegate.reset(expectation: completedExp)
        secondVerificationState.submitChallenge(try XCTUnwrap(backend.codes(for: username).last), delegate: delegate)
        await fulfillment(of: [completedExp], timeout: 20)
        XCTAssertTrue(delegate.onFlowCompletedCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.result?.account.username, username)
    }
}
