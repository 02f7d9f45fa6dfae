import Foundation
import MSAL
import NativeAuthTesting
import Testing

@testable import MSAL

/// Stub answers of the MFA and strong-auth registration endpoints (spec §5.1, §5.4, §10.7, §10.8).
enum StrongAuthFixture {
    static let phone = "+15550100"
    static let backupEmail = "ada.backup@contoso.org"

    static func mfaRequired(token: String = "Tm") -> StubTransport.Reply {
        .json(400, Fixture.apiError("invalid_grant", suberror: "mfa_required", codes: [50076], extra: ["continuation_token": token]))
    }
    static func registrationRequired(token: String = "Tr") -> StubTransport.Reply {
        .json(
            400, Fixture.apiError("invalid_grant", suberror: "registration_required", codes: [50079], extra: ["continuation_token": token]))
    }
    static var mfaIntrospect: StubTransport.Reply {
        .json(
            200,
            [
                "continuation_token": "Ti",
                "methods": [
                    ["id": "m-email", "challenge_type": "oob", "challenge_channel": "email", "login_hint": "a***p@co*****o.org"],
                    ["id": "m-sms", "challenge_type": "oob", "challenge_channel": "sms", "login_hint": "+*******0100"],
                ],
            ])
    }
    static var registerIntrospect: StubTransport.Reply {
        .json(
            200,
            [
                "continuation_token": "Tj",
                "methods": [
                    ["id": "email", "challenge_type": "oob", "challenge_channel": "email", "login_hint": "a***@co**o.com"],
                    ["id": "sms", "challenge_type": "oob", "challenge_channel": "sms"],
                ],
            ])
    }
    static func mfaChallenge(token: String = "Tc", channel: String = "sms") -> StubTransport.Reply {
        .json(
            200,
            [
                "continuation_token": token, "challenge_type": "oob", "binding_method": "prompt", "challenge_channel": channel,
                "challenge_target_label": "+*******0100", "code_length": 6, "interval": 300,
            ])
    }
    static func registerChallenge(token: String = "Tk", target: String = phone, channel: String = "sms") -> StubTransport.Reply {
        .json(
            200,
            [
                "continuation_token": token, "challenge_type": "oob", "binding_method": "prompt", "challenge_target": target,
                "challenge_channel": channel, "code_length": 8,
            ])
    }
    static var invalidCode: StubTransport.Reply {
        .json(400, Fixture.apiError("invalid_grant", suberror: "invalid_oob_value", codes: [50181]))
    }
    static var blocked: StubTransport.Reply {
        .json(400, Fixture.apiError("access_denied", suberror: "provider_blocked_by_rep", codes: [550024]))
    }

    /// A check that the request's form has exactly these values for these fields (nil: absent).
    static func fields(_ expected: [String: String?]) -> @Sendable (HTTPRequest) -> String? {
        { request in
            let form = request.formFields
            for (name, value) in expected where form[name] != value {
                return "\(name) is \(form[name] ?? "absent"), expected \(value ?? "absent")"
            }
            return nil
        }
    }
}

extension Harness {
    /// A password sign-in whose token call answers `reply` and whose further requests are answered by
    /// what `then` queues; returns what the start returned.
    func signInWithPassword(
        answer reply: StubTransport.Reply, scopes: [String]? = nil, then: (Harness) -> Void = { _ in }
    ) async throws -> SignInStartResult {
        expectStart(challenge: .json(200, Fixture.passwordChallenge))
        stub.expect(path: "/oauth2/v2.0/token", reply: reply)
        then(self)
        return try await app.signIn(parameters: signInParameters(password: Fixture.password, scopes: scopes))
    }

    /// Password sign-in → `mfa_required` → introspect: the state awaiting a method choice.
    func awaitingMFA() async throws -> (methods: [MSALAuthMethod], state: AwaitingMFAState) {
        let result = try await signInWithPassword(answer: StrongAuthFixture.mfaRequired()) { $0.stubIntrospect(.signInIntrospect) }
        guard case .awaitingMFA(let methods, let state) = result else {
            throw UnexpectedOutcome("expected .awaitingMFA")
        }
        return (methods, state)
    }

