import MSAL
import XCTest

/// V2 sign-up and password reset (experimental) as MSAL's V2 tests and sample write client code:
/// nonisolated async test methods, one spy per journey conforming to the per-state protocols,
/// `XCTestExpectation`s, and the next call made on the state the spy was handed.
final class SignUpResetV2ClientTests: XCTestCase {
    private var backend: EmulatorBackend!
    private var sut: MSALNativeAuthPublicClientApplication!
    private let newPassword = "Fresh-Start-2026-V2"

    override func setUpWithError() throws {
        backend = try EmulatorBackend()
        sut = try Configuration.makeApplication(authority: backend.authority)
    }

    override func tearDown() {
        sut = nil
        backend = nil
    }

    func test_signUpV2_withAttributes_thenSignInAfterSignUp() async throws {
        let username = "lin@example.com"
        let codeRequiredExp = expectation(description: "code required")
        let delegate = SignUpV2DelegateSpy(expectation: codeRequiredExp)
        let parameters = MSALNativeAuthSignUpParametersV2(username: username)
        parameters.attributes = ["city": "Oslo"]
        parameters.scopes = Configuration.scopes
        sut.signUpV2(parameters: parameters, delegate: delegate)
        await fulfillment(of: [codeRequiredExp], timeout: 20)
        XCTAssertTrue(delegate.onCodeRequiredCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.scenario, .signUp)
        XCTAssertEqual(delegate.codeLength, 8)
        let codeRequiredState = try XCTUnwrap(delegate.codeRequiredState)

        let passwordRequiredExp = expectation(description: "password required")
        delegate.reset(expectation: passwordRequiredExp)
        codeRequiredState.submitCode(try XCTUnwrap(backend.codes(for: username).last), delegate: delegate)
        await fulfillment(of: [passwordRequiredExp], timeout: 20)
        let passwordRequiredState = try XCTUnwrap(delegate.passwordRequiredState, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.scenario, .signUp)

        let attributesRequiredExp = expectation(description: "attributes required")
        delegate.reset(expectation: attributesRequiredExp)
        passwordRequiredState.submitPassword(newPassword, delegate: delegate)
        await fulfillment(of: [attributesRequiredExp], timeout: 20)
        XCTAssertTrue(delegate.onAttributesRequiredCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.scenario, .signUp)
        XCTAssertEqual(delegate.attributes.map(\.name), ["displayName"])
        XCTAssertEqual(delegate.attributes.first?.required, true)
        let attributesRequiredState = try XCTUnwrap(delegate.attributesRequiredState)

        let signInAfterSignUpExp = expectation(description: "sign-up completed")
        delegate.reset(expectation: signInAfterSignUpExp)
        attributesRequiredState.submitAttributes(["displayName": "Lin Lanying"], delegate: delegate)
        await fulfillment(of: [signInAfterSignUpExp], timeout: 20)
        XCTAssertTrue(delegate.onSignInAfterSignUpRequiredCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.scenario, .signUp)
        let signInAfterSignUpState = try XCTUnwrap(delegate.signInAfterSignUpState)

        let completedExp = expectation(description: "signed in")
        delegate.reset(expectation: completedExp)
        let signInParameters = MSALNativeAuthSignInAfterSignUpParameters()
        signInParameters.scopes = Configuration.scopes
        signInAfterSignUpState.signIn(parameters: signInParameters, delegate: delegate)
        await fulfillment(of: [completedExp], timeout: 20)
        XCTAssertTrue(delegate.onFlowCompletedCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.scenario, .signUp)
        XCTAssertEqual(delegate.result?.account.username, username)
        XCTAssertEqual(sut.getNativeAuthUserAccount()?.account.username, username)
    }

