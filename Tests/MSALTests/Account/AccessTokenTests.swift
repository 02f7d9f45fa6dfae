import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// getAccessToken: cache, refresh, single-flight, errors.
@Suite(.tags(.concurrency)) struct AccessTokenTests {
    static let todo = "api://contoso/todolist/ToDoList.Read"
    static let todoWrite = "api://contoso/todolist/ToDoList.ReadWrite"

    /// Signs in with a password; the token response grants `scope`.
    private func signedIn(_ h: Harness, scope: String = todo, expiresIn: Int = 3599) async throws -> MSALNativeAuthUserAccountResult {
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        var body = Fixture.tokenBody(scope: scope)
        body["expires_in"] = expiresIn
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, body))
        guard
            case .completed(let result) = try await h.app.signIn(
                parameters: h.signInParameters(password: Fixture.password, scopes: [Self.todo]))
        else {
            throw UnexpectedOutcome("sign-in did not complete")
        }
        return result
    }

    private func parameters(_ scopes: [String]?, force: Bool = false) -> MSALNativeAuthGetAccessTokenParameters {
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = scopes
        parameters.forceRefresh = force
        return parameters
    }

    private func refreshReply(scope: String, accessToken: String = "AT-2", refreshToken: String = "RT-2") -> StubTransport.Reply {
        .json(200, Fixture.tokenBody(scope: scope).merging(["access_token": accessToken, "refresh_token": refreshToken]) { _, new in new })
    }

    @Test func cachedTokenIsServedWithoutARequest() async throws {
        let h = try Harness()
        let account = try await signedIn(h)
        let before = h.stub.receivedRequests.count
        let token = try await account.getAccessToken(parameters: parameters([Self.todo]))
        #expect(token.accessToken == "AT-secret-value" && token.scopes == [Self.todo])
        #expect(token.expiresOn == Date(timeIntervalSince1970: (h.clock.now().timeIntervalSince1970).rounded(.down) + 3599))
        #expect(token.refreshToken == nil)
        #expect(h.stub.receivedRequests.count == before)
    }

    /// What `getAccessToken` answered, seen from the main actor.
    @MainActor private final class Answer {
        var token: String?
    }

    /// A cached token never leaves the caller's actor: from the main actor it is in hand before the
    /// task that asked for it first suspends (so a process that only prints one starts no worker
    /// thread). A refresh is sent from off the main actor.
    @MainActor @Test func aCachedTokenIsAnsweredOnTheCallersActorAndARefreshOffIt() async throws {
        let h = try Harness()
        let account = try await signedIn(h, expiresIn: 600)
        let parameters = parameters([Self.todo])
        for call in ["the first look-up of this copy", "the remembered one"] {
            let answer = Answer()
            Task.immediate { @MainActor in answer.token = try? await account.getAccessToken(parameters: parameters).accessToken }
            #expect(answer.token == "AT-secret-value", "\(call): answered without suspending")
        }
        try await h.clock.sleep(seconds: 301)
        h.stub.expect(path: "/oauth2/v2.0/token", reply: refreshReply(scope: Self.todo)) { _ in
            Thread.isMainThread ? "the refresh was sent from the main thread" : nil
        }
        #expect(try await account.getAccessToken(parameters: parameters).accessToken == "AT-2")
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func aTokenWithMoreScopesCoversFewer() async throws {
        let h = try Harness()
        let account = try await signedIn(h, scope: "\(Self.todo) \(Self.todoWrite)")
        let token = try await account.getAccessToken(parameters: parameters([Self.todoWrite.uppercased()]))
        #expect(token.accessToken == "AT-secret-value")
        #expect(h.stubProblems.isEmpty)
    }

    @Test func expiryBufferTriggersARefreshThatRotatesTheRefreshToken() async throws {
        let h = try Harness()
        let account = try await signedIn(h, expiresIn: 600)
        _ = try await account.getAccessToken(parameters: parameters([Self.todo])) // 600 s left: cached
        try await h.clock.sleep(seconds: 301) // 299 s left: inside the 300 s buffer
        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: refreshReply(scope: Self.todo),
            check: { request in
                let f = request.formFields
                return f["grant_type"] == "refresh_token" && f["refresh_token"] == "RT-secret-value" && f["client_info"] == "1"
                    && f["scope"] == "\(Self.todo) openid profile offline_access" && f["client_id"] == Fixture.clientId
                    ? nil : "fields \(f)"
            })
        let refreshed = try await account.getAccessToken(parameters: parameters([Self.todo]))
        #expect(refreshed.accessToken == "AT-2")
        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: refreshReply(scope: Self.todo, accessToken: "AT-3", refreshToken: "RT-3"),
            check: { request in
                request.formFields["refresh_token"] == "RT-2" ? nil : "the rotated refresh token must be used"
            })
        let forced = try await account.getAccessToken(parameters: parameters([Self.todo], force: true))
        #expect(forced.accessToken == "AT-3")
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
        try Golden.check([h.stub.receivedRequests[3]], named: "get-access-token-refresh")
    }

    @Test func configurableExpiryBuffer() async throws {
        let h = try Harness { $0.tokenExpirationBuffer = 0 }
        let account = try await signedIn(h, expiresIn: 600)
        try await h.clock.sleep(seconds: 590)
        let token = try await account.getAccessToken(parameters: parameters([Self.todo]))
        #expect(token.accessToken == "AT-secret-value")
    }

    @Test func claimsSkipTheCacheAndAreSent() async throws {
        let h = try Harness()
        let account = try await signedIn(h)
        let claims = #"{"access_token":{"xms_cc":{"values":["cp1"]}}}"#
        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: refreshReply(scope: Self.todo),
            check: { request in
                request.formFields["claims"] == claims ? nil : "claims missing"
            })
        let request = parameters([Self.todo])
        request.claimsRequest = try MSALClaimsRequest(jsonString: claims)
        #expect(try await account.getAccessToken(parameters: request).accessToken == "AT-2")
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func anotherAPIRefreshesOnceThenBothAreCached() async throws {
        let h = try Harness()
        let account = try await signedIn(h)
        let profile = "api://contoso/profile//.default"
        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: refreshReply(scope: "api://contoso/profile/Profile.Read", accessToken: "AT-profile"),
            check: { $0.formFields["scope"]?.hasPrefix(profile) == true ? nil : "scope \($0.formFields["scope"] ?? "")" })
        #expect(try await account.getAccessToken(parameters: parameters([profile])).accessToken == "AT-profile")
        let count = h.stub.receivedRequests.count
        #expect(try await account.getAccessToken(parameters: parameters([profile])).accessToken == "AT-profile")
        #expect(try await account.getAccessToken(parameters: parameters([Self.todo])).accessToken == "AT-secret-value")
        #expect(h.stub.receivedRequests.count == count)
    }

    @Test func returnRefreshTokenOnRequest() async throws {
        let h = try Harness()
        let account = try await signedIn(h)
        let request = parameters([Self.todo])
        request.returnRefreshToken = true
        #expect(try await account.getAccessToken(parameters: request).refreshToken == "RT-secret-value")
    }

    @Test func declinedScopesAreNamed() async throws {
        let h = try Harness()
        let account = try await signedIn(h)
        h.stub.expect(path: "/oauth2/v2.0/token", reply: refreshReply(scope: Self.todo))
        let error = try await #require(throws: RetrieveAccessTokenError.self) {
            try await account.getAccessToken(parameters: parameters([Self.todo, Self.todoWrite], force: true))
        }
        #expect(error.grantedScopes == [Self.todo] && error.declinedScopes == [Self.todoWrite])
        #expect(error.errorDescription?.contains("declined \(Self.todoWrite)") == true)
        // What was granted is cached.
        #expect(try await account.getAccessToken(parameters: parameters([Self.todo])).accessToken == "AT-2")
    }

    @Test func aHundredConcurrentCallersShareOneRefresh() async throws {
        let stub = StubTransport()
        let gate = GatedTransport(stub, gating: "/oauth2/v2.0/token")
        let h = try Harness { $0.transport = gate }
        let account = try await signedIn(HarnessView(h, stub: stub))
        try await h.clock.sleep(seconds: 3600)
        stub.expect(path: "/oauth2/v2.0/token", reply: refreshReply(scope: Self.todo))
        let callersBefore = h.app.environment.cache.refreshes.callers.withLock { $0 }
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<100 {
                group.addTask { try await account.getAccessToken(parameters: self.parameters([Self.todo])).accessToken }
            }
            let crowd = await eventually { h.app.environment.cache.refreshes.callers.withLock { $0 } - callersBefore == 100 }
            #expect(crowd)
            gate.open()
            var all: [String] = []
            for try await token in group { all.append(token) }
            return all
        }
        #expect(tokens.count == 100 && Set(tokens) == ["AT-2"])
        #expect(gate.arrived == 1, "exactly one refresh request")
        #expect(stub.unusedStubs.isEmpty && stub.mismatches.isEmpty)
    }

    @Test func aRefreshThatFinishesAfterSignOutDoesNotBringTheAccountBack() async throws {
        let stub = StubTransport()
        let gate = GatedTransport(stub, gating: "/oauth2/v2.0/token")
        let h = try Harness { $0.transport = gate }
        let account = try await signedIn(HarnessView(h, stub: stub))
        stub.expect(path: "/oauth2/v2.0/token", reply: refreshReply(scope: Self.todo))
        let pending = Task { try await account.getAccessToken(parameters: parameters([Self.todo], force: true)) }
        #expect(await eventually { gate.arrived == 1 })
        account.signOut()
        #expect(h.app.getNativeAuthUserAccount() == nil)
        gate.open()
        let result = await pending.result
        guard case .failure(let error as RetrieveAccessTokenError) = result else {
            Issue.record("expected an error, got \(result)")
            return
        }
        #expect(error.errorDescription?.contains("signed out") == true)
        #expect(h.app.getNativeAuthUserAccount() == nil)
        #expect(try h.app.allAccounts().isEmpty)
    }

    /// A refresh still under way when its account signs out and signs in again: its answer belongs
    /// to the sign-in that ended and must not replace the new sign-in's tokens (the refresh token
    /// is in the cache again, so only the sign-out count of this process can tell).
    @Test func aRefreshThatFinishesAfterSignOutAndANewSignInLeavesTheNewTokens() async throws {
        let stub = StubTransport()
        let gate = GatedTransport(stub, gating: "/oauth2/v2.0/token")
        let h = try Harness { $0.transport = gate }
        let account = try await signedIn(HarnessView(h, stub: stub))
        let home = try #require(account.account.identifier)
        let pending = Task { try await account.getAccessToken(parameters: parameters([Self.todo], force: true)) }
        #expect(await eventually { gate.arrived == 1 })
        account.signOut()
        let again = try await signedIn(HarnessView(h, stub: stub), accessToken: "AT-new", refreshToken: "RT-new")
        #expect(again.account.identifier == home)
        stub.expect(path: "/oauth2/v2.0/token", reply: refreshReply(scope: Self.todo, accessToken: "AT-stale", refreshToken: "RT-stale"))
        gate.open()
        switch await pending.result {
        case .failure(let error):
            #expect((error as? RetrieveAccessTokenError)?.errorDescription?.contains("signed out") == true, "\(error)")
        case .success(let result):
            Issue.record("the refresh of the ended sign-in gave a token: \(result.accessToken)")
        }
        #expect(h.app.environment.cache.refreshToken(homeAccountId: home) == "RT-new")
        let before = stub.receivedRequests.count
        #expect(try await again.getAccessToken(parameters: parameters([Self.todo])).accessToken == "AT-new")
        #expect(stub.receivedRequests.count == before, "the new sign-in's token, from the cache")
        #expect(stub.unusedStubs.isEmpty && stub.mismatches.isEmpty)
    }

    /// A refresh of one account answered with another cached account's `client_info` fails, and
    /// leaves both accounts' tokens as they were.
    @Test func aRefreshAnsweredForAnotherAccountFailsAndLeavesItsTokensAlone() async throws {
        let h = try Harness { $0.allowsMultipleAccounts = true }
        let ada = try await signedIn(h)
        let adaHome = try #require(ada.account.identifier)
        let graceUid = "cccccccc-0000-1111-2222-333333333333"
        var grace = Fixture.tokenBody(scope: Self.todo)
        grace["client_info"] = Base64URL.encode(Data(#"{"uid":"\#(graceUid)","utid":"\#(Fixture.utid)"}"#.utf8))
        grace["id_token"] = Fixture.idToken(username: "grace@contoso.com", extra: ["oid": graceUid])
        grace["access_token"] = "AT-grace"
        grace["refresh_token"] = "RT-grace"
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, grace))
        let parameters = MSALNativeAuthSignInParameters(username: "grace@contoso.com")
        parameters.password = Fixture.password
        guard case .completed(let graceAccount) = try await h.app.signIn(parameters: parameters) else {
            throw UnexpectedOutcome("Grace's sign-in did not complete")
        }
        let graceHome = try #require(graceAccount.account.identifier)
        #expect(graceHome != adaHome)

        grace["access_token"] = "AT-forged"
        grace["refresh_token"] = "RT-forged"
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, grace))
        do {
            _ = try await ada.getAccessToken(parameters: self.parameters([Self.todo], force: true))
            Issue.record("the refresh of one account gave another account's tokens")
        } catch {
            #expect(error.errorDescription?.contains("another account") == true, "\(error)")
        }
        let cache = h.app.environment.cache
        #expect(cache.refreshToken(homeAccountId: graceHome) == "RT-grace")
        #expect(cache.refreshToken(homeAccountId: adaHome) == "RT-secret-value")
        let before = h.stub.receivedRequests.count
        #expect(try await graceAccount.getAccessToken(parameters: self.parameters([Self.todo])).accessToken == "AT-grace")
        #expect(try await ada.getAccessToken(parameters: self.parameters([Self.todo])).accessToken == "AT-secret-value")
        #expect(h.stub.receivedRequests.count == before, "both from the cache")
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test(
        arguments: [
            ("invalid_grant", [700082], "refreshTokenExpired"),
            ("invalid_grant", [9_002_313], "refreshTokenExpired"),
            ("expired_refresh_token", [], "refreshTokenExpired"),
            ("invalid_scope", [70011], "invalidScope"),
            ("interaction_required", [65001], "browserRequired"),
            ("invalid_grant", [65001], "browserRequired"),
            ("invalid_grant", [50076], "mfa"),
            ("invalid_grant", [50142], "password"),
            ("invalid_client", [], "general"),
        ] as [(String, [Int], String)])
    func refreshErrorsAreTyped(code: String, codes: [Int], kind: String) async throws {
        let h = try Harness()
        let account = try await signedIn(h)
        h.stub.expect(
            path: "/oauth2/v2.0/token",
            reply: .json(400, ["error": code, "error_codes": codes, "error_description": "AADSTS: server text"]))
        let error = try await #require(throws: RetrieveAccessTokenError.self) {
            try await account.getAccessToken(parameters: parameters([Self.todo], force: true))
        }
        switch kind {
        case "refreshTokenExpired": #expect(error.isRefreshTokenExpired && !error.isInvalidScope && !error.isBrowserRequired)
        case "invalidScope": #expect(error.isInvalidScope && !error.isRefreshTokenExpired)
        case "browserRequired": #expect(error.isBrowserRequired && !error.isRefreshTokenExpired)
        case "mfa":
            #expect(!error.isRefreshTokenExpired && error.errorDescription?.hasPrefix("Multifactor authentication is required") == true)
        case "password":
            #expect(!error.isRefreshTokenExpired && error.errorDescription?.hasPrefix("The user must change their password") == true)
        default: #expect(!error.isRefreshTokenExpired && !error.isInvalidScope && !error.isBrowserRequired)
        }
        #expect(error.errorDescription?.contains("AADSTS: server text") == true)
    }

    @Test func refreshRedirectAndNetworkFailures() async throws {
        let h = try Harness()
        let account = try await signedIn(h)
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, ["challenge_type": "redirect"]))
        let redirect = try await #require(throws: RetrieveAccessTokenError.self) {
            try await account.getAccessToken(parameters: parameters([Self.todo], force: true))
        }
        #expect(redirect.isBrowserRequired)
        let refused = HTTPTransportError.fromURLSession(NSError(domain: NSURLErrorDomain, code: NSURLErrorCannotConnectToHost))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .failure(refused))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .failure(refused))
        let offline = try await #require(throws: RetrieveAccessTokenError.self) {
            try await account.getAccessToken(parameters: parameters([Self.todo], force: true))
        }
        let cause = try #require(offline.underlyingError as? MSALNativeAuthNetworkFailure)
        #expect(cause.transportError?.kind == .cannotConnect)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func noRefreshTokenMeansSignInAgain() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody(scope: Self.todo, omit: ["refresh_token"])))
        guard case .completed(let account) = try await h.app.signIn(parameters: h.signInParameters(password: Fixture.password)) else {
            return
        }
        let error = try await #require(throws: RetrieveAccessTokenError.self) {
            try await account.getAccessToken(parameters: parameters(["api://other/Read"]))
        }
        #expect(error.isRefreshTokenExpired)
    }

    @MainActor @Test func delegateFormDeliversOnce() async throws {
        let h = try Harness()
        let account = try await signedIn(h)
        let delegate = CredentialsRecorder()
        account.getAccessToken(parameters: parameters([Self.todo]), delegate: delegate)
        let token = await delegate.token()
        #expect(token == "AT-secret-value")
    }
}

