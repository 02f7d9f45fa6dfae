import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// Every row of docs/error-mapping.md#sign-in-states (sign-in states).
@Suite struct SignInStateTests {
    private func codeState(_ h: Harness) async throws -> SignInCodeRequiredState {
        h.expectStart(challenge: .json(200, Fixture.oobChallenge))
        guard case .codeRequired(let state, _, _, _) = try await h.app.signIn(parameters: h.signInParameters()) else {
            throw UnexpectedOutcome("expected a code state")
        }
        return state
    }

    private func passwordState(_ h: Harness) async throws -> SignInPasswordRequiredState {
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        guard case .passwordRequired(let state) = try await h.app.signIn(parameters: h.signInParameters()) else {
            throw UnexpectedOutcome("expected a password state")
        }
        return state
    }

    @Test func submitCodeCompletesWithOOBGrant() async throws {
        let h = try Harness()
        let state = try await codeState(h)
        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()),
            check: { request in
                let f = request.formFields
                guard f["grant_type"] == "oob", f["oob"] == Fixture.code, f["continuation_token"] == "T1" else {
                    return "fields \(f.keys.sorted())"
                }
                return f["username"] == nil && f["challenge_type"] == nil ? nil : "oob grant must not carry username or challenge_type"
            })
        guard case .completed(let result) = try await state.submitCode(code: Fixture.code) else { return }
        #expect(result.account.username == Fixture.username)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func wrongCodeIsInvalidCodeAndTheStateStillWorks() async throws {
        let h = try Harness()
        let state = try await codeState(h)
        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: .json(400, Fixture.apiError("invalid_grant", suberror: "invalid_oob_value", codes: [50181])))
        let error = try await #require(throws: VerifyCodeError.self) { try await state.submitCode(code: "00000000") }
        #expect(error.isInvalidCode)
        #expect(!state.lifecycle.hasEnded)

        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()),
            check: { request in
                request.formFields["continuation_token"] == "T1" ? nil : "the retry must reuse T1"
            })
        _ = try await state.submitCode(code: Fixture.code)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func emptyCodeIsInvalidCodeWithoutARequest() async throws {
        let h = try Harness()
        let state = try await codeState(h)
        let before = h.stub.receivedRequests.count
        let error = try await #require(throws: VerifyCodeError.self) { try await state.submitCode(code: "") }
        #expect(error.isInvalidCode)
        #expect(h.stub.receivedRequests.count == before)
    }

    @Test func submitCodeRedirectAndOtherErrorsKeepTheState() async throws {
        let h = try Harness()
        let state = try await codeState(h)
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, ["challenge_type": "redirect"]))
        let redirect = try await #require(throws: VerifyCodeError.self) { try await state.submitCode(code: Fixture.code) }
        #expect(redirect.isBrowserRequired)
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(400, Fixture.apiError("expired_token", codes: [552003])))
        let expired = try await #require(throws: VerifyCodeError.self) { try await state.submitCode(code: Fixture.code) }
        #expect(!expired.isInvalidCode && !expired.isBrowserRequired)
        #expect(!state.lifecycle.hasEnded)
    }

    @Test func resendCodeGivesANewState() async throws {
        let h = try Harness()
        let state = try await codeState(h)
        var second = Fixture.oobChallenge
        second["continuation_token"] = "T2"
        h.stub.expect(
            path: "/oauth2/v2.0/challenge", reply: .json(200, second),
            check: { request in
                request.formFields["continuation_token"] == "T1" && request.formFields["challenge_type"] == "oob password redirect"
                    ? nil : "resend must send T1 with the challenge types"
            })
        let sent = try await state.resendCode()
        let next = sent.newState
        let sentTo = sent.sentTo
        let codeLength = sent.codeLength
        #expect(next.continuationToken == "T2" && sentTo == "a***@co**o.com" && codeLength == 8)
        #expect(!state.lifecycle.hasEnded)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func resendErrorsKeepTheStateButPasswordEndsIt() async throws {
        let h = try Harness()
        let state = try await codeState(h)
        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: .json(400, Fixture.apiError("invalid_request", codes: [55000])))
        let general = try await #require(throws: ResendCodeError.self) { try await state.resendCode() }
        #expect(!general.isBrowserRequired)
        #expect(!state.lifecycle.hasEnded)

        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: .json(200, ["challenge_type": "redirect"]))
        let redirect = try await #require(throws: ResendCodeError.self) { try await state.resendCode() }
        #expect(redirect.isBrowserRequired)
        #expect(!state.lifecycle.hasEnded)

        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: .json(200, Fixture.passwordChallenge))
        let password = try await #require(throws: ResendCodeError.self) { try await state.resendCode() }
        #expect(!password.isBrowserRequired)
        #expect(state.lifecycle.hasEnded)
    }

    @Test func submitPasswordCompletesWithPasswordGrant() async throws {
        let h = try Harness()
        let state = try await passwordState(h)
        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()),
            check: { request in
                let f = request.formFields
                return f["grant_type"] == "password" && f["username"] == Fixture.username && f["password"] == Fixture.password
                    && f["continuation_token"] == "T1" && f["challenge_type"] == "oob password redirect" && f["client_info"] == "true"
                    ? nil : "fields \(f.keys.sorted())"
            })
        guard case .completed = try await state.submitPassword(password: Fixture.password) else { return }
        #expect(!state.lifecycle.hasEnded)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func wrongPasswordUsesMSALTextAndKeepsTheState() async throws {
        let h = try Harness()
        let state = try await passwordState(h)
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(400, Fixture.apiError("invalid_grant", codes: [50126])))
        let error = try await #require(throws: PasswordRequiredError.self) { try await state.submitPassword(password: "nope") }
        #expect(error.isInvalidPassword)
        #expect(error.errorDescription == "Invalid password")
        #expect(error.errorCodes == [50126])
        #expect(!state.lifecycle.hasEnded)

        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))
        _ = try await state.submitPassword(password: Fixture.password)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func submitPasswordRedirectAndGeneralKeepTheState() async throws {
        let h = try Harness()
        let state = try await passwordState(h)
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, ["challenge_type": "redirect"]))
        let redirect = try await #require(throws: PasswordRequiredError.self) { try await state.submitPassword(password: "x") }
        #expect(redirect.isBrowserRequired)
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(500, [:]))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(500, [:]))
        let general = try await #require(throws: PasswordRequiredError.self) { try await state.submitPassword(password: "x") }
        #expect(!general.isBrowserRequired && !general.isInvalidPassword)
        #expect(!state.lifecycle.hasEnded)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func emptyPasswordIsInvalidWithoutARequest() async throws {
        let h = try Harness()
        let state = try await passwordState(h)
        let before = h.stub.receivedRequests.count
        let error = try await #require(throws: PasswordRequiredError.self) { try await state.submitPassword(password: "") }
        #expect(error.isInvalidPassword)
        #expect(h.stub.receivedRequests.count == before)
    }

    @Test func aStateWhoseStepSucceededStillAsksTheService() async throws {
        // MSAL's rule: no local refusal; the state sends its own token again and the service decides.
        let h = try Harness()
        let state = try await passwordState(h)
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))
        _ = try await state.submitPassword(password: Fixture.password)
        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: .json(400, Fixture.apiError("invalid_grant", codes: [55000])),
            check: { $0.formFields["continuation_token"] == "T1" ? nil : "the state must send its own token again" })
        let error = try await #require(throws: PasswordRequiredError.self) { try await state.submitPassword(password: Fixture.password) }
        #expect(error.errorCodes == [55000] && error.errorDescription?.contains("already been used") != true)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func theStateThatAskedForAResendTakesTheNewCode() async throws {
        // MSAL's end-to-end tests submit the resent code on the state that asked for the resend.
        let h = try Harness()
        let state = try await codeState(h)
        var second = Fixture.oobChallenge
        second["continuation_token"] = "T2"
        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: .json(200, second))
        _ = try await state.resendCode()
        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()),
            check: { $0.formFields["continuation_token"] == "T1" && $0.formFields["oob"] == "87654321" ? nil : "fields \($0.formFields)" })
        guard case .completed = try await state.submitCode(code: "87654321") else {
            Issue.record("expected the sign-in to complete")
            return
        }
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }
}
