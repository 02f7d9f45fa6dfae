import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// The delegate form of every MFA and registration step, and MSAL's fallback for callbacks an app
/// left out.
@Suite(.tags(.concurrency)) @MainActor struct StrongAuthDelegateTests {
    @Test func mfaThroughDelegates() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: StrongAuthFixture.mfaRequired())
        h.stubIntrospect(.signInIntrospect)
        let delegate = RecordingSignInDelegate()
        h.app.signIn(parameters: h.signInParameters(password: Fixture.password), delegate: delegate)
        guard case .awaitingMFA(let methods, let awaiting) = await delegate.waitForEvent() else {
            Issue.record("expected onSignInAwaitingMFA")
            return
        }
        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: StrongAuthFixture.blocked)
        awaiting.requestChallenge(authMethod: methods[1], delegate: delegate)
        guard case .mfaRequestError(let blocked, let retry) = await delegate.waitForEvent() else { return }
        #expect(blocked.isAuthMethodBlocked)
        // MSAL hands an MFARequiredState back even from the awaiting state; it holds the same token.
        let sameToken = try #require(retry)
        #expect(sameToken.continuationToken == "Ti")

        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: StrongAuthFixture.mfaChallenge())
        sameToken.requestChallenge(authMethod: methods[0], delegate: delegate)
        guard case .mfaVerificationRequired(let state, let sentTo, "sms", 6) = await delegate.waitForEvent() else { return }
        #expect(sentTo == "+*******0100")

        h.stub.expect(path: "/oauth2/v2.0/token", reply: StrongAuthFixture.invalidCode)
        state.submitChallenge(challenge: "000000", delegate: delegate)
        guard case .mfaSubmitError(let wrong, let again) = await delegate.waitForEvent() else { return }
        #expect(wrong.isInvalidChallenge && again === state)

        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))
        state.submitChallenge(challenge: Fixture.code, delegate: delegate)
        #expect(await delegate.waitForEvent().name == "onSignInCompleted")
        #expect(
            delegate.events.map(\.name) == [
                "onSignInAwaitingMFA", "onMFARequestChallengeError", "onMFARequestChallengeVerificationRequired",
                "onMFASubmitChallengeError", "onSignInCompleted",
            ])
    }

    @Test func registrationThroughDelegates() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.oobChallenge))
        guard case .codeRequired(let codeState, _, _, _) = try await h.app.signIn(parameters: h.signInParameters()) else { return }
        h.stub.expect(path: "/oauth2/v2.0/token", reply: StrongAuthFixture.registrationRequired())
        h.stubIntrospect(.registerIntrospect)
        let delegate = RecordingSignInDelegate()
        codeState.submitCode(code: Fixture.code, delegate: delegate)
        guard case .strongAuthMethodRegistration(let methods, let state) = await delegate.waitForEvent() else {
            Issue.record("expected onSignInStrongAuthMethodRegistration")
            return
        }
        h.stub.expect(path: "/register/v1.0/challenge", reply: .json(400, Fixture.apiError("invalid_request", codes: [901001])))
        state.challengeAuthMethod(
            parameters: MSALNativeAuthChallengeAuthMethodParameters(authMethod: methods[1], verificationContact: "12"), delegate: delegate)
        guard case .registerChallengeError(let invalid, let retry) = await delegate.waitForEvent() else { return }
        #expect(invalid.isInvalidInput && retry === state)

        h.stub.expect(path: "/register/v1.0/challenge", reply: StrongAuthFixture.registerChallenge())
        state.challengeAuthMethod(
            parameters: MSALNativeAuthChallengeAuthMethodParameters(authMethod: methods[1], verificationContact: StrongAuthFixture.phone),
            delegate: delegate)
        guard case .registerVerificationRequired(let sent) = await delegate.waitForEvent() else { return }

        h.stub.expect(path: "/register/v1.0/continue", reply: StrongAuthFixture.invalidCode)
        sent.newState.submitChallenge(challenge: "1", delegate: delegate)
        guard case .registerSubmitError(let wrong, let again) = await delegate.waitForEvent() else { return }
        #expect(wrong.isInvalidChallenge && again === sent.newState)

        h.stub.expect(path: "/register/v1.0/continue", reply: .json(200, ["continuation_token": "Tz"]))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))
        sent.newState.submitChallenge(challenge: Fixture.code, delegate: delegate)
        #expect(await delegate.waitForEvent().name == "onSignInCompleted")
        #expect(h.stub.unusedStubs.isEmpty && h.stub.mismatches.isEmpty)
    }

    @Test func aDelegateWithoutTheMFACallbackGetsItsErrorCallbackNamingIt() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: StrongAuthFixture.mfaRequired())
        h.stubIntrospect(.signInIntrospect)
        let delegate = PlainSignInScreen()
        h.app.signIn(parameters: h.signInParameters(password: Fixture.password), delegate: delegate)
        let message = await delegate.nextError()
        #expect(message == "MSALNativeAuth has called the delegate method onSignInAwaitingMFA that has not been implemented")

        h.expectStart(challenge: .json(200, Fixture.oobChallenge))
        guard case .codeRequired(let codeState, _, _, _) = try await h.app.signIn(parameters: h.signInParameters()) else { return }
        h.stub.expect(path: "/oauth2/v2.0/token", reply: StrongAuthFixture.registrationRequired())
        h.stubIntrospect(.registerIntrospect)
        codeState.submitCode(code: Fixture.code, delegate: delegate)
        #expect(
            await delegate.nextError()
                == "MSALNativeAuth has called the delegate method onSignInStrongAuthMethodRegistration that has not been implemented")
    }
}

/// An app's screen written before MFA existed: several sign-in delegates, none of the new callbacks.
/// That it compiles is half the test (one default per callback, not one per protocol).
@MainActor
private final class PlainSignInScreen: SignInStartDelegate, SignInVerifyCodeDelegate, SignInPasswordRequiredDelegate {
    private var errors: [String] = []
    private var waiter: CheckedContinuation<String, Never>?

    func nextError() async -> String {
        if !errors.isEmpty { return errors.removeFirst() }
        return await withCheckedContinuation { waiter = $0 }
    }

    private func record(_ message: String?) {
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: message ?? "")
        } else {
            errors.append(message ?? "")
        }
    }

    func onSignInStartError(error: SignInStartError) { record(error.errorDescription) }
    func onSignInVerifyCodeError(error: VerifyCodeError, newState: SignInCodeRequiredState?) { record(error.errorDescription) }
    func onSignInPasswordRequiredError(error: PasswordRequiredError, newState: SignInPasswordRequiredState?) {
        record(error.errorDescription)
    }
    func onSignInCompleted(result: MSALNativeAuthUserAccountResult) { record("completed") }
}