@MainActor final class CredentialsRecorder: CredentialsDelegate {
    private let box = AsyncBox<String>()
    func onAccessTokenRetrieveCompleted(result: MSALNativeAuthTokenResult) { box.put(result.accessToken) }
    func onAccessTokenRetrieveError(error: RetrieveAccessTokenError) { box.put("error: \(error)") }
    func token() async -> String { await box.take() }
}

/// Lets `signedIn` queue stubs on the inner stub of a gated harness.
struct HarnessView {
    let harness: Harness
    let stub: StubTransport
    init(_ harness: Harness, stub: StubTransport) {
        self.harness = harness
        self.stub = stub
    }
}

extension AccessTokenTests {
    fileprivate func signedIn(
        _ view: HarnessView, scope: String = todo, accessToken: String = "AT-secret-value", refreshToken: String = "RT-secret-value"
    ) async throws -> MSALNativeAuthUserAccountResult {
        view.stub.expect(path: "/oauth2/v2.0/initiate", reply: .json(200, ["continuation_token": "T0"]))
        view.stub.expect(path: "/oauth2/v2.0/challenge", reply: .json(200, Fixture.passwordChallenge))
        view.stub.expect(
            path: "/oauth2/v2.0/token", reply: refreshReply(scope: scope, accessToken: accessToken, refreshToken: refreshToken))
        guard
            case .completed(let result) = try await view.harness.app.signIn(
                parameters: view.harness.signInParameters(password: Fixture.password))
        else {
            throw UnexpectedOutcome("sign-in did not complete")
        }
        return result
    }
}
