import MSAL
import XCTest

/// Client code as MSAL's own end-to-end tests write it: nonisolated async test methods that make
/// plain delegate spies, start a step, await the expectation and read the spy's properties.
final class DelegateClientTests: XCTestCase {
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

    func test_signInWithPassword_thenTwoScopeSets() async throws {
        let signInExpectation = expectation(description: "signing in")
        let signInDelegateSpy = SignInPasswordStartDelegateSpy(expectation: signInExpectation)
        let parameters = MSALNativeAuthSignInParameters(username: "ada@example.com")
        parameters.password = "Analytical-Engine-1843"
        parameters.scopes = Configuration.scopes
        sut.signIn(parameters: parameters, delegate: signInDelegateSpy)
        await fulfillment(of: [signInExpectation], timeout: 20)

        XCTAssertTrue(signInDelegateSpy.onSignInCompletedCalled)
        XCTAssertFalse(signInDelegateSpy.onSignInStartErrorCalled)
        let result = try XCTUnwrap(signInDelegateSpy.result)
        XCTAssertEqual(result.account.username, "ada@example.com")

        for scopes in [Configuration.scopes, Configuration.secondScopes] {
            let tokenExpectation = expectation(description: "token for \(scopes)")
            let credentialsDelegateSpy = CredentialsDelegateSpy(expectation: tokenExpectation)
            let tokenParameters = MSALNativeAuthGetAccessTokenParameters()
            tokenParameters.scopes = scopes
            result.getAccessToken(parameters: tokenParameters, delegate: credentialsDelegateSpy)
            await fulfillment(of: [tokenExpectation], timeout: 20)
            XCTAssertNil(credentialsDelegateSpy.error)
            XCTAssertEqual(credentialsDelegateSpy.result?.scopes.contains(scopes[0]), true)
        }
    }

    /// MSAL's end-to-end test of a resend: the new code is submitted on the state that asked for it.
    func test_signInWithCode_resendThenSubmitTheNewCodeOnTheSameState() async throws {
        sut = try Configuration.makeApplication(authority: backend.authority, clientId: Configuration.codeOnlyClientId)
        let username = "grace@example.com"

        let signInExpectation = expectation(description: "signing in")
        let signInDelegateSpy = SignInCodeStartDelegateSpy(expectation: signInExpectation)
        sut.signIn(parameters: MSALNativeAuthSignInParameters(username: username), delegate: signInDelegateSpy)
        await fulfillment(of: [signInExpectation], timeout: 20)
        XCTAssertTrue(signInDelegateSpy.onSignInCodeRequiredCalled)
        XCTAssertEqual(signInDelegateSpy.channelTargetType?.isEmailType, true)
        XCTAssertEqual(signInDelegateSpy.codeLength, 8)
        let codeRequiredState = try XCTUnwrap(signInDelegateSpy.newStateCodeRequired)

        let resendExpectation = expectation(description: "resending")
        let resendDelegateSpy = SignInResendCodeDelegateSpy(expectation: resendExpectation)
        codeRequiredState.resendCode(delegate: resendDelegateSpy)
        await fulfillment(of: [resendExpectation], timeout: 20)
        XCTAssertTrue(resendDelegateSpy.onSignInResendCodeCodeRequiredCalled)
        XCTAssertEqual(backend.codes(for: username).count, 2)

        let verifyExpectation = expectation(description: "verifying the new code")
        let verifyDelegateSpy = SignInVerifyCodeDelegateSpy(expectation: verifyExpectation)
        codeRequiredState.submitCode(code: try XCTUnwrap(backend.codes(for: username).last), delegate: verifyDelegateSpy)
        await fulfillment(of: [verifyExpectation], timeout: 20)
        XCTAssertTrue(verifyDelegateSpy.onSignInCompletedCalled, "\(String(describing: verifyDelegateSpy.error))")
        XCTAssertEqual(verifyDelegateSpy.result?.account.username, username)
    }

