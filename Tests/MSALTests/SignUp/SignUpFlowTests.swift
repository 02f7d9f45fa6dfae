import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// docs/error-mapping.md#sign-up-start (sign-up start) and docs/error-mapping.md#sign-up-states (sign-up states) over the strict stub.
@Suite struct SignUpFlowTests {
    static let start = "/signup/v1.0/start"
    static let challenge = "/signup/v1.0/challenge"
    static let proceed = "/signup/v1.0/continue"

    private func parameters(password: String? = Fixture.password, attributes: [String: Any]? = nil) -> MSALNativeAuthSignUpParameters {
        let parameters = MSALNativeAuthSignUpParameters(username: Fixture.username)
        parameters.password = password
        parameters.attributes = attributes
        return parameters
    }

    private func codeState(_ h: Harness) async throws -> SignUpCodeRequiredState {
        h.stub.expect(path: Self.start, reply: .json(200, ["continuation_token": "T0"]))
        h.stub.expect(path: Self.challenge, reply: .json(200, Fixture.oobChallenge))
        guard case .codeRequired(let state, _, _, _) = try await h.app.signUp(parameters: parameters()) else {
            throw UnexpectedOutcome("expected a code state")
        }
        return state
    }

    @Test func startSendsTheFieldsAndAsksForTheCode() async throws {
        let h = try Harness()
        h.stub.expect(
            path: Self.start, reply: .json(200, ["continuation_token": "T0"]),
            check: { request in
                let f = request.formFields
                return f["username"] == Fixture.username && f["password"] == Fixture.password
                    && f["challenge_type"] == "oob password redirect"
                    && f["attributes"] == #"{"age":42,"displayName":"Ada"}"# ? nil : "fields \(f)"
            })
        h.stub.expect(path: Self.challenge, reply: .json(200, Fixture.oobChallenge))
        let result = try await h.app.signUp(parameters: parameters(attributes: ["displayName": "Ada", "age": 42]))
        guard case .codeRequired(let state, let sentTo, let channel, let length) = result else {
            Issue.record("got \(result)")
            return
        }
        #expect(state.continuationToken == "T1" && sentTo == "a***@co**o.com" && channel.isEmailType && length == 8)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
        try Golden.check(h.stub.receivedRequests, named: "signup-start-and-challenge")
    }