    func test_signUpV2_aRefusedAttributeIsInvalidAttributesAndTheStateStaysUsable() async throws {
        let username = "mae.new@example.com"
        let codeRequiredExp = expectation(description: "code required")
        let delegate = SignUpV2DelegateSpy(expectation: codeRequiredExp)
        sut.signUpV2(parameters: MSALNativeAuthSignUpParametersV2(username: username), delegate: delegate)
        await fulfillment(of: [codeRequiredExp], timeout: 20)
        let codeRequiredState = try XCTUnwrap(delegate.codeRequiredState, "\(String(describing: delegate.error))")

        let passwordRequiredExp = expectation(description: "password required")
        delegate.reset(expectation: passwordRequiredExp)
        codeRequiredState.submitCode(try XCTUnwrap(backend.codes(for: username).last), delegate: delegate)
        await fulfillment(of: [passwordRequiredExp], timeout: 20)
        let passwordRequiredState = try XCTUnwrap(delegate.passwordRequiredState, "\(String(describing: delegate.error))")

        let attributesRequiredExp = expectation(description: "attributes required")
        delegate.reset(expectation: attributesRequiredExp)
        passwordRequiredState.submitPassword(newPassword, delegate: delegate)
        await fulfillment(of: [attributesRequiredExp], timeout: 20)
        let attributesRequiredState = try XCTUnwrap(delegate.attributesRequiredState, "\(String(describing: delegate.error))")

        let errorExp = expectation(description: "attribute refused")
        delegate.reset(expectation: errorExp)
        attributesRequiredState.submitAttributes(["displayName": String(repeating: "y", count: 65)], delegate: delegate)
        await fulfillment(of: [errorExp], timeout: 20)
        XCTAssertTrue(delegate.onFlowErrorCalled)
        XCTAssertEqual(delegate.error?.isInvalidAttributes, true)
        XCTAssertEqual(delegate.error?.errorDescription?.contains("displayName"), true)

        let signInAfterSignUpExp = expectation(description: "sign-up completed")
        delegate.reset(expectation: signInAfterSignUpExp)
        attributesRequiredState.submitAttributes(["displayName": "Mae"], delegate: delegate)
        await fulfillment(of: [signInAfterSignUpExp], timeout: 20)
        XCTAssertTrue(delegate.onSignInAfterSignUpRequiredCalled, "\(String(describing: delegate.error))")
    }

    func test_resetPasswordV2_byEmail_thenSignInAfterReset() async throws {
        let username = "ada@example.com"
        let codeRequiredExp = expectation(description: "code required")
        let delegate = ResetPasswordV2DelegateSpy(expectation: codeRequiredExp)
        sut.resetPasswordV2(parameters: MSALNativeAuthResetPasswordParametersV2(username: username), delegate: delegate)
        await fulfillment(of: [codeRequiredExp], timeout: 20)
        XCTAssertTrue(delegate.onCodeRequiredCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.scenario, .passwordReset)
        XCTAssertEqual(delegate.channelTargetType?.isEmailType, true)
        let codeRequiredState = try XCTUnwrap(delegate.codeRequiredState)

        let newPasswordRequiredExp = expectation(description: "new password required")
        delegate.reset(expectation: newPasswordRequiredExp)
        codeRequiredState.submitCode(try XCTUnwrap(backend.codes(for: username).last), delegate: delegate)
        await fulfillment(of: [newPasswordRequiredExp], timeout: 20)
        let newPasswordRequiredState = try XCTUnwrap(delegate.newPasswordRequiredState, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.scenario, .passwordReset)

        let signInAfterResetExp = expectation(description: "reset completed")
        delegate.reset(expectation: signInAfterResetExp)
        newPasswordRequiredState.submitNewPassword(newPassword, delegate: delegate)
        await fulfillment(of: [signInAfterResetExp], timeout: 20)
        XCTAssertTrue(delegate.onSignInAfterResetPasswordRequiredCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.scenario, .passwordReset)
        let signInAfterResetPasswordState = try XCTUnwrap(delegate.signInAfterResetPasswordState)

        let completedExp = expectation(description: "signed in")
        delegate.reset(expectation: completedExp)
        signInAfterResetPasswordState.signIn(parameters: MSALNativeAuthSignInAfterResetPasswordParameters(), delegate: delegate)
        await fulfillment(of: [completedExp], timeout: 20)
        XCTAssertTrue(delegate.onFlowCompletedCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.scenario, .passwordReset)
        XCTAssertEqual(delegate.result?.account.username, username)
    }

