import Foundation
import MSAL
import NativeAuthTesting
import Testing

@testable import MSAL

/// Every row of docs/error-mapping.md#sign-in-start (sign-in start) over the strict stub transport.
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
            // A second-factor answer without its continuation token is of no use: general (docs/protocol.md#token-errors).
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
