import MSAL
import XCTest

/// V2 sign-in (experimental) as MSAL's own V2 tests and sample write it: nonisolated async test
/// methods, one spy conforming to several per-state protocols, `XCTestExpectation`s, and the next
/// call made on the state the spy was handed.
final class SignInV2ClientTests: XCTestCase {
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

    func test_signInV2_emailCode_thenTheAccountIsCached() async throws {
        let username = "grace@example.com"
        let codeRequiredExp = expectation(description: "code required")
        let delegate = SignInV2DelegateSpy(expectation: codeRequiredExp)
        let parameters = MSALNativeAuthSignInParametersV2(username: username)
        parameters.scopes = Configuration.scopes
        sut.signInV2(parameters: parameters, delegate: delegate)
        await fulfillment(of: [codeRequiredExp], timeout: 20)

        XCTAssertTrue(delegate.onCodeRequiredCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.scenario, .signIn)
        XCTAssertEqual(delegate.channelTargetType?.isEmailType, true)
        XCTAssertEqual(delegate.codeLength, 8)
        let codeRequiredState = try XCTUnwrap(delegate.codeRequiredState)

        let completedExp = expectation(description: "signed in")
        delegate.reset(expectation: completedExp)
        codeRequiredState.submitCode(try XCTUnwrap(backend.codes(for: username).last), delegate: delegate)
        await fulfillment(of: [completedExp], timeout: 20)

        XCTAssertTrue(delegate.onFlowCompletedCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.result?.account.username, username)
        XCTAssertEqual(sut.getNativeAuthUserAccount()?.account.username, username)
    }

    func test_signInV2_wrongPasswordKeepsTheState() async throws {
        let passwordRequiredExp = expectation(description: "password required")
        let delegate = SignInV2DelegateSpy(expectation: passwordRequiredExp)
        sut.signInV2(parameters: MSALNativeAuthSignInParametersV2(username: "ada@example.com"), delegate: delegate)
        await fulfillment(of: [passwordRequiredExp], timeout: 20)
        let passwordRequiredState = try XCTUnwrap(delegate.passwordRequiredState, "\(String(describing: delegate.error))")

        let errorExp = expectation(description: "wrong password")
        delegate.reset(expectation: errorExp)
        passwordRequiredState.submitPassword("not-the-password", delegate: delegate)
        await fulfillment(of: [errorExp], timeout: 20)
        XCTAssertTrue(delegate.onFlowErrorCalled)
        XCTAssertEqual(delegate.error?.isInvalidPassword, true)

        let completedExp = expectation(description: "signed in")
        delegate.reset(expectation: completedExp)
        passwordRequiredState.submitPassword("Analytical-Engine-1843", delegate: delegate)
        await fulfillment(of: [completedExp], timeout: 20)
        XCTAssertTrue(delegate.onFlowCompletedCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.result?.account.username, "ada@example.com")
    }

    /// Code written for MSAL 2.16-2.17 passes the V1 parameters, password included.
    func test_signInV2_withTheV1ParametersAndAPassword() async throws {
        let completedExp = expectation(description: "signed in")
        let delegate = SignInV2DelegateSpy(expectation: completedExp)
        let parameters = MSALNativeAuthSignInParameters(username: "ada@example.com")
        parameters.password = "Analytical-Engine-1843"
        sut.signInV2(parameters: parameters, delegate: delegate)
        await fulfillment(of: [completedExp], timeout: 20)
        XCTAssertTrue(delegate.onFlowCompletedCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.scenario, .signIn)
    }

    func test_signInV2_chooseTheEmailCodeAmongTwoFirstFactors() async throws {
        let username = "barbara@example.com"
        let selectionExp = expectation(description: "method selection")
        let delegate = SignInV2DelegateSpy(expectation: selectionExp)
        sut.signInV2(parameters: MSALNativeAuthSignInParametersV2(username: username), delegate: delegate)
        await fulfillment(of: [selectionExp], timeout: 20)
        let selectionState = try XCTUnwrap(delegate.authMethodSelectionRequiredState, "\(String(describing: delegate.error))")
        XCTAssertEqual(selectionState.authMethods.map(\.challengeType), ["password", "email"])

        let codeRequiredExp = expectation(description: "code required")
        delegate.reset(expectation: codeRequiredExp)
        let email = try XCTUnwrap(selectionState.authMethods.first { $0.channelTargetType.isEmailType })
        selectionState.selectAuthMethod(email, delegate: delegate)
        await fulfillment(of: [codeRequiredExp], timeout: 20)
        let codeRequiredState = try XCTUnwrap(delegate.codeRequiredState, "\(String(describing: delegate.error))")

        let completedExp = expectation(description: "signed in")
        delegate.reset(expectation: completedExp)
        codeRequiredState.submitCode(try XCTUnwrap(backend.codes(for: username).last), delegate: delegate)
        await fulfillment(of: [completedExp], timeout: 20)
        XCTAssertTrue(delegate.onFlowCompletedCalled, "\(String(describing: delegate.error))")
    }