    @Test func clientSideChecks() async throws {
        let h = try Harness()
        let noName = try await #require(throws: SignUpStartError.self) { try await h.app.signUp(parameters: .init(username: "")) }
        #expect(noName.isInvalidUsername)
        let emptyPassword = try await #require(throws: SignUpStartError.self) {
            try await h.app.signUp(parameters: parameters(password: ""))
        }
        #expect(emptyPassword.isInvalidPassword)
        let badAttributes = try await #require(throws: SignUpStartError.self) {
            try await h.app.signUp(parameters: parameters(attributes: ["when": Date()]))
        }
        #expect(!badAttributes.isInvalidPassword && !badAttributes.isInvalidUsername && !badAttributes.isBrowserRequired)
        #expect(h.stub.receivedRequests.isEmpty)
    }

    @Test func startErrorMapping() async throws {
        let cases: [([String: Any], (SignUpStartError) -> Bool)] = [
            (Fixture.apiError("user_already_exists", codes: [1_003_037]), { $0.isUserAlreadyExists }),
            (Fixture.apiError("invalid_grant", suberror: "password_too_weak", codes: [399246]), { $0.isInvalidPassword }),
            (Fixture.apiError("invalid_grant", suberror: "password_banned"), { $0.isInvalidPassword }),
            (
                Fixture.apiError("invalid_request", codes: [90100], description: "AADSTS90100: username parameter is empty or not valid."),
                { $0.isInvalidUsername }
            ),
            (
                Fixture.apiError("invalid_request", codes: [90100], description: "AADSTS90100: client_id parameter is empty or not valid."),
                { !$0.isInvalidUsername && !$0.isUserAlreadyExists }
            ),
            (
                Fixture.apiError("attributes_required", extra: ["continuation_token": "T9"]),
                { !$0.isBrowserRequired && !$0.isInvalidUsername }
            ),
            (Fixture.apiError("unsupported_auth_method"), { !$0.isBrowserRequired && !$0.isInvalidPassword }),
            (Fixture.apiError("invalid_client", suberror: "nativeauthapi_disabled"), { !$0.isBrowserRequired }),
        ]
        for (body, check) in cases {
            let h = try Harness()
            h.stub.expect(path: Self.start, reply: .json(400, body))
            let error = try await #require(throws: SignUpStartError.self) { try await h.app.signUp(parameters: parameters()) }
            #expect(check(error), "\(body["error"] ?? "")")
        }
        let h = try Harness()
        h.stub.expect(path: Self.start, reply: .json(200, ["challenge_type": "redirect", "redirect_reason": "no oob"]))
        let redirect = try await #require(throws: SignUpStartError.self) { try await h.app.signUp(parameters: parameters()) }
        #expect(redirect.isBrowserRequired && redirect.errorDescription == "no oob")
    }

    @Test func invalidAttributesAtStartAreAResultNotAnError() async throws {
        let h = try Harness()
        h.stub.expect(
            path: Self.start,
            reply: .json(
                400,
                Fixture.apiError(
                    "invalid_grant", suberror: "attribute_validation_failed",
                    extra: ["invalid_attributes": [["name": "city"], ["name": "age"]]])))
        guard case .attributesInvalid(let names) = try await h.app.signUp(parameters: parameters()) else {
            Issue.record("expected attributesInvalid")
            return
        }
        #expect(names == ["city", "age"])
    }

    @Test func challengeAnswersOtherThanACode() async throws {
        for (reply, check) in [
            (StubTransport.Reply.json(200, Fixture.passwordChallenge), { (e: SignUpStartError) in !e.isBrowserRequired }),
            (.json(200, ["challenge_type": "redirect"]), { (e: SignUpStartError) in e.isBrowserRequired }),
            (.json(400, Fixture.apiError("expired_token", codes: [552003])), { (e: SignUpStartError) in !e.isBrowserRequired }),
        ] {
            let h = try Harness()
            h.stub.expect(path: Self.start, reply: .json(200, ["continuation_token": "T0"]))
            h.stub.expect(path: Self.challenge, reply: reply)
            let error = try await #require(throws: SignUpStartError.self) { try await h.app.signUp(parameters: parameters()) }
            #expect(check(error))
        }
    }

    @Test func submitCodeCompletionAndSignInAfter() async throws {
        let h = try Harness()
        let state = try await codeState(h)
        h.stub.expect(
            path: Self.proceed, reply: .json(200, ["continuation_token": "T2", "expires_in": 600]),
            check: { request in
                let f = request.formFields
                return f["grant_type"] == "oob" && f["oob"] == Fixture.code && f["continuation_token"] == "T1" ? nil : "fields \(f)"
            })
        guard case .completed(let after) = try await state.submitCode(code: Fixture.code) else {
            Issue.record("expected completion")
            return
        }
        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()),
            check: { request in
                let f = request.formFields
                return f["grant_type"] == "continuation_token" && f["continuation_token"] == "T2" && f["username"] == Fixture.username
                    && f["scope"] == "api://x/Read openid profile offline_access" && f["challenge_type"] == "oob password redirect"
                    ? nil : "fields \(f)"
            })
        let signInParameters = MSALNativeAuthSignInAfterSignUpParameters()
        signInParameters.scopes = ["api://x/Read"]
        guard case .completed(let result) = try await after.signIn(parameters: signInParameters) else { return }
        #expect(result.account.username == Fixture.username)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
        try Golden.check(Array(h.stub.receivedRequests.suffix(2)), named: "signup-continue-oob-and-sign-in-after")
        // The sign-in-after state is single-use.
        let reuse = try await #require(throws: SignInAfterSignUpError.self) { try await after.signIn() }
        #expect(!reuse.isBrowserRequired)
    }

    @Test func completionWithoutATokenCannotSignIn() async throws {
        let h = try Harness()
        let state = try await codeState(h)
        h.stub.expect(path: Self.proceed, reply: .json(200, ["challenge_type": "redirect"]))
        guard case .completed(let after) = try await state.submitCode(code: Fixture.code) else {
            Issue.record("any 200 completes")
            return
        }
        let error = try await #require(throws: SignInAfterSignUpError.self) { try await after.signIn() }
        #expect(error.errorDescription == "Sign In is not available at this point, please use the standalone sign in methods")
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func submitCodeErrorMapping() async throws {
        let retryable: [[String: Any]] = [
            Fixture.apiError("invalid_grant", suberror: "invalid_oob_value"),
            Fixture.apiError("invalid_grant", suberror: "password_too_weak"),
        ]
        for body in retryable {
            let h = try Harness()
            let state = try await codeState(h)
            h.stub.expect(path: Self.proceed, reply: .json(400, body))
            let error = try await #require(throws: VerifyCodeError.self) { try await state.submitCode(code: "1") }
            #expect(error.isInvalidCode && !state.lifecycle.hasEnded)
        }
        let final: [[String: Any]] = [
            Fixture.apiError("verification_required", extra: ["continuation_token": "T2", "unverified_attributes": [["name": "email"]]]),
            Fixture.apiError("invalid_grant", suberror: "attribute_validation_failed"),
            Fixture.apiError("expired_token", codes: [552003]), Fixture.apiError("invalid_request"),
            Fixture.apiError("user_already_exists"), Fixture.apiError("invalid_grant"),
        ]
        for body in final {
            let h = try Harness()
            let state = try await codeState(h)
            h.stub.expect(path: Self.proceed, reply: .json(400, body))
            let error = try await #require(throws: VerifyCodeError.self) { try await state.submitCode(code: "1") }
            #expect(!error.isInvalidCode && !error.isBrowserRequired && state.lifecycle.hasEnded, "\(body["error"] ?? "")")
        }
    }

    @Test func credentialRequiredLeadsToThePasswordState() async throws {
        let h = try Harness()
        let state = try await codeState(h)
        h.stub.expect(
            path: Self.proceed,
            reply: .json(400, Fixture.apiError("credential_required", codes: [55103], extra: ["continuation_token": "T2"])))
        h.stub.expect(
            path: Self.challenge, reply: .json(200, ["continuation_token": "T3", "challenge_type": "password"]),
            check: { request in
                request.formFields["continuation_token"] == "T2" ? nil : "challenge must use the credential_required token"
            })
        guard case .passwordRequired(let passwordState) = try await state.submitCode(code: Fixture.code) else {
            Issue.record("expected password")
            return
        }
        #expect(passwordState.continuationToken == "T3")

        h.stub.expect(path: Self.proceed, reply: .json(400, Fixture.apiError("invalid_grant", suberror: "password_too_short")))
        let weak = try await #require(throws: PasswordRequiredError.self) { try await passwordState.submitPassword(password: "short") }
        #expect(weak.isInvalidPassword && !passwordState.lifecycle.hasEnded)
        h.stub.expect(
            path: Self.proceed,
            reply: .json(
                400,
                Fixture.apiError(
                    "attributes_required", codes: [55106],
                    extra: [
                        "continuation_token": "T4",
                        "required_attributes": [["name": "displayName", "type": "string", "required": true, "options": ["regex": "^.+$"]]],
                    ])),
            check: { request in
                request.formFields["grant_type"] == "password" && request.formFields["continuation_token"] == "T3"
                    ? nil : "password grant with T3"
            })
        guard
            case .attributesRequired(let attributes, let attributesState) = try await passwordState.submitPassword(
                password: Fixture.password)
        else {
            Issue.record("expected attributes")
            return
        }
        #expect(
            attributes.map(\.name) == ["displayName"] && attributes[0].regex == "^.+$" && attributes[0].required
                && attributes[0].type == "string")

        h.stub.expect(
            path: Self.proceed,
            reply: .json(
                400,
                Fixture.apiError(
                    "invalid_grant", suberror: "attribute_validation_failed",
                    extra: ["invalid_attributes": [["name": "displayName"]]])))
        guard case .attributesInvalid(let names, let same) = try await attributesState.submitAttributes(attributes: ["displayName": ""])
        else {
            Issue.record("expected attributesInvalid")
            return
        }
        #expect(names == ["displayName"] && same === attributesState)
        h.stub.expect(
            path: Self.proceed, reply: .json(200, ["continuation_token": "T5"]),
            check: { request in
                request.formFields["grant_type"] == "attributes" && request.formFields["attributes"] == #"{"displayName":"Ada"}"#
                    ? nil : "attributes grant"
            })
        guard case .completed = try await attributesState.submitAttributes(attributes: ["displayName": "Ada"]) else {
            Issue.record("expected completion")
            return
        }
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func credentialRequiredChallengeFailures() async throws {
        for (reply, browser) in [
            (StubTransport.Reply.json(200, ["challenge_type": "redirect"]), true),
            (.json(400, Fixture.apiError("invalid_request")), false),
        ] {
            let h = try Harness()
            let state = try await codeState(h)
            h.stub.expect(
                path: Self.proceed, reply: .json(400, Fixture.apiError("credential_required", extra: ["continuation_token": "T2"])))
            h.stub.expect(path: Self.challenge, reply: reply)
            let error = try await #require(throws: VerifyCodeError.self) { try await state.submitCode(code: Fixture.code) }
            #expect(error.isBrowserRequired == browser && state.lifecycle.hasEnded)
        }
    }

    @Test func resendMapping() async throws {
        let h = try Harness()
        let state = try await codeState(h)
        h.stub.expect(path: Self.challenge, reply: .json(400, Fixture.apiError("invalid_request")))
        let error = try await #require(throws: ResendCodeError.self) { try await state.resendCode() }
        #expect(!error.isBrowserRequired && !state.lifecycle.hasEnded)
        h.stub.expect(path: Self.challenge, reply: .json(200, Fixture.oobChallenge.merging(["continuation_token": "T9"]) { _, n in n }))
        let next = try await state.resendCode().newState
        #expect(next.continuationToken == "T9" && !state.lifecycle.hasEnded, "a resend does not end the state that asked for it")
        h.stub.expect(path: Self.challenge, reply: .json(200, ["challenge_type": "redirect"]))
        let redirect = try await #require(throws: ResendCodeError.self) { try await next.resendCode() }
        #expect(redirect.isBrowserRequired && next.lifecycle.hasEnded)
    }

    @Test func submitPasswordMapping() async throws {
        for (body, invalid, consumed) in [
            (Fixture.apiError("invalid_grant", suberror: "invalid_oob_value"), false, false),
            (Fixture.apiError("expired_token"), false, true),
        ] as [([String: Any], Bool, Bool)] {
            let h = try Harness()
            let state = try await codeState(h)
            h.stub.expect(
                path: Self.proceed, reply: .json(400, Fixture.apiError("credential_required", extra: ["continuation_token": "T2"])))
            h.stub.expect(path: Self.challenge, reply: .json(200, ["continuation_token": "T3", "challenge_type": "password"]))
            guard case .passwordRequired(let passwordState) = try await state.submitCode(code: Fixture.code) else { return }
            h.stub.expect(path: Self.proceed, reply: .json(400, body))
            let error = try await #require(throws: PasswordRequiredError.self) {
                try await passwordState.submitPassword(password: Fixture.password)
            }
            #expect(error.isInvalidPassword == invalid && passwordState.lifecycle.hasEnded == consumed)
        }
    }

    @Test func attributesErrorsAreGeneral() async throws {
        let h = try Harness()
        let state = try await codeState(h)
        h.stub.expect(
            path: Self.proceed,
            reply: .json(
                400,
                Fixture.apiError(
                    "attributes_required",
                    extra: [
                        "continuation_token": "T4", "required_attributes": [["name": "city", "type": "string", "required": true]],
                    ])))
        guard case .attributesRequired(_, let attributesState) = try await state.submitCode(code: Fixture.code) else { return }
        h.stub.expect(path: Self.proceed, reply: .json(400, Fixture.apiError("expired_token")))
        let error = try await #require(throws: AttributesRequiredError.self) {
            try await attributesState.submitAttributes(attributes: ["city": "Oslo"])
        }
        #expect(!error.isBrowserRequired && attributesState.lifecycle.hasEnded)
    }
}
