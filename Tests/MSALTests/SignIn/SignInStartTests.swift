import Foundation
import MSAL
import NativeAuthTesting
import Testing

@testable import MSAL

/// Every row of public-api §8.3 (sign-in start) over the strict stub transport.
@Suite struct SignInStartTests {
    @Test func passwordSignInCompletesInThreeRequests() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))

        let result = try await h.app.signIn(parameters: h.signInParameters(password: Fixture.password))

        guard case .completed(let account) = result else {
            Issue.record("expected completion, got \(result)")
            return
        }
        #expect(account.account.username == Fixture.username)
        #expect(account.account.identifier == "\(Fixture.uid).\(Fixture.utid)")
        #expect(account.account.environment == "contoso.ciamlogin.com")
        #expect(
            account.account.homeAccountId
                == MSALAccountId(identifier: "\(Fixture.uid).\(Fixture.utid)", objectId: Fixture.uid, tenantId: Fixture.utid))
        #expect(account.account.accountClaims?["name"] as? String == "Ada Lovelace")
        #expect(account.idToken == Fixture.idToken())
        #expect(account.tokens.accessToken == "AT-secret-value")
        #expect(account.tokens.refreshToken == "RT-secret-value")
        #expect(account.tokens.scopes == ["openid", "profile", "offline_access"])
        #expect(account.tokens.expiresOn == h.clock.now().addingTimeInterval(3599))
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func noPasswordAndPasswordChallengeAsksForPassword() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        let result = try await h.app.signIn(parameters: h.signInParameters())
        guard case .passwordRequired(let state) = result else {
            Issue.record("got \(result)")
            return
        }
        #expect(state.continuationToken == "T1")
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test(arguments: [nil, Fixture.password])
    func oobChallengeAsksForCodeEvenWithPassword(password: String?) async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.oobChallenge))
        let result = try await h.app.signIn(parameters: h.signInParameters(password: password))
        guard case .codeRequired(let state, let sentTo, let channel, let codeLength) = result else {
            Issue.record("got \(result)")
            return
        }
        #expect(state.continuationToken == "T1")
        #expect(sentTo == "a***@co**o.com")
        #expect(channel.isEmailType && !channel.isSMSType && channel.value == "email")
        #expect(codeLength == 8)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func emptyUsernameFailsBeforeAnyRequest() async throws {
        let h = try Harness()
        let parameters = MSALNativeAuthSignInParameters(username: "")
        let error = try await #require(throws: SignInStartError.self) { try await h.app.signIn(parameters: parameters) }
        #expect(error.isInvalidUsername)
        #expect(error.errorDescription == "Invalid username")
        #expect(h.stub.receivedRequests.isEmpty)
    }

    @Test func emptyPasswordFailsBeforeAnyRequest() async throws {
        let h = try Harness()
        let error = try await #require(throws: SignInStartError.self) {
            try await h.app.signIn(parameters: h.signInParameters(password: ""))
        }
        #expect(error.isInvalidCredentials)
        #expect(h.stub.receivedRequests.isEmpty)
    }

    @Test func initiateRedirectIsBrowserRequiredWithReason() async throws {
        let h = try Harness()
        h.stub.expect(
            path: "/oauth2/v2.0/initiate", reply: .json(200, ["challenge_type": "redirect", "redirect_reason": "Client is missing oob"]))
        let error = try await #require(throws: SignInStartError.self) { try await h.app.signIn(parameters: h.signInParameters()) }
        #expect(error.isBrowserRequired)
        #expect(error.errorDescription == "Client is missing oob")
    }

    @Test func redirectWithoutReasonUsesMSALText() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, ["challenge_type": "redirect"]))
        let error = try await #require(throws: SignInStartError.self) { try await h.app.signIn(parameters: h.signInParameters()) }
        #expect(error.isBrowserRequired)
        #expect(error.errorDescription == "Browser required. Use acquireTokenInteractively instead")
    }

    @Test func tokenRedirectIsBrowserRequired() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, ["challenge_type": "redirect"]))
        let error = try await #require(throws: SignInStartError.self) {
            try await h.app.signIn(parameters: h.signInParameters(password: Fixture.password))
        }
        #expect(error.isBrowserRequired)
    }

    @Test func initiateUserNotFound() async throws {
        let h = try Harness()
        h.stub.expect(
            path: "/oauth2/v2.0/initiate",
            reply: .json(400, Fixture.apiError("user_not_found", codes: [50034], description: "AADSTS50034: no such user")))
        let error = try await #require(throws: SignInStartError.self) { try await h.app.signIn(parameters: h.signInParameters()) }
        #expect(error.isUserNotFound)
        #expect(error.errorDescription == "AADSTS50034: no such user")
        #expect(error.errorCodes == [50034])
        #expect(error.serverError == "user_not_found")
    }

    @Test(arguments: ["invalid_request", "invalid_client", "unauthorized_client", "unsupported_challenge_type", "something_new"])
    func otherInitiateErrorsAreGeneral(code: String) async throws {
        let h = try Harness()
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .json(400, Fixture.apiError(code, codes: [901007])))
        let error = try await #require(throws: SignInStartError.self) { try await h.app.signIn(parameters: h.signInParameters()) }
        #expect(!error.isUserNotFound && !error.isBrowserRequired && !error.isInvalidCredentials && !error.isInvalidUsername)
        #expect(error.serverError == code)
        #expect(error.errorCodes == [901007])
    }

    @Test(arguments: ["invalid_request", "invalid_grant", "expired_token", "access_denied"])
    func challengeErrorsAreGeneral(code: String) async throws {
        let h = try Harness()
        h.expectStart(
            challenge: .json(
                400, Fixture.apiError(code, suberror: code == "access_denied" ? "provider_blocked_by_rep" : nil, codes: [55000])))
        let error = try await #require(throws: SignInStartError.self) { try await h.app.signIn(parameters: h.signInParameters()) }
        #expect(!error.isUserNotFound && !error.isBrowserRequired && !error.isInvalidCredentials)
        #expect(error.serverError == code)
    }

    @Test func wrongPasswordIsInvalidCredentials() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        h.stub.expect(
            path: "/oauth2/v2.0/token",
            reply: .json(400, Fixture.apiError("invalid_grant", codes: [50126], description: "AADSTS50126: Error validating credentials")))
        let error = try await #require(throws: SignInStartError.self) {
            try await h.app.signIn(parameters: h.signInParameters(password: "wrong"))
        }
        #expect(error.isInvalidCredentials)
        #expect(error.errorDescription == "AADSTS50126: Error validating credentials")
    }

    @Test(arguments: [("invalid_grant", 50034), ("user_not_found", 0)])
    func tokenUserNotFound(code: String, number: Int) async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(400, Fixture.apiError(code, codes: number == 0 ? [] : [number])))
        let error = try await #require(throws: SignInStartError.self) {
            try await h.app.signIn(parameters: h.signInParameters(password: Fixture.password))
        }
        #expect(error.isUserNotFound)
    }

    @Test(
        arguments: [
            ("invalid_grant", nil, [500222]), ("invalid_grant", nil, [90100]), ("invalid_grant", nil, []),
            ("invalid_request", nil, [50142]), ("invalid_client", nil, []), ("expired_token", nil, [552003]),
            ("invalid_scope", nil, []), ("invalid_grant", "mfa_required", [50076]), ("invalid_grant", "registration_required", []),
        ] as [(String, String?, [Int])])
    func otherTokenErrorsAreGeneral(code: String, suberror: String?, codes: [Int]) async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        h.stub.expect(
            path: "/oauth2/v2.0/token",
            // A second-factor answer without its continuation token is of no use: general (§6.4).
            reply: .json(
                400, Fixture.apiError(code, suberror: suberror, codes: codes, extra: suberror == nil ? ["continuation_token": "Tm"] : [:])))
        let error = try await #require(throws: SignInStartError.self) {
            try await h.app.signIn(parameters: h.signInParameters(password: Fixture.password))
        }
        #expect(!error.isInvalidCredentials && !error.isUserNotFound && !error.isBrowserRequired && !error.isInvalidUsername)
        #expect(error.errorCodes == codes)
        if codes.contains(50142) {
            #expect(error.errorDescription?.hasPrefix("User password change is required") == true)
        }
    }

    @Test func tokenResponseWithoutClientInfoIsGeneral() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody(omit: ["client_info"])))
        let error = try await #require(throws: SignInStartError.self) {
            try await h.app.signIn(parameters: h.signInParameters(password: Fixture.password))
        }
        #expect(error.errorDescription == "Client info was not returned in the token response")
        let failure = try #require(error.underlyingError as? MSALNativeAuthNetworkFailure)
        #expect(failure.kind == .invalidResponse)
    }

    @Test func scopesAreSentWithOIDCDefaultsAppended() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody(scope: "api://todo/Read")),
            check: { request in
                request.formFields["scope"] == "api://todo/Read openid profile offline_access"
                    ? nil : "scope was \(request.formFields["scope"] ?? "nil")"
            })
        let result = try await h.app.signIn(
            parameters: h.signInParameters(password: Fixture.password, scopes: ["api://todo/Read", "openid"]))
        guard case .completed(let account) = result else {
            Issue.record("got \(result)")
            return
        }
        #expect(account.tokens.scopes == ["api://todo/Read"])
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func claimsRequestIsSentOnTheTokenRequest() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()),
            check: { request in
                request.formFields["claims"] == #"{"access_token":{"acrs":{"essential":true,"value":"c4"}}}"#
                    ? nil : "claims \(request.formFields["claims"] ?? "nil")"
            })
        let parameters = h.signInParameters(password: Fixture.password)
        parameters.claimsRequest = try MSALClaimsRequest(jsonString: #"{"access_token":{"acrs":{"essential":true,"value":"c4"}}}"#)
        _ = try await h.app.signIn(parameters: parameters)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }
}

/// Every row of public-api §8.4 (sign-in states).
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
        guard case .codeRequired(let next, let sentTo, _, let codeLength) = try await state.resendCode() else { return }
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
