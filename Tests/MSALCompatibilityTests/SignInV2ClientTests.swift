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

    /// Swaps a fresh expectation into `delegate`, makes the call, and waits for the callback.
    private func step(_ description: String, _ delegate: SignInV2DelegateSpy, _ call: () throws -> Void) async rethrows {
        let exp = expectation(description: description)
        delegate.reset(expectation: exp)
        try call()
        await fulfillment(of: [exp], timeout: 20)
    }

    /// Starts a V2 sign-in of `username` and submits `password`: the spy then holds the state after it.
    private func signInWithPassword(_ username: String, _ password: String) async throws -> SignInV2DelegateSpy {
        let passwordRequiredExp = expectation(description: "password required")
        let delegate = SignInV2DelegateSpy(expectation: passwordRequiredExp)
        sut.signInV2(parameters: MSALNativeAuthSignInParametersV2(username: username), delegate: delegate)
        await fulfillment(of: [passwordRequiredExp], timeout: 20)
        let passwordRequiredState = try XCTUnwrap(delegate.passwordRequiredState, "\(String(describing: delegate.error))")
        await step("after the password", delegate) { passwordRequiredState.submitPassword(password, delegate: delegate) }
        return delegate
    }

    func test_signInV2_emailSecondFactor_resendThenSubmit() async throws {
        let username = "alan@example.com"
        let delegate = try await signInWithPassword(username, "Turing-Machine-1936")
        let selectionState = try XCTUnwrap(delegate.authMethodSelectionRequiredState, "\(String(describing: delegate.error))")
        XCTAssertEqual(selectionState.purpose, .mfa)
        let email = try XCTUnwrap(selectionState.authMethods.first { $0.channelTargetType.isEmailType })

        await step("MFA code sent", delegate) { selectionState.selectAuthMethod(email, delegate: delegate) }
        let verificationState = try XCTUnwrap(delegate.mfaVerificationRequiredState, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.channelTargetType?.isEmailType, true)
        XCTAssertEqual(delegate.codeLength, 8)
        XCTAssertEqual(delegate.sentTo, "a****p@e****e")
        XCTAssertEqual(backend.mails(for: username).last?["target"] as? String, "alan.backup@example.net")
        let firstCode = try XCTUnwrap(backend.codes(for: username).last)

        await step("MFA code sent again", delegate) { verificationState.resendChallenge(delegate: delegate) }
        XCTAssertTrue(delegate.onMFAVerificationRequiredCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.channelTargetType?.isEmailType, true)
        XCTAssertEqual(backend.codes(for: username).count, 2)
        let resentState = try XCTUnwrap(delegate.mfaVerificationRequiredState)

        await step("the first code", delegate) { resentState.submitChallenge(firstCode, delegate: delegate) }
        XCTAssertEqual(delegate.error?.isInvalidCode, true, "the resend retires the first code")

        try await step("signed in", delegate) {
            resentState.submitChallenge(try XCTUnwrap(backend.codes(for: username).last), delegate: delegate)
        }
        XCTAssertTrue(delegate.onFlowCompletedCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.result?.account.username, username)
        XCTAssertEqual(sut.getNativeAuthUserAccount()?.account.username, username)
    }

    func test_signInV2_registerTheOwnAddressJustInTime_needsNoCode() async throws {
        let username = "katherine@example.com"
        let delegate = try await signInWithPassword(username, "Orbital-Mechanics-1962")
        let registrationState = try XCTUnwrap(delegate.strongAuthRegistrationRequiredState, "\(String(describing: delegate.error))")
        let email = try XCTUnwrap(registrationState.authMethods.first { $0.channelTargetType.isEmailType })

        await step("signed in", delegate) { registrationState.selectAuthMethod(email, verificationContact: username, delegate: delegate) }
        XCTAssertTrue(delegate.onFlowCompletedCalled, "\(String(describing: delegate.error))")
        XCTAssertFalse(delegate.onStrongAuthVerificationRequiredCalled)
        XCTAssertEqual(delegate.result?.account.username, username)
        XCTAssertTrue(backend.codes(for: username).isEmpty, "no code for the account's own address")
    }

    func test_signInV2_registerAnotherAddressJustInTime_withACode() async throws {
        let username = "katherine@example.com"
        let delegate = try await signInWithPassword(username, "Orbital-Mechanics-1962")
        let registrationState = try XCTUnwrap(delegate.strongAuthRegistrationRequiredState, "\(String(describing: delegate.error))")
        let email = try XCTUnwrap(registrationState.authMethods.first { $0.channelTargetType.isEmailType })

        await step("registration code sent", delegate) {
            registrationState.selectAuthMethod(email, verificationContact: "kj.work@example.org", delegate: delegate)
        }
        let verificationState = try XCTUnwrap(delegate.strongAuthVerificationRequiredState, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.channelTargetType?.isEmailType, true)
        XCTAssertEqual(delegate.codeLength, 8)
        XCTAssertEqual(delegate.sentTo, "k****k@e****e")
        let mail = try XCTUnwrap(backend.mails(for: username).last)
        XCTAssertEqual(mail["purpose"] as? String, "registration")
        XCTAssertEqual(mail["target"] as? String, "kj.work@example.org")

        try await step("signed in", delegate) {
            verificationState.submitChallenge(try XCTUnwrap(mail["code"] as? String), delegate: delegate)
        }
        XCTAssertTrue(delegate.onFlowCompletedCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.result?.account.username, username)
    }

    func test_signInV2_resendCode_thenTheNewCode() async throws {
        let username = "grace@example.com"
        let codeRequiredExp = expectation(description: "code required")
        let delegate = SignInV2DelegateSpy(expectation: codeRequiredExp)
        sut.signInV2(parameters: MSALNativeAuthSignInParametersV2(username: username), delegate: delegate)
        await fulfillment(of: [codeRequiredExp], timeout: 20)
        let codeRequiredState = try XCTUnwrap(delegate.codeRequiredState, "\(String(describing: delegate.error))")
        let firstCode = try XCTUnwrap(backend.codes(for: username).last)

        await step("code sent again", delegate) { codeRequiredState.resendCode(delegate: delegate) }
        XCTAssertTrue(delegate.onCodeRequiredCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.scenario, .signIn)
        XCTAssertEqual(delegate.codeLength, 8)
        XCTAssertEqual(backend.codes(for: username).count, 2)
        let resentState = try XCTUnwrap(delegate.codeRequiredState)

        await step("the first code", delegate) { resentState.submitCode(firstCode, delegate: delegate) }
        XCTAssertEqual(delegate.error?.isInvalidCode, true, "the resend retires the first code")

        try await step("signed in", delegate) {
            resentState.submitCode(try XCTUnwrap(backend.codes(for: username).last), delegate: delegate)
        }
        XCTAssertTrue(delegate.onFlowCompletedCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.result?.account.username, username)
    }

    func test_signInV2_unknownUserIsUserNotFound() async throws {
        let errorExp = expectation(description: "user not found")
        let delegate = SignInV2DelegateSpy(expectation: errorExp)
        sut.signInV2(parameters: MSALNativeAuthSignInParametersV2(username: "nobody@example.com"), delegate: delegate)
        await fulfillment(of: [errorExp], timeout: 20)
        XCTAssertTrue(delegate.onFlowErrorCalled)
        XCTAssertFalse(delegate.onPasswordRequiredCalled || delegate.onCodeRequiredCalled)
        XCTAssertEqual(delegate.error?.isUserNotFound, true, "\(String(describing: delegate.error))")
        XCTAssertNil(sut.getNativeAuthUserAccount())
    }

    func test_signInV2_recoverPassword_thenSignedIn() async throws {
        let username = "ada@example.com"
        let passwordRequiredExp = expectation(description: "password required")
        let delegate = SignInV2DelegateSpy(expectation: passwordRequiredExp)
        sut.signInV2(parameters: MSALNativeAuthSignInParametersV2(username: username), delegate: delegate)
        await fulfillment(of: [passwordRequiredExp], timeout: 20)
        let passwordRequiredState = try XCTUnwrap(delegate.passwordRequiredState, "\(String(describing: delegate.error))")
        XCTAssertTrue(passwordRequiredState.canRecoverPassword)

        await step("recovery code sent", delegate) { passwordRequiredState.recoverPassword(delegate: delegate) }
        let codeRequiredState = try XCTUnwrap(delegate.codeRequiredState, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.scenario, .signIn)
        XCTAssertEqual(backend.mails(for: username).last?["purpose"] as? String, "reset_password")

        try await step("new password required", delegate) {
            codeRequiredState.submitCode(try XCTUnwrap(backend.codes(for: username).last), delegate: delegate)
        }
        let newPasswordRequiredState = try XCTUnwrap(delegate.newPasswordRequiredState, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.scenario, .signIn)

        await step("signed in", delegate) { newPasswordRequiredState.submitNewPassword("Fresh-Start-2026-V2", delegate: delegate) }
        XCTAssertTrue(delegate.onFlowCompletedCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.scenario, .signIn)
        XCTAssertEqual(delegate.result?.account.username, username)
        XCTAssertEqual(sut.getNativeAuthUserAccount()?.account.username, username)
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