    func test_signUpWithCode_thenSignInAfterSignUp() async throws {
        sut = try Configuration.makeApplication(authority: backend.authority, clientId: Configuration.codeOnlyClientId)
        let username = "new.user.\(UUID().uuidString.prefix(8))@example.com"

        let startExpectation = expectation(description: "sign-up start")
        let startSpy = SignUpStartDelegateSpy(expectation: startExpectation)
        let parameters = MSALNativeAuthSignUpParameters(username: username)
        parameters.attributes = ["displayName": "New User"]
        sut.signUp(parameters: parameters, delegate: startSpy)
        await fulfillment(of: [startExpectation], timeout: 20)
        let codeState = try XCTUnwrap(startSpy.newState, "\(String(describing: startSpy.error))")

        let verifyExpectation = expectation(description: "sign-up code")
        let verifySpy = SignUpVerifyCodeDelegateSpy(expectation: verifyExpectation)
        codeState.submitCode(code: try XCTUnwrap(backend.codes(for: username).last), delegate: verifySpy)
        await fulfillment(of: [verifyExpectation], timeout: 20)
        XCTAssertTrue(verifySpy.onSignUpCompletedCalled, "\(String(describing: verifySpy.error))")

        let signInExpectation = expectation(description: "sign-in after sign-up")
        let signInSpy = SignInAfterSignUpDelegateSpy(expectation: signInExpectation)
        try XCTUnwrap(verifySpy.signInAfterSignUpState).signIn(parameters: MSALNativeAuthSignInAfterSignUpParameters(), delegate: signInSpy)
        await fulfillment(of: [signInExpectation], timeout: 20)
        XCTAssertEqual(signInSpy.result?.account.username, username, "\(String(describing: signInSpy.error))")
    }

    func test_resetPassword_thenSignInAfterReset() async throws {
        let username = "ada@example.com"
        let startExpectation = expectation(description: "reset start")
        let startSpy = ResetPasswordStartDelegateSpy(expectation: startExpectation)
        sut.resetPassword(parameters: MSALNativeAuthResetPasswordParameters(username: username), delegate: startSpy)
        await fulfillment(of: [startExpectation], timeout: 20)
        let codeState = try XCTUnwrap(startSpy.newState, "\(String(describing: startSpy.error))")

        let verifyExpectation = expectation(description: "reset code")
        let verifySpy = ResetPasswordVerifyCodeDelegateSpy(expectation: verifyExpectation)
        codeState.submitCode(code: try XCTUnwrap(backend.codes(for: username).last), delegate: verifySpy)
        await fulfillment(of: [verifyExpectation], timeout: 20)
        let passwordState = try XCTUnwrap(verifySpy.newState, "\(String(describing: verifySpy.error))")

        let passwordExpectation = expectation(description: "new password")
        let passwordSpy = ResetPasswordRequiredDelegateSpy(expectation: passwordExpectation)
        passwordState.submitPassword(password: "Difference-Engine-1822", delegate: passwordSpy)
        await fulfillment(of: [passwordExpectation], timeout: 20)
        let afterReset = try XCTUnwrap(passwordSpy.signInAfterResetPasswordState, "\(String(describing: passwordSpy.error))")

        let signInExpectation = expectation(description: "sign-in after reset")
        let signInSpy = SignInAfterResetPasswordDelegateSpy(expectation: signInExpectation)
        afterReset.signIn(parameters: MSALNativeAuthSignInAfterResetPasswordParameters(), delegate: signInSpy)
        await fulfillment(of: [signInExpectation], timeout: 20)
        XCTAssertEqual(signInSpy.result?.account.username, username, "\(String(describing: signInSpy.error))")
    }