    func test_signInV2_smsSecondFactor_resendThenSubmit() async throws {
        let username = "alan@example.com"
        let passwordRequiredExp = expectation(description: "password required")
        let delegate = SignInV2DelegateSpy(expectation: passwordRequiredExp)
        sut.signInV2(parameters: MSALNativeAuthSignInParametersV2(username: username), delegate: delegate)
        await fulfillment(of: [passwordRequiredExp], timeout: 20)
        let passwordRequiredState = try XCTUnwrap(delegate.passwordRequiredState, "\(String(describing: delegate.error))")

        let selectionExp = expectation(description: "second factor selection")
        delegate.reset(expectation: selectionExp)
        passwordRequiredState.submitPassword("Turing-Machine-1936", delegate: delegate)
        await fulfillment(of: [selectionExp], timeout: 20)
        let selectionState = try XCTUnwrap(delegate.authMethodSelectionRequiredState, "\(String(describing: delegate.error))")
        let sms = try XCTUnwrap(selectionState.authMethods.first { $0.channelTargetType.isSMSType })

        let verificationExp = expectation(description: "MFA code sent")
        delegate.reset(expectation: verificationExp)
        selectionState.selectAuthMethod(sms, delegate: delegate)
        await fulfillment(of: [verificationExp], timeout: 20)
        let verificationState = try XCTUnwrap(delegate.mfaVerificationRequiredState, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.channelTargetType?.isSMSType, true)
        XCTAssertEqual(delegate.codeLength, 6)

        let resendExp = expectation(description: "MFA code sent again")
        delegate.reset(expectation: resendExp)
        verificationState.resendChallenge(delegate: delegate)
        await fulfillment(of: [resendExp], timeout: 20)
        XCTAssertTrue(delegate.onMFAVerificationRequiredCalled, "\(String(describing: delegate.error))")
        let resentState = try XCTUnwrap(delegate.mfaVerificationRequiredState)

        let completedExp = expectation(description: "signed in")
        delegate.reset(expectation: completedExp)
        resentState.submitChallenge(try XCTUnwrap(backend.codes(for: username).last), delegate: delegate)
        await fulfillment(of: [completedExp], timeout: 20)
        XCTAssertTrue(delegate.onFlowCompletedCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.result?.account.username, username)
    }

    func test_signInV2_registerAPhoneJustInTime() async throws {
        let username = "katherine@example.com"
        let passwordRequiredExp = expectation(description: "password required")
        let delegate = SignInV2DelegateSpy(expectation: passwordRequiredExp)
        sut.signInV2(parameters: MSALNativeAuthSignInParametersV2(username: username), delegate: delegate)
        await fulfillment(of: [passwordRequiredExp], timeout: 20)
        let passwordRequiredState = try XCTUnwrap(delegate.passwordRequiredState, "\(String(describing: delegate.error))")

        let registrationExp = expectation(description: "registration required")
        delegate.reset(expectation: registrationExp)
        passwordRequiredState.submitPassword("Orbital-Mechanics-1962", delegate: delegate)
        await fulfillment(of: [registrationExp], timeout: 20)
        let registrationState = try XCTUnwrap(delegate.strongAuthRegistrationRequiredState, "\(String(describing: delegate.error))")
        let sms = try XCTUnwrap(registrationState.authMethods.first { $0.channelTargetType.isSMSType })

        let verificationExp = expectation(description: "registration code sent")
        delegate.reset(expectation: verificationExp)
        registrationState.selectAuthMethod(sms, verificationContact: "+15550123", delegate: delegate)
        await fulfillment(of: [verificationExp], timeout: 20)
        let verificationState = try XCTUnwrap(delegate.strongAuthVerificationRequiredState, "\(String(describing: delegate.error))")

        let completedExp = expectation(description: "signed in")
        delegate.reset(expectation: completedExp)
        verificationState.submitChallenge(try XCTUnwrap(backend.codes(for: username).last), delegate: delegate)
        await fulfillment(of: [completedExp], timeout: 20)
        XCTAssertTrue(delegate.onFlowCompletedCalled, "\(String(describing: delegate.error))")
    }

    func test_signInV2_aDelegateWithoutThePasswordProtocolGetsNotImplemented() async throws {
        let errorExp = expectation(description: "not implemented")
        let delegate = CodeOnlyV2DelegateSpy(expectation: errorExp)
        sut.signInV2(parameters: MSALNativeAuthSignInParametersV2(username: "ada@example.com"), delegate: delegate)
        await fulfillment(of: [errorExp], timeout: 20)
        XCTAssertFalse(delegate.onCodeRequiredCalled)
        XCTAssertEqual(delegate.error?.isNotImplemented, true)
        XCTAssertEqual(delegate.error?.errorDescription?.contains("MSALNativeAuthPasswordRequiredDelegate"), true)
    }

    func test_signInV2_browserOnlyAccountNeedsTheBrowser() async throws {
        let errorExp = expectation(description: "browser required")
        let delegate = SignInV2DelegateSpy(expectation: errorExp)
        sut.signInV2(parameters: MSALNativeAuthSignInParametersV2(username: "hedy@example.com"), delegate: delegate)
        await fulfillment(of: [errorExp], timeout: 20)
        XCTAssertTrue(delegate.onFlowErrorCalled)
        XCTAssertEqual(delegate.error?.isBrowserRequired, true)
    }
}