    func test_resetPasswordV2_bySMS_thenMFA_thenSignInAfterReset() async throws {
        let username = "margaret@example.com"
        let selectionExp = expectation(description: "recovery method selection")
        let delegate = ResetPasswordV2DelegateSpy(expectation: selectionExp)
        sut.resetPasswordV2(parameters: MSALNativeAuthResetPasswordParametersV2(username: username), delegate: delegate)
        await fulfillment(of: [selectionExp], timeout: 20)
        let recoveryState = try XCTUnwrap(delegate.authMethodSelectionRequiredState, "\(String(describing: delegate.error))")
        XCTAssertEqual(recoveryState.authMethods.map(\.challengeType), ["email", "sms"])
        let sms = try XCTUnwrap(recoveryState.authMethods.first { $0.channelTargetType.isSMSType })

        let codeRequiredExp = expectation(description: "code required")
        delegate.reset(expectation: codeRequiredExp)
        recoveryState.selectAuthMethod(sms, delegate: delegate)
        await fulfillment(of: [codeRequiredExp], timeout: 20)
        let codeRequiredState = try XCTUnwrap(delegate.codeRequiredState, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.channelTargetType?.isSMSType, true)
        XCTAssertEqual(delegate.codeLength, 6)

        let newPasswordRequiredExp = expectation(description: "new password required")
        delegate.reset(expectation: newPasswordRequiredExp)
        codeRequiredState.submitCode(try XCTUnwrap(backend.codes(for: username).last), delegate: delegate)
        await fulfillment(of: [newPasswordRequiredExp], timeout: 20)
        let newPasswordRequiredState = try XCTUnwrap(delegate.newPasswordRequiredState, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.scenario, .passwordReset)

        let mfaSelectionExp = expectation(description: "second factor selection")
        delegate.reset(expectation: mfaSelectionExp)
        newPasswordRequiredState.submitNewPassword(newPassword, delegate: delegate)
        await fulfillment(of: [mfaSelectionExp], timeout: 20)
        XCTAssertTrue(delegate.onAuthMethodSelectionRequiredCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.scenario, .passwordReset)
        let mfaState = try XCTUnwrap(delegate.authMethodSelectionRequiredState)
        let email = try XCTUnwrap(mfaState.authMethods.first { $0.channelTargetType.isEmailType })

        let verificationExp = expectation(description: "MFA code sent")
        delegate.reset(expectation: verificationExp)
        mfaState.selectAuthMethod(email, delegate: delegate)
        await fulfillment(of: [verificationExp], timeout: 20)
        let verificationState = try XCTUnwrap(delegate.mfaVerificationRequiredState, "\(String(describing: delegate.error))")

        let signInAfterResetExp = expectation(description: "reset completed")
        delegate.reset(expectation: signInAfterResetExp)
        verificationState.submitChallenge(try XCTUnwrap(backend.codes(for: username).last), delegate: delegate)
        await fulfillment(of: [signInAfterResetExp], timeout: 20)
        XCTAssertTrue(delegate.onSignInAfterResetPasswordRequiredCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.scenario, .passwordReset)
        let signInAfterResetPasswordState = try XCTUnwrap(delegate.signInAfterResetPasswordState)

        let completedExp = expectation(description: "signed in")
        delegate.reset(expectation: completedExp)
        signInAfterResetPasswordState.signIn(parameters: MSALNativeAuthSignInAfterResetPasswordParameters(), delegate: delegate)
        await fulfillment(of: [completedExp], timeout: 20)
        XCTAssertTrue(delegate.onFlowCompletedCalled, "\(String(describing: delegate.error))")
        XCTAssertEqual(delegate.result?.account.username, username)
    }
}