    func test_signInWithMFA() async throws {
        let username = "alan@example.com"
        let signInExpectation = expectation(description: "first factor")
        let signInSpy = SignInPasswordStartDelegateSpy(expectation: signInExpectation)
        let parameters = MSALNativeAuthSignInParameters(username: username)
        parameters.password = "Turing-Machine-1936"
        sut.signIn(parameters: parameters, delegate: signInSpy)
        await fulfillment(of: [signInExpectation], timeout: 20)
        XCTAssertTrue(signInSpy.onSignInAwaitingMFACalled, "\(String(describing: signInSpy.error))")
        let awaitingState = try XCTUnwrap(signInSpy.newStateAwaitingMFA)
        let method = try XCTUnwrap(signInSpy.authMethods?.first)

        let challengeExpectation = expectation(description: "second factor challenge")
        let challengeSpy = MFARequestChallengeDelegateSpy(expectation: challengeExpectation)
        awaitingState.requestChallenge(authMethod: method, delegate: challengeSpy)
        await fulfillment(of: [challengeExpectation], timeout: 20)
        let mfaState = try XCTUnwrap(challengeSpy.newStateMFARequired, "\(String(describing: challengeSpy.error))")

        let submitExpectation = expectation(description: "second factor code")
        let submitSpy = MFASubmitChallengeDelegateSpy(expectation: submitExpectation)
        mfaState.submitChallenge(challenge: try XCTUnwrap(backend.codes(for: username).last), delegate: submitSpy)
        await fulfillment(of: [submitExpectation], timeout: 20)
        XCTAssertEqual(submitSpy.result?.account.username, username, "\(String(describing: submitSpy.error))")
    }

    /// A daemon's delegate is made on a background thread and read there once the callback ran.
    func test_aSpyMadeAndReadOnABackgroundThread() throws {
        let signInExpectation = expectation(description: "signing in")
        let app = sut!
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var spy: SignInPasswordStartDelegateSpy?
        Thread.detachNewThread {
            let delegate = SignInPasswordStartDelegateSpy(expectation: signInExpectation)
            let parameters = MSALNativeAuthSignInParameters(username: "ada@example.com")
            parameters.password = "wrong password"
            app.signIn(parameters: parameters, delegate: delegate)
            spy = delegate
            done.signal()
        }
        done.wait()
        wait(for: [signInExpectation], timeout: 20)
        XCTAssertTrue(try XCTUnwrap(spy).onSignInStartErrorCalled)
        XCTAssertEqual(spy?.error?.isInvalidCredentials, true)
    }

    func test_aScreenServingEveryStep() async throws {
        sut = try Configuration.makeApplication(authority: backend.authority, clientId: Configuration.codeOnlyClientId)
        let screen = SignInScreen(nativeAuth: sut)
        let codeShown = expectation(description: "code prompt")
        screen.onChange = { codeShown.fulfill() }
        screen.signInPressed(email: "grace@example.com")
        await fulfillment(of: [codeShown], timeout: 20)
        XCTAssertNotNil(screen.codeState, screen.status)

        let signedInAndToken = expectation(description: "signed in, then a token")
        signedInAndToken.expectedFulfillmentCount = 2
        screen.onChange = { signedInAndToken.fulfill() }
        screen.codeEntered(try XCTUnwrap(backend.codes(for: "grace@example.com").last))
        await fulfillment(of: [signedInAndToken], timeout: 20)
        XCTAssertEqual(screen.accountResult?.account.username, "grace@example.com")
        XCTAssertNotNil(screen.accessToken, screen.status)
    }

    func test_aMainActorScreen() async throws {
        let done = expectation(description: "signed in with a token")
        let screen = await MainActorSignInScreen()
        await MainActor.run { screen.done = { done.fulfill() } }
        let parameters = MSALNativeAuthSignInParameters(username: "ada@example.com")
        parameters.password = "Analytical-Engine-1843"
        sut.signIn(parameters: parameters, delegate: screen)
        await fulfillment(of: [done], timeout: 20)
        let token = await screen.token
        XCTAssertNotNil(token)
    }
}
