import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// `acquireTokenSilent` on the native application's inherited standard surface: the cache, the
/// refresh, and every server answer of docs/error-mapping.md#server-answers as an `MSALErrorDomain` error.
@Suite(.tags(.concurrency)) struct SilentTokenTests {
    static let todo = "api://contoso/todolist/ToDoList.Read"

    /// A native sign-in whose token response grants `scope`; returns the cached account.
    private func signedIn(_ h: Harness, scope: String = todo, expiresIn: Int = 3599) async throws -> MSALAccount {
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        var body = Fixture.tokenBody(scope: scope)
        body["expires_in"] = expiresIn
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, body))
        guard case .completed = try await h.app.signIn(parameters: h.signInParameters(password: Fixture.password, scopes: [Self.todo]))
        else {
            throw UnexpectedOutcome("sign-in did not complete")
        }
        return try #require(try h.app.allAccounts().first)
    }

    /// The error of a silent call, as the app sees it.
    private func silentError(_ h: Harness, _ account: MSALAccount, scopes: [String] = [todo], force: Bool = true) async -> NSError? {
        let parameters = MSALSilentTokenParameters(scopes: scopes, account: account)
        parameters.forceRefresh = force
        do {
            _ = try await h.app.acquireTokenSilent(with: parameters)
            return nil
        } catch {
            return error as NSError
        }
    }

    @Test func aCachedTokenIsAResultWithoutARequest() async throws {
        let h = try Harness()
        let account = try await signedIn(h)
        let before = h.stub.receivedRequests.count
        let result = try await h.app.acquireTokenSilent(with: MSALSilentTokenParameters(scopes: [Self.todo], account: account))
        #expect(h.stub.receivedRequests.count == before)
        #expect(result.accessToken == "AT-secret-value" && result.authorizationHeader == "Bearer AT-secret-value")
        #expect(result.scopes == [Self.todo] && result.authenticationScheme == "Bearer" && !result.extendedLifeTimeToken)
        #expect(result.account.identifier == "\(Fixture.uid).\(Fixture.utid)" && result.account.username == Fixture.username)
        #expect(result.tenantProfile.identifier == Fixture.uid && result.tenantProfile.tenantId == Fixture.utid)
        #expect(result.idToken != nil && result.tenantProfile.claims?["preferred_username"] as? String == Fixture.username)
        #expect(result.authority.url.absoluteString == "https://contoso.ciamlogin.com/contoso.onmicrosoft.com")
    }

    @Test func anExpiringTokenIsRefreshedWithTheSharedPipeline() async throws {
        let h = try Harness()
        let account = try await signedIn(h, expiresIn: 200)
        h.stub.expect(
            path: "/oauth2/v2.0/token",
            reply: .json(200, Fixture.tokenBody(scope: Self.todo).merging(["access_token": "AT-2"]) { _, new in new }),
            check: StrongAuthFixture.fields([
                "grant_type": "refresh_token", "refresh_token": "RT-secret-value",
                "scope": "\(Self.todo) openid profile offline_access",
            ]))
        let result = try await h.app.acquireTokenSilent(with: MSALSilentTokenParameters(scopes: [Self.todo], account: account))
        #expect(result.accessToken == "AT-2" && h.stub.mismatches.isEmpty)
        #expect(result.correlationId == Fixture.correlation)
    }

    @Test(
        arguments: [
            ("invalid_grant", nil, [70008], MSALError.interactionRequired, nil),
            ("interaction_required", nil, [50076], .interactionRequired, nil),
            ("invalid_scope", nil, [70011], .internal, MSALInternalError.internalErrorInvalidScope),
            ("invalid_client", nil, [700016], .internal, .internalErrorInvalidClient),
            ("unauthorized_client", "protection_policy_required", [53005], .serverProtectionPoliciesRequired, nil),
            ("invalid_request", nil, [50142], .serverInvalidRequestResetPasswordRequired, nil),
            ("server_error", nil, [], .interactionRequired, nil),
        ] as [(String, String?, [Int], MSALError, MSALInternalError?)])
    func serverAnswersOfTheRefresh(
        error code: String, suberror: String?, codes: [Int], expected: MSALError, internalCode: MSALInternalError?
    ) async throws {
        let h = try Harness()
        let account = try await signedIn(h)
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(400, Fixture.apiError(code, suberror: suberror, codes: codes)))
        let error = try #require(await silentError(h, account))
        #expect(error.domain == MSALErrorDomain && error.msalCode == expected)
        #expect(error.msalInternalCode == internalCode)
        #expect(error.userInfo[MSALOAuthErrorKey] as? String == code)
        #expect(error.userInfo[MSALOAuthSubErrorKey] as? String == suberror)
        #expect(error.userInfo[MSALSTSErrorCodesKey] as? [Int] == codes)
        #expect(error.userInfo[MSALCorrelationIDKey] as? String == Fixture.correlation.uuidString)
        #expect((error.userInfo[MSALErrorDescriptionKey] as? String)?.isEmpty == false)
    }

    /// A refresh answered with `challenge_type=redirect`: the browser is required, which the
    /// standard surface reports as `MSALErrorInteractionRequired` (then `acquireToken`).
    @Test func aRedirectAnswerToTheRefreshNeedsInteraction() async throws {
        let h = try Harness()
        let account = try await signedIn(h)
        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: .json(200, ["challenge_type": "redirect", "redirect_reason": "Client is missing oob"]))
        let error = try #require(await silentError(h, account))
        #expect(error.domain == MSALErrorDomain && error.msalCode == .interactionRequired, "\(error)")
        #expect(error.msalInternalCode == nil)
        #expect(error.userInfo[MSALCorrelationIDKey] as? String == Fixture.correlation.uuidString)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func aStatusTheProtocolDoesNotUseIsUnhandledWithItsHTTPKeys() async throws {
        let h = try Harness { $0.retryPolicy.maxRetryAfter = 5 }
        let account = try await signedIn(h)
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(429, [:], headers: ["Retry-After": "120"]))
        let error = try #require(await silentError(h, account))
        #expect(error.msalCode == .internal && error.msalInternalCode == .internalErrorUnhandledResponse)
        #expect(error.userInfo[MSALHTTPResponseCodeKey] as? String == "429")
        #expect((error.userInfo[MSALHTTPHeadersKey] as? [String: String])?["Retry-After"] == "120")
    }

    @Test func aRefusedConnectionIsTheSystemsOwnError() async throws {
        let h = try Harness()
        let account = try await signedIn(h)
        let refused = HTTPTransportError(
            kind: .other, message: "refused", underlyingError: NSError(domain: NSURLErrorDomain, code: NSURLErrorCannotConnectToHost))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .failure(refused))
        let error = try #require(await silentError(h, account))
        #expect(error.domain == NSURLErrorDomain)
        // The same code, or "not connected" on a machine with no network interface at all.
        #expect([NSURLErrorCannotConnectToHost, NSURLErrorNotConnectedToInternet].contains(error.code))
    }

    @Test func declinedScopesNameTheGrantedAndTheDeclined() async throws {
        let h = try Harness()
        let account = try await signedIn(h)
        let write = "api://contoso/todolist/ToDoList.ReadWrite"
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody(scope: "\(Self.todo) openid profile")))
        let error = try #require(await silentError(h, account, scopes: [Self.todo, write]))
        #expect(error.msalCode == .serverDeclinedScopes)
        #expect(error.userInfo[MSALGrantedScopesKey] as? [String] == [Self.todo])
        #expect(error.userInfo[MSALDeclinedScopesKey] as? [String] == [write])
        #expect((error.userInfo[MSALInvalidResultKey] as? MSALResult)?.scopes == [Self.todo])
        // The error-handling guide's retry with the granted scopes is then a cache hit.
        let before = h.stub.receivedRequests.count
        let retry = try await h.app.acquireTokenSilent(with: MSALSilentTokenParameters(scopes: [Self.todo], account: account))
        #expect(retry.scopes == [Self.todo] && h.stub.receivedRequests.count == before)
    }

    @Test func aRemovedAccountNeedsInteraction() async throws {
        let h = try Harness()
        let account = try await signedIn(h)
        try h.app.remove(account)
        let error = try #require(await silentError(h, account, force: false))
        #expect(error.msalCode == .interactionRequired)
        #expect(try h.app.allAccounts().isEmpty)
    }

    @Test func reservedScopesAndAnotherAuthorityAreInvalidParameters() async throws {
        let h = try Harness()
        let account = try await signedIn(h)
        let reserved = try #require(await silentError(h, account, scopes: [Self.todo, "offline_access"]))
        #expect(reserved.msalInternalCode == .internalErrorInvalidParameter)
        let parameters = MSALSilentTokenParameters(scopes: [Self.todo], account: account)
        parameters.authority = try MSALAuthority(url: URL(string: "https://login.microsoftonline.com/common")!)
        do {
            _ = try await h.app.acquireTokenSilent(with: parameters)
            Issue.record("another authority was accepted")
        } catch {
            #expect((error as NSError).msalInternalCode == .internalErrorInvalidParameter)
        }
        #expect(h.stub.mismatches.isEmpty)
    }

    @Test func theCompletionBlockRunsOnceOnTheGivenQueue() async throws {
        let h = try Harness()
        let account = try await signedIn(h)
        let queue = DispatchQueue(label: "test.completion")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let parameters = MSALSilentTokenParameters(scopes: [Self.todo], account: account)
        parameters.completionBlockQueue = queue
        let outcome: (token: String?, onQueue: Bool) = await withCheckedContinuation { continuation in
            h.app.acquireTokenSilent(with: parameters) { result, error in
                continuation.resume(returning: (result?.accessToken, DispatchQueue.getSpecific(key: key) == 7 && error == nil))
            }
        }
        #expect(outcome.token == "AT-secret-value" && outcome.onQueue)
    }

    @Test func clientCapabilitiesGoOnTheRefreshAsXmsCcWithoutSkippingTheCache() async throws {
        let h = try Harness { $0.clientApplicationCapabilities = ["cp1"] }
        let account = try await signedIn(h, expiresIn: 200)
        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody(scope: Self.todo)),
            check: StrongAuthFixture.fields(["claims": #"{"access_token":{"xms_cc":{"values":["cp1"]}}}"#]))
        _ = try await h.app.acquireTokenSilent(with: MSALSilentTokenParameters(scopes: [Self.todo], account: account))
        #expect(h.stub.mismatches.isEmpty)
        let before = h.stub.receivedRequests.count
        _ = try await h.app.acquireTokenSilent(with: MSALSilentTokenParameters(scopes: [Self.todo], account: account))
        #expect(h.stub.receivedRequests.count == before, "capabilities alone do not bypass the cache")
    }

    @Test(arguments: ["bad_token", "user_account_deleted"])
    func aDeadRefreshTokenRemovesTheAccountsTokens(reason: String) async throws {
        let h = try Harness()
        let account = try await signedIn(h)
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(400, Fixture.apiError("invalid_grant", suberror: reason, codes: [70000])))
        let error = try #require(await silentError(h, account))
        #expect(error.msalCode == .interactionRequired)
        #expect(try h.app.allAccounts().isEmpty)
        let again = try #require(await silentError(h, account, force: false))
        #expect(again.msalCode == .interactionRequired && h.stub.mismatches.isEmpty, "no second round trip")
    }
}