    /// Password sign-in → `registration_required` → register/introspect: the registration state.
    func registration() async throws -> (methods: [MSALAuthMethod], state: RegisterStrongAuthState) {
        let result = try await signInWithPassword(answer: StrongAuthFixture.registrationRequired()) {
            $0.stubIntrospect(.registerIntrospect)
        }
        guard case .strongAuthMethodRegistration(let methods, let state) = result else {
            throw UnexpectedOutcome("expected .strongAuthMethodRegistration")
        }
        return (methods, state)
    }

    func stubIntrospect(_ endpoint: NativeAuthEndpoint) {
        let mfa = endpoint == .signInIntrospect
        stub.expect(
            path: endpoint.path, reply: mfa ? StrongAuthFixture.mfaIntrospect : StrongAuthFixture.registerIntrospect,
            check: StrongAuthFixture.fields(["continuation_token": mfa ? "Tm" : "Tr"]))
    }
}

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
        guard
            case .verificationRequired(let state, let sentTo, let channel, let codeLength) = try await awaiting.requestChallenge(
                authMethod: methods[1])
        else { return }
        #expect(sentTo == "+*******0100" && channel.isSMSType && codeLength == 6)

        h.stub.expect(path: "/oauth2/v2.0/token", reply: StrongAuthFixture.invalidCode)
        let wrong = try await #require(throws: MFASubmitChallengeError.self) { try await state.submitChallenge(challenge: "000000") }
        #expect(wrong.isInvalidChallenge && !wrong.isBrowserRequired)

        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()),
            check: StrongAuthFixture.fields([
                "grant_type": "mfa_oob", "oob": Fixture.code, "continuation_token": "Tc", "scope": "openid profile offline_access",
                "challenge_type": nil, "username": nil,
            ]))
        guard case .completed(let result) = try await state.submitChallenge(challenge: Fixture.code) else { return }
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
        guard case .verificationRequired(let state, _, _, _) = try await awaiting.requestChallenge(authMethod: methods[0]) else { return }
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
        guard case .verificationRequired(let state, _, _, _) = try await awaiting.requestChallenge(authMethod: methods[0]) else { return }
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
        guard case .verificationRequired(_, _, let channel, _) = try await awaiting.requestChallenge(authMethod: methods[0]) else { return }
        #expect(channel.isEmailType)
    }

    @Test func requestAgainFromTheCodeStateSendsANewCode() async throws {
        let h = try Harness()
        let (methods, awaiting) = try await h.awaitingMFA()
        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: StrongAuthFixture.mfaChallenge())
        guard case .verificationRequired(let first, _, _, _) = try await awaiting.requestChallenge(authMethod: methods[1]) else { return }
        h.stub.expect(
            path: "/oauth2/v2.0/challenge", reply: StrongAuthFixture.mfaChallenge(token: "Tc2"),
            check: StrongAuthFixture.fields(["continuation_token": "Tc", "id": "m-sms"]))
        guard case .verificationRequired(let second, _, _, _) = try await first.requestChallenge(authMethod: methods[1]) else { return }
        #expect(second.continuationToken == "Tc2")
        // As in MSAL, the first code state still sends its own token; the service decides.
        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()),
            check: StrongAuthFixture.fields(["continuation_token": "Tc", "grant_type": "mfa_oob", "oob": Fixture.code]))
        guard case .completed = try await first.submitChallenge(challenge: Fixture.code) else {
            Issue.record("expected the sign-in to complete")
            return
        }
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
        guard case .verificationRequired(let again, _, _, _) = try await awaiting.requestChallenge(authMethod: methods[0]) else { return }
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
        guard case .verificationRequired(let state, _, _, _) = try await awaiting.requestChallenge(authMethod: methods[0]) else { return }
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
        guard case .verificationRequired(let state, _, _, _) = try await awaiting.requestChallenge(authMethod: methods[1]) else { return }
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))
        _ = try await state.submitChallenge(challenge: Fixture.code)
        for secret in [Fixture.code, "Tm", "Ti", "Tc", "+*******0100", "a***p@co*****o.org", Fixture.password] {
            #expect(!h.log.text.contains(secret), "the log shows \(secret)")
        }
        #expect(h.log.text.contains("/oauth2/v2.0/introspect"))
    }
}

