import Foundation
import MSAL
import NativeAuthTesting
import Testing

@testable import MSAL

@Suite struct MFAFlowTests {
    @Test func passwordSignInLeadsToTheMethodsOfIntrospect() async throws {
        let h = try Harness { $0.capabilities = [.mfaRequired] }
        let (methods, state) = try await h.awaitingMFA()
        #expect(methods.map(\.id) == ["m-email", "m-sms"])
        #expect(methods.map(\.channelTargetType.isEmailType) == [true, false])
        #expect(methods[1].channelTargetType.isSMSType && methods[1].challengeType == "oob")
        #expect(methods[1].loginHint == "+*******0100")
        #expect(state.continuationToken == "Ti")
        #expect(h.stub.unusedStubs.isEmpty && h.stub.mismatches.isEmpty)
    }

    @Test func challengeWithTheMethodIdThenWrongThenRightCode() async throws {
        let h = try Harness()
        let (methods, awaiting) = try await h.awaitingMFA()
        h.stub.expect(
            path: "/oauth2/v2.0/challenge", reply: StrongAuthFixture.mfaChallenge(),
            check: StrongAuthFixture.fields(["continuation_token": "Ti", "id": "m-sms", "challenge_type": "oob password redirect"]))
        let sent = try await awaiting.requestChallenge(authMethod: methods[1])
        let state = sent.newState
        #expect(sent.sentTo == "+*******0100" && sent.channelTargetType.isSMSType && sent.codeLength == 6)

        h.stub.expect(path: "/oauth2/v2.0/token", reply: StrongAuthFixture.invalidCode)
        let wrong = try await #require(throws: MFASubmitChallengeError.self) { try await state.submitChallenge(challenge: "000000") }
        #expect(wrong.isInvalidChallenge && !wrong.isBrowserRequired)

        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()),
            check: StrongAuthFixture.fields([
                "grant_type": "mfa_oob", "oob": Fixture.code, "continuation_token": "Tc", "scope": "openid profile offline_access",
                "challenge_type": nil, "username": nil,
            ]))
        let result = try await state.submitChallenge(challenge: Fixture.code)
        #expect(result.account.username == Fixture.username)
        #expect(h.stub.unusedStubs.isEmpty && h.stub.mismatches.isEmpty)
    }

    @Test func theSecondFactorKeepsTheScopesAndClaimsOfTheSignIn() async throws {
        let h = try Harness()
        guard
            case .awaitingMFA(let methods, let awaiting) = try await h.signInWithPassword(
                answer: StrongAuthFixture.mfaRequired(), scopes: ["api://todo/ToDoList.Read"],
                then: { $0.stubIntrospect(.signInIntrospect) })
        else { return }
        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: StrongAuthFixture.mfaChallenge())
        let state = try await awaiting.requestChallenge(authMethod: methods[0]).newState
        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody(scope: "api://todo/ToDoList.Read")),
            check: StrongAuthFixture.fields(["scope": "api://todo/ToDoList.Read openid profile offline_access"]))
        _ = try await state.submitChallenge(challenge: Fixture.code)
        #expect(h.stub.mismatches.isEmpty)
    }

    @Test func emptyCodeIsInvalidWithoutARequest() async throws {
        let h = try Harness()
        let (methods, awaiting) = try await h.awaitingMFA()
        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: StrongAuthFixture.mfaChallenge())
        let state = try await awaiting.requestChallenge(authMethod: methods[0]).newState
        let count = h.stub.receivedRequests.count
        let error = try await #require(throws: MFASubmitChallengeError.self) { try await state.submitChallenge(challenge: "") }
        #expect(error.isInvalidChallenge && error.errorDescription == "Invalid challenge")
        #expect(h.stub.receivedRequests.count == count)
    }

    @Test func blockedMethodKeepsTheStateForAnotherMethod() async throws {
        let h = try Harness()
        let (methods, awaiting) = try await h.awaitingMFA()
        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: StrongAuthFixture.blocked)
        let error = try await #require(throws: MFARequestChallengeError.self) {
            try await awaiting.requestChallenge(authMethod: methods[1])
        }
        #expect(error.isAuthMethodBlocked && error.errorCodes == [550024])
        h.stub.expect(
            path: "/oauth2/v2.0/challenge", reply: StrongAuthFixture.mfaChallenge(channel: "email"),
            check: StrongAuthFixture.fields(["continuation_token": "Ti", "id": "m-email"]))
        let channel = try await awaiting.requestChallenge(authMethod: methods[0]).channelTargetType
        #expect(channel.isEmailType)
    }

    @Test func requestAgainFromTheCodeStateSendsANewCode() async throws {
        let h = try Harness()
        let (methods, awaiting) = try await h.awaitingMFA()
        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: StrongAuthFixture.mfaChallenge())
        let first = try await awaiting.requestChallenge(authMethod: methods[1]).newState
        h.stub.expect(
            path: "/oauth2/v2.0/challenge", reply: StrongAuthFixture.mfaChallenge(token: "Tc2"),
            check: StrongAuthFixture.fields(["continuation_token": "Tc", "id": "m-sms"]))
        let second = try await first.requestChallenge(authMethod: methods[1]).newState
        #expect(second.continuationToken == "Tc2")
        // As in MSAL, the first code state still sends its own token; the service decides.
        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()),
            check: StrongAuthFixture.fields(["continuation_token": "Tc", "grant_type": "mfa_oob", "oob": Fixture.code]))
        _ = try await first.submitChallenge(challenge: Fixture.code)
        #expect(h.stub.unusedStubs.isEmpty && h.stub.mismatches.isEmpty)
    }

    @Test func anAwaitingStateAsksTheServiceAgain() async throws {
        let h = try Harness()
        let (methods, awaiting) = try await h.awaitingMFA()
        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: StrongAuthFixture.mfaChallenge())
        _ = try await awaiting.requestChallenge(authMethod: methods[0])
        h.stub.expect(
            path: "/oauth2/v2.0/challenge", reply: StrongAuthFixture.mfaChallenge(token: "Tc2"),
            check: StrongAuthFixture.fields(["continuation_token": "Ti", "id": methods[0].id]))
        let again = try await awaiting.requestChallenge(authMethod: methods[0]).newState
        #expect(again.continuationToken == "Tc2")
        #expect(h.stub.unusedStubs.isEmpty && h.stub.mismatches.isEmpty)
    }

    @Test func challengeRedirectIsBrowserRequiredAndPasswordIsGeneral() async throws {
        let h = try Harness()
        let (methods, awaiting) = try await h.awaitingMFA()
        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: .json(200, ["challenge_type": "redirect", "redirect_reason": "policy"]))
        let redirect = try await #require(throws: MFARequestChallengeError.self) {
            try await awaiting.requestChallenge(authMethod: methods[0])
        }
        #expect(redirect.isBrowserRequired && redirect.errorDescription == "policy")
        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: .json(200, Fixture.passwordChallenge))
        let password = try await #require(throws: MFARequestChallengeError.self) {
            try await awaiting.requestChallenge(authMethod: methods[0])
        }
        #expect(!password.isBrowserRequired && !password.isAuthMethodBlocked)
    }

    @Test func aSecondStrongAuthAnswerEndsTheFlow() async throws {
        let h = try Harness()
        let (methods, awaiting) = try await h.awaitingMFA()
        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: StrongAuthFixture.mfaChallenge())
        let state = try await awaiting.requestChallenge(authMethod: methods[0]).newState
        h.stub.expect(path: "/oauth2/v2.0/token", reply: StrongAuthFixture.mfaRequired(token: "Tm2"))
        let error = try await #require(throws: MFASubmitChallengeError.self) { try await state.submitChallenge(challenge: Fixture.code) }
        #expect(!error.isInvalidChallenge)
        #expect(state.lifecycle.hasEnded)
    }

    @Test(
        arguments: [
            (StubTransport.Reply.json(200, ["challenge_type": "redirect"]), true),
            (.json(400, Fixture.apiError("expired_token", codes: [552003])), false),
            (.json(200, ["continuation_token": "Ti", "methods": [] as [Any]]), false),
            (
                .json(200, ["continuation_token": "Ti", "methods": [["id": "x", "challenge_type": "push", "challenge_channel": "app"]]]),
                false
            ),
            (.json(200, ["methods": [["id": "x", "challenge_type": "oob", "challenge_channel": "sms"]]]), false),
        ])
    func introspectFailuresEndTheSignIn(reply: StubTransport.Reply, browser: Bool) async throws {
        let h = try Harness()
        let error = try await #require(throws: SignInStartError.self) {
            try await h.signInWithPassword(answer: StrongAuthFixture.mfaRequired()) {
                $0.stub.expect(path: "/oauth2/v2.0/introspect", reply: reply)
            }
        }
        #expect(error.isBrowserRequired == browser)
        #expect(!error.isInvalidCredentials)
    }

    @Test func anIntrospectFailureAfterAPasswordStateEndsItsFlow() async throws {
        // The password was accepted and the server moved on: the state's token is spent, so the
        // delegate form must hand back no state (a wrong password, by contrast, keeps it).
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        guard case .passwordRequired(let state) = try await h.app.signIn(parameters: h.signInParameters()) else { return }
        h.stub.expect(path: "/oauth2/v2.0/token", reply: StrongAuthFixture.mfaRequired())
        h.stub.expect(path: "/oauth2/v2.0/introspect", reply: .json(400, Fixture.apiError("expired_token", codes: [552003])))
        let error = try await #require(throws: PasswordRequiredError.self) { try await state.submitPassword(password: Fixture.password) }
        #expect(!error.isInvalidPassword && error.errorCodes == [552003])
        #expect(state.lifecycle.hasEnded)
    }

    @Test func capabilityRedirectAtTheTokenEndpointIsBrowserRequired() async throws {
        let h = try Harness()
        let error = try await #require(throws: SignInStartError.self) {
            try await h.signInWithPassword(
                answer: .json(200, ["challenge_type": "redirect", "redirect_reason": "Client is missing the mfa_required capability"]))
        }
        #expect(error.isBrowserRequired && error.errorDescription == "Client is missing the mfa_required capability")
    }

    @Test func mfaAfterACodeAndAfterAPasswordState() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.oobChallenge))
        guard case .codeRequired(let codeState, _, _, _) = try await h.app.signIn(parameters: h.signInParameters()) else { return }
        h.stub.expect(path: "/oauth2/v2.0/token", reply: StrongAuthFixture.mfaRequired())
        h.stubIntrospect(.signInIntrospect)
        guard case .awaitingMFA = try await codeState.submitCode(code: Fixture.code) else {
            Issue.record("expected .awaitingMFA after the code")
            return
        }
        #expect(!codeState.lifecycle.hasEnded)

        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        guard case .passwordRequired(let passwordState) = try await h.app.signIn(parameters: h.signInParameters()) else { return }
        h.stub.expect(path: "/oauth2/v2.0/token", reply: StrongAuthFixture.registrationRequired())
        h.stubIntrospect(.registerIntrospect)
        guard case .strongAuthMethodRegistration = try await passwordState.submitPassword(password: Fixture.password) else {
            Issue.record("expected .strongAuthMethodRegistration after the password")
            return
        }
        #expect(h.stub.unusedStubs.isEmpty && h.stub.mismatches.isEmpty)
    }

    @Test func secondFactorsStayOutOfTheLog() async throws {
        let h = try Harness()
        let (methods, awaiting) = try await h.awaitingMFA()
        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: StrongAuthFixture.mfaChallenge())
        let state = try await awaiting.requestChallenge(authMethod: methods[1]).newState
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))
        _ = try await state.submitChallenge(challenge: Fixture.code)
        for secret in [Fixture.code, "Tm", "Ti", "Tc", "+*******0100", "a***p@co*****o.org", Fixture.password] {
            #expect(!h.log.text.contains(secret), "the log shows \(secret)")
        }
        #expect(h.log.text.contains("/oauth2/v2.0/introspect"))
    }
}
