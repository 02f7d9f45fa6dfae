import Foundation
import MSAL
import NativeAuthTesting
import Testing

@testable import MSAL

/// docs/error-mapping.md#password-reset (password reset) over the strict stub.
@Suite struct ResetPasswordFlowTests {
    static let start = "/resetpassword/v1.0/start"
    static let challenge = "/resetpassword/v1.0/challenge"
    static let proceed = "/resetpassword/v1.0/continue"
    static let submit = "/resetpassword/v1.0/submit"
    static let poll = "/resetpassword/v1.0/poll_completion"

    private func codeState(_ h: Harness) async throws -> ResetPasswordCodeRequiredState {
        h.stub.expect(path: Self.start, reply: .json(200, ["continuation_token": "T0"]))
        h.stub.expect(path: Self.challenge, reply: .json(200, Fixture.oobChallenge))
        let state = try await h.app.resetPassword(parameters: .init(username: Fixture.username)).newState
        return state
    }

    private func passwordState(_ h: Harness) async throws -> ResetPasswordRequiredState {
        let state = try await codeState(h)
        h.stub.expect(path: Self.proceed, reply: .json(200, ["continuation_token": "T2", "expires_in": 600]))
        let next = try await state.submitCode(code: Fixture.code)
        return next
    }

    @Test func fullResetWithPollingAndSignInAfter() async throws {
        let h = try Harness()
        let state = try await passwordState(h)
        h.stub.expect(
            path: Self.submit, reply: .json(200, ["continuation_token": "T3", "poll_interval": 2]),
            check: { request in
                request.formFields["new_password"] == Fixture.password && request.formFields["continuation_token"] == "T2"
                    ? nil : "submit fields"
            })
        let pollCheck: @Sendable (HTTPTransportRequest) -> String? = {
            $0.formFields["continuation_token"] == "T3" ? nil : "poll must reuse the submit token"
        }
        h.stub.expect(path: Self.poll, reply: .json(200, ["status": "in_progress", "continuation_token": "T3"]), check: pollCheck)
        h.stub.expect(path: Self.poll, reply: .json(200, ["status": "not_started"]), check: pollCheck)
        h.stub.expect(path: Self.poll, reply: .json(200, ["status": "succeeded", "continuation_token": "T4"]), check: pollCheck)
        let after = try await state.submitPassword(password: Fixture.password)
        #expect(h.clock.sleeps == [2, 2])
        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()),
            check: { request in
                request.formFields["continuation_token"] == "T4" && request.formFields["grant_type"] == "continuation_token"
                    ? nil : "T4 grant"
            })
        guard case .completed(let result) = try await after.signIn() else { return }
        #expect(result.account.username == Fixture.username)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
        try Golden.check(Array(h.stub.receivedRequests.prefix(5)), named: "reset-start-challenge-continue-submit-poll")
    }

    @Test func pollingGivesUpAfterSixChecks() async throws {
        let h = try Harness()
        let state = try await passwordState(h)
        h.stub.expect(path: Self.submit, reply: .json(200, ["continuation_token": "T3", "poll_interval": 1]))
        for _ in 0..<6 { h.stub.expect(path: Self.poll, reply: .json(200, ["status": "in_progress"])) }
        let error = try await #require(throws: PasswordRequiredError.self) { try await state.submitPassword(password: Fixture.password) }
        #expect(!error.isInvalidPassword && error.errorDescription?.contains("6 checks") == true)
        #expect(h.clock.sleeps == [1, 1, 1, 1, 1])
        #expect(state.lifecycle.hasEnded)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func pollOutcomes() async throws {
        for (reply, invalid, consumed) in [
            (StubTransport.Reply.json(200, ["status": "failed"]), false, true),
            (.json(400, Fixture.apiError("invalid_grant", suberror: "password_banned")), true, false),
            (.json(400, Fixture.apiError("expired_token")), false, true),
            (.json(200, ["status": "weird"]), false, true),
            (.json(200, ["challenge_type": "redirect"]), false, true),
        ] {
            let h = try Harness()
            let state = try await passwordState(h)
            h.stub.expect(path: Self.submit, reply: .json(200, ["continuation_token": "T3", "poll_interval": 0]))
            h.stub.expect(path: Self.poll, reply: reply)
            let error = try await #require(throws: PasswordRequiredError.self) {
                try await state.submitPassword(password: Fixture.password)
            }
            #expect(error.isInvalidPassword == invalid && state.lifecycle.hasEnded == consumed)
            if invalid {
                // A late refusal continues with the submit answer's token.
                #expect(state.continuationToken == "T3")
            }
        }
    }

    @Test func submitErrors() async throws {
        let h = try Harness()
        let state = try await passwordState(h)
        h.stub.expect(path: Self.submit, reply: .json(400, Fixture.apiError("invalid_grant", suberror: "password_recently_used")))
        let weak = try await #require(throws: PasswordRequiredError.self) { try await state.submitPassword(password: "Old-Password-1") }
        #expect(weak.isInvalidPassword && !state.lifecycle.hasEnded)
        let empty = try await #require(throws: PasswordRequiredError.self) { try await state.submitPassword(password: "") }
        #expect(empty.isInvalidPassword)
        h.stub.expect(path: Self.submit, reply: .json(200, ["continuation_token": "T3"]))
        let missing = try await #require(throws: PasswordRequiredError.self) { try await state.submitPassword(password: Fixture.password) }
        #expect(!missing.isInvalidPassword)
        h.stub.expect(path: Self.submit, reply: .json(200, ["challenge_type": "redirect"]))
        let redirect = try await #require(throws: PasswordRequiredError.self) { try await state.submitPassword(password: Fixture.password) }
        #expect(redirect.isBrowserRequired && state.lifecycle.hasEnded)
    }

    @Test func startErrorMapping() async throws {
        for (body, check) in [
            (Fixture.apiError("user_not_found", codes: [50034]), { (e: ResetPasswordStartError) in e.isUserNotFound }),
            (
                Fixture.apiError(
                    "invalid_request", codes: [500222],
                    description: "AADSTS500222: The tenant or user does not support native credential recovery."),
                { (e: ResetPasswordStartError) in
                    e.isUserDoesNotHavePassword && e.errorDescription?.contains("native credential recovery") == true
                }
            ),
            (
                Fixture.apiError("invalid_request", codes: [90100]),
                { (e: ResetPasswordStartError) in !e.isUserDoesNotHavePassword && !e.isUserNotFound }
            ),
        ] as [([String: Any], (ResetPasswordStartError) -> Bool)] {
            let h = try Harness()
            h.stub.expect(path: Self.start, reply: .json(400, body))
            let error = try await #require(throws: ResetPasswordStartError.self) {
                try await h.app.resetPassword(parameters: .init(username: Fixture.username))
            }
            #expect(check(error))
        }
        let h = try Harness()
        let empty = try await #require(throws: ResetPasswordStartError.self) {
            try await h.app.resetPassword(parameters: .init(username: ""))
        }
        #expect(empty.isInvalidUsername)
        h.stub.expect(path: Self.start, reply: .json(200, ["challenge_type": "redirect"]))
        let redirect = try await #require(throws: ResetPasswordStartError.self) {
            try await h.app.resetPassword(parameters: .init(username: Fixture.username))
        }
        #expect(redirect.isBrowserRequired)
        h.stub.expect(path: Self.start, reply: .json(200, ["continuation_token": "T0"]))
        h.stub.expect(path: Self.challenge, reply: .json(200, Fixture.passwordChallenge))
        let password = try await #require(throws: ResetPasswordStartError.self) {
            try await h.app.resetPassword(parameters: .init(username: Fixture.username))
        }
        #expect(!password.isBrowserRequired)
    }

    @Test func codeStepMapping() async throws {
        let h = try Harness()
        let state = try await codeState(h)
        h.stub.expect(path: Self.proceed, reply: .json(400, Fixture.apiError("invalid_grant", suberror: "invalid_oob_value")))
        let wrong = try await #require(throws: VerifyCodeError.self) { try await state.submitCode(code: "0") }
        #expect(wrong.isInvalidCode && !state.lifecycle.hasEnded)
        h.stub.expect(path: Self.proceed, reply: .json(400, Fixture.apiError("expired_token")))
        let expired = try await #require(throws: VerifyCodeError.self) { try await state.submitCode(code: "0") }
        #expect(!expired.isInvalidCode && state.lifecycle.hasEnded)

        let h2 = try Harness()
        let state2 = try await codeState(h2)
        h2.stub.expect(path: Self.challenge, reply: .json(400, Fixture.apiError("invalid_request")))
        let resend = try await #require(throws: ResendCodeError.self) { try await state2.resendCode() }
        #expect(!resend.isBrowserRequired && state2.lifecycle.hasEnded, "MSAL ends the flow on a resend failure")

        let h3 = try Harness()
        let state3 = try await codeState(h3)
        h3.stub.expect(path: Self.challenge, reply: .failure(HTTPTransportError(kind: .other, message: "tls")))
        _ = try await #require(throws: ResendCodeError.self) { try await state3.resendCode() }
        #expect(!state3.lifecycle.hasEnded, "a failure the server never answered keeps the state")
    }
}