@Suite struct StrongAuthRegistrationFlowTests {
    @Test func registrationSendsTheContactThenTheCodeThenSignsIn() async throws {
        let h = try Harness()
        let (methods, state) = try await h.registration()
        #expect(methods.map(\.id) == ["email", "sms"] && methods[1].loginHint == nil)
        h.stub.expect(
            path: "/register/v1.0/challenge", reply: StrongAuthFixture.registerChallenge(),
            check: StrongAuthFixture.fields([
                "continuation_token": "Tj", "challenge_type": "oob", "challenge_target": StrongAuthFixture.phone,
                "challenge_channel": "sms",
            ]))
        let parameters = MSALNativeAuthChallengeAuthMethodParameters(authMethod: methods[1], verificationContact: " +15550100 ")
        guard case .verificationRequired(let sent) = try await state.challengeAuthMethod(parameters: parameters) else { return }
        #expect(sent.sentTo == StrongAuthFixture.phone && sent.channelTargetType.isSMSType && sent.codeLength == 8)

        h.stub.expect(path: "/register/v1.0/continue", reply: StrongAuthFixture.invalidCode)
        let wrong = try await #require(throws: RegisterStrongAuthSubmitChallengeError.self) {
            try await sent.newState.submitChallenge(challenge: "00000000")
        }
        #expect(wrong.isInvalidChallenge)

        h.stub.expect(
            path: "/register/v1.0/continue", reply: .json(200, ["continuation_token": "Tz"]),
            check: StrongAuthFixture.fields(["continuation_token": "Tk", "grant_type": "oob", "oob": Fixture.code]))
        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()),
            check: StrongAuthFixture.fields([
                "continuation_token": "Tz", "grant_type": "continuation_token", "username": nil, "challenge_type": "oob password redirect",
            ]))
        guard case .completed(let result) = try await sent.newState.submitChallenge(challenge: Fixture.code) else { return }
        #expect(result.account.username == Fixture.username)
        #expect(h.stub.unusedStubs.isEmpty && h.stub.mismatches.isEmpty)
    }

    @Test func preverifiedContactRegistersAndSignsInAtOnce() async throws {
        let h = try Harness()
        let (methods, state) = try await h.registration()
        h.stub.expect(path: "/register/v1.0/challenge", reply: .json(200, ["continuation_token": "Tk", "challenge_type": "preverified"]))
        h.stub.expect(
            path: "/register/v1.0/continue", reply: .json(200, ["continuation_token": "Tz"]),
            check: StrongAuthFixture.fields(["continuation_token": "Tk", "grant_type": "continuation_token", "oob": nil]))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))
        let parameters = MSALNativeAuthChallengeAuthMethodParameters(authMethod: methods[0], verificationContact: Fixture.username)
        guard case .completed = try await state.challengeAuthMethod(parameters: parameters) else {
            Issue.record("expected .completed")
            return
        }
        #expect(h.stub.unusedStubs.isEmpty && h.stub.mismatches.isEmpty)
    }

    @Test func emptyContactAndEmptyCodeAreRefusedWithoutARequest() async throws {
        let h = try Harness()
        let (methods, state) = try await h.registration()
        let count = h.stub.receivedRequests.count
        let empty = try await #require(throws: RegisterStrongAuthChallengeError.self) {
            try await state.challengeAuthMethod(
                parameters: MSALNativeAuthChallengeAuthMethodParameters(authMethod: methods[0], verificationContact: "  "))
        }
        #expect(empty.isInvalidInput && empty.errorDescription == "Invalid input")
        #expect(h.stub.receivedRequests.count == count && !state.lifecycle.hasEnded)
    }

    @Test func invalidAndBlockedContactsKeepTheStateUsable() async throws {
        let h = try Harness()
        let (methods, state) = try await h.registration()
        let parameters = MSALNativeAuthChallengeAuthMethodParameters(authMethod: methods[1], verificationContact: "12")
        h.stub.expect(path: "/register/v1.0/challenge", reply: .json(400, Fixture.apiError("invalid_request", codes: [901001])))
        let invalid = try await #require(throws: RegisterStrongAuthChallengeError.self) {
            try await state.challengeAuthMethod(parameters: parameters)
        }
        #expect(invalid.isInvalidInput && !invalid.isVerificationContactBlocked)
        h.stub.expect(path: "/register/v1.0/challenge", reply: StrongAuthFixture.blocked)
        let blocked = try await #require(throws: RegisterStrongAuthChallengeError.self) {
            try await state.challengeAuthMethod(parameters: parameters)
        }
        #expect(blocked.isVerificationContactBlocked && !blocked.isInvalidInput)
        h.stub.expect(path: "/register/v1.0/challenge", reply: .json(400, Fixture.apiError("invalid_request", codes: [90100])))
        let other = try await #require(throws: RegisterStrongAuthChallengeError.self) {
            try await state.challengeAuthMethod(parameters: parameters)
        }
        #expect(!other.isInvalidInput && !other.isVerificationContactBlocked && !other.isBrowserRequired)
        #expect(!state.lifecycle.hasEnded)
    }

    @Test func redirectEndsTheRegistration() async throws {
        let h = try Harness()
        let (methods, state) = try await h.registration()
        h.stub.expect(path: "/register/v1.0/challenge", reply: .json(200, ["challenge_type": "redirect"]))
        let error = try await #require(throws: RegisterStrongAuthChallengeError.self) {
            try await state.challengeAuthMethod(
                parameters: MSALNativeAuthChallengeAuthMethodParameters(
                    authMethod: methods[0], verificationContact: StrongAuthFixture.backupEmail))
        }
        #expect(error.isBrowserRequired && state.lifecycle.hasEnded)
    }

    @Test func aFailedTokenCallAfterRegistrationEndsTheFlow() async throws {
        let h = try Harness()
        let (methods, state) = try await h.registration()
        h.stub.expect(path: "/register/v1.0/challenge", reply: StrongAuthFixture.registerChallenge())
        guard
            case .verificationRequired(let sent) = try await state.challengeAuthMethod(
                parameters: MSALNativeAuthChallengeAuthMethodParameters(
                    authMethod: methods[1], verificationContact: StrongAuthFixture.phone))
        else { return }
        h.stub.expect(path: "/register/v1.0/continue", reply: .json(200, ["continuation_token": "Tz"]))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(400, Fixture.apiError("expired_token", codes: [552003])))
        let error = try await #require(throws: RegisterStrongAuthSubmitChallengeError.self) {
            try await sent.newState.submitChallenge(challenge: Fixture.code)
        }
        #expect(!error.isInvalidChallenge && error.errorCodes == [552003])
        #expect(sent.newState.lifecycle.hasEnded)
    }

    @Test func theCodeStateCanSendAnotherCodeOrUseAnotherContact() async throws {
        let h = try Harness()
        let (methods, state) = try await h.registration()
        h.stub.expect(path: "/register/v1.0/challenge", reply: StrongAuthFixture.registerChallenge())
        guard
            case .verificationRequired(let sent) = try await state.challengeAuthMethod(
                parameters: MSALNativeAuthChallengeAuthMethodParameters(
                    authMethod: methods[1], verificationContact: StrongAuthFixture.phone))
        else { return }
        h.stub.expect(
            path: "/register/v1.0/challenge",
            reply: StrongAuthFixture.registerChallenge(token: "Tk2", target: StrongAuthFixture.backupEmail, channel: "email"),
            check: StrongAuthFixture.fields(["continuation_token": "Tk", "challenge_target": StrongAuthFixture.backupEmail]))
        guard
            case .verificationRequired(let again) = try await sent.newState.challengeAuthMethod(
                parameters: MSALNativeAuthChallengeAuthMethodParameters(
                    authMethod: methods[0], verificationContact: StrongAuthFixture.backupEmail))
        else { return }
        #expect(again.newState.continuationToken == "Tk2" && again.channelTargetType.isEmailType)
    }

    @Test func contactsAndCodesStayOutOfTheLog() async throws {
        let h = try Harness()
        let (methods, state) = try await h.registration()
        h.stub.expect(path: "/register/v1.0/challenge", reply: StrongAuthFixture.registerChallenge())
        guard
            case .verificationRequired(let sent) = try await state.challengeAuthMethod(
                parameters: MSALNativeAuthChallengeAuthMethodParameters(
                    authMethod: methods[1], verificationContact: StrongAuthFixture.phone))
        else { return }
        h.stub.expect(path: "/register/v1.0/continue", reply: .json(200, ["continuation_token": "Tz"]))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))
        _ = try await sent.newState.submitChallenge(challenge: Fixture.code)
        for secret in [StrongAuthFixture.phone, "0100", Fixture.code, "Tk", "Tz"] {
            #expect(!h.log.text.contains(secret), "the log shows \(secret)")
        }
    }
}

/// The delegate form of every MFA and registration step, and MSAL's fallback for callbacks an app
/// left out.
@Suite @MainActor struct StrongAuthDelegateTests {
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
