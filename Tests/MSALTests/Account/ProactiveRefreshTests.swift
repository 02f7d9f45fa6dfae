import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// Tokens refreshed before anyone waits: a token past its `refresh_on` but still valid
/// is returned at once and replaced by one background refresh.
@Suite(.tags(.concurrency)) struct ProactiveRefreshTests {
    static let todo = "api://contoso/todolist/ToDoList.Read"

    /// An application whose refresh requests wait at a gate until the test opens it.
    struct Gated {
        let stub = StubTransport()
        let gate: GatedTransport
        let h: Harness

        init(configure: (MSALNativeAuthPublicClientApplicationConfig) -> Void = { _ in }) throws {
            let gate = GatedTransport(stub, gating: "/oauth2/v2.0/token")
            self.gate = gate
            h = try Harness {
                $0.transport = gate
                configure($0)
            }
        }

        var cache: TokenCache { h.app.environment.cache }
        var problems: [String] { stub.mismatches + stub.unusedStubs.map { "unused stub: \($0)" } }

        /// Signs in with a password; the token response is `Fixture.tokenBody` with `extra` merged in.
        func signIn(_ extra: [String: Any] = [:]) async throws -> MSALNativeAuthUserAccountResult {
            stub.expect(path: "/oauth2/v2.0/initiate", reply: .json(200, ["continuation_token": "T0"]))
            stub.expect(path: "/oauth2/v2.0/challenge", reply: .json(200, Fixture.passwordChallenge))
            stub.expect(
                path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody(scope: todo).merging(extra) { _, new in new }))
            guard case .completed(let result) = try await h.app.signIn(parameters: h.signInParameters(password: Fixture.password))
            else {
                throw UnexpectedOutcome("sign-in did not complete")
            }
            return result
        }

        /// Queues a refresh answer with new tokens.
        func expectRefresh(_ accessToken: String, refreshToken: String = "RT-2", extra: [String: Any] = [:]) {
            let body = Fixture.tokenBody(scope: todo).merging(["access_token": accessToken, "refresh_token": refreshToken]) { _, new in new
            }
            stub.expect(
                path: "/oauth2/v2.0/token", reply: .json(200, body.merging(extra) { _, new in new }),
                check: { $0.formFields["grant_type"] == "refresh_token" ? nil : "expected a refresh" })
        }

        /// Refresh requests that reached the transport (the gate counts them whether open or not).
        var refreshRequests: Int { gate.arrived }

        /// Waits until no refresh is in flight (the background task removes itself when done).
        func settled() async -> Bool { await eventually { cache.refreshes.isIdle } }
    }

    /// Runs `body`, which must finish while the gate holds the refresh. If it waits instead, the
    /// test fails and the gate opens, so that a caller blocked on the network ends the test rather than hangs it.
    static func withoutWaiting<T: Sendable>(_ g: Gated, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let done = Locked(false)
        let task = Task {
            defer { done.withLock { $0 = true } }
            return try await body()
        }
        let finished = await eventually { done.withLock { $0 } }
        #expect(finished, "the caller waited for the network")
        if !finished { g.gate.open() }
        return try await task.value
    }

    static func parameters() -> MSALNativeAuthGetAccessTokenParameters {
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = [todo]
        return parameters
    }

    private func refreshOn(_ g: Gated, _ account: MSALNativeAuthUserAccountResult) throws -> Date? {
        try g.cache.accessToken(homeAccountId: #require(account.account.identifier), scopes: ScopeSet([Self.todo]), validAt: .distantPast)?
            .refreshOn
    }

    /// `refresh_in` as a number and as a numeric string (as `expires_in` may come).
    @Test(arguments: [false, true])
    func refreshInIsHonouredInTheBackground(asString: Bool) async throws {
        let refreshIn: Any = asString ? "600" : 600
        let g = try Gated()
        let account = try await g.signIn(["refresh_in": refreshIn])
        let signedInAt = g.h.clock.now().timeIntervalSince1970.rounded(.down)
        #expect(try refreshOn(g, account) == Date(timeIntervalSince1970: signedInAt + 600))

        // Before refresh_on: the cache, and no request.
        try await g.h.clock.sleep(seconds: 599)
        #expect(try await account.getAccessToken(parameters: Self.parameters()).accessToken == "AT-secret-value")
        #expect(await g.settled())
        #expect(g.refreshRequests == 0)

        // Past refresh_on: the cached token at once, while the refresh waits at the closed gate.
        try await g.h.clock.sleep(seconds: 2)
        g.expectRefresh("AT-2", extra: ["refresh_in": refreshIn])
        let first = try await Self.withoutWaiting(g) { try await account.getAccessToken(parameters: Self.parameters()).accessToken }
        #expect(first == "AT-secret-value")
        #expect(await eventually { g.refreshRequests == 1 })
        let second = try await Self.withoutWaiting(g) { try await account.getAccessToken(parameters: Self.parameters()).accessToken }
        #expect(second == "AT-secret-value")
        g.gate.open()
        #expect(await g.settled())
        #expect(g.refreshRequests == 1, "exactly one refresh request")
        #expect(g.cache.refreshes.backgroundRefreshes.withLock { $0 } == 1)

        // The next call gets the new token from the cache, with the new refresh_on.
        #expect(try await account.getAccessToken(parameters: Self.parameters()).accessToken == "AT-2")
        #expect(try refreshOn(g, account) == Date(timeIntervalSince1970: signedInAt + 601 + 600))
        #expect(await g.settled())
        #expect(g.refreshRequests == 1)
        #expect(g.problems.isEmpty, "\(g.problems)")
    }

    /// Without refresh_in: due at the later of half-life and expiry − buffer − 300 s.
    @Test(
        arguments: [
            (3599, 300.0, 2999), // a one-hour token: 5 minutes before the expiry buffer
            (300, 60.0, 150), // a five-minute token with a 60 s buffer: at half-life
            (7200, 300.0, 6600), // a two-hour token: 5 minutes before the expiry buffer
        ] as [(Int, Double, Int)])
    func withoutRefreshInTheRuleApplies(lifetime: Int, buffer: Double, due: Int) async throws {
        let g = try Gated { $0.tokenExpirationBuffer = buffer }
        g.gate.open()
        let account = try await g.signIn(["expires_in": lifetime])
        #expect(try refreshOn(g, account) == nil, "nothing is written when the service sent no refresh_in")
        let start = g.h.clock.now().timeIntervalSince1970.rounded(.down)
        let fraction = g.h.clock.now().timeIntervalSince1970 - start
        try await g.h.clock.sleep(seconds: Double(due) - 1 - fraction)
        #expect(try await account.getAccessToken(parameters: Self.parameters()).accessToken == "AT-secret-value")
        #expect(await g.settled())
        #expect(g.refreshRequests == 0, "not due a second before")

        try await g.h.clock.sleep(seconds: 1)
        g.expectRefresh("AT-2", extra: ["expires_in": lifetime])
        #expect(try await account.getAccessToken(parameters: Self.parameters()).accessToken == "AT-secret-value")
        #expect(await g.settled())
        #expect(g.refreshRequests == 1)
        #expect(try await account.getAccessToken(parameters: Self.parameters()).accessToken == "AT-2")
        #expect(g.problems.isEmpty, "\(g.problems)")
    }

    @Test func acquireTokenSilentSharesThePipeline() async throws {
        let g = try Gated()
        _ = try await g.signIn(["refresh_in": 600])
        let account = try g.h.app.account(forUsername: Fixture.username)
        try await g.h.clock.sleep(seconds: 601)
        g.expectRefresh("AT-2")
        let app = g.h.app
        let silent = try await Self.withoutWaiting(g) {
            try await app.acquireTokenSilent(with: MSALSilentTokenParameters(scopes: [Self.todo], account: account)).accessToken
        }
        #expect(silent == "AT-secret-value")
        #expect(await eventually { g.refreshRequests == 1 })
        g.gate.open()
        #expect(await g.settled())
        #expect(
            try await app.acquireTokenSilent(with: MSALSilentTokenParameters(scopes: [Self.todo], account: account)).accessToken == "AT-2")
        #expect(g.refreshRequests == 1)
        #expect(g.problems.isEmpty, "\(g.problems)")
    }

    @Test func manyConcurrentCallersPastRefreshOnStartOneRefreshAndNoneWaits() async throws {
        let g = try Gated()
        let account = try await g.signIn(["refresh_in": 600])
        try await g.h.clock.sleep(seconds: 601)
        g.expectRefresh("AT-2")
        // The gate stays closed: every caller returns while the one refresh is still waiting.
        let tokens = try await Self.withoutWaiting(g) {
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<100 {
                    group.addTask { try await account.getAccessToken(parameters: Self.parameters()).accessToken }
                }
                var all: [String] = []
                for try await token in group { all.append(token) }
                return all
            }
        }
        #expect(tokens.count == 100 && Set(tokens) == ["AT-secret-value"])
        #expect(await eventually { g.refreshRequests == 1 })
        g.gate.open()
        #expect(await g.settled())
        #expect(g.refreshRequests == 1, "exactly one refresh request")
        #expect(try await account.getAccessToken(parameters: Self.parameters()).accessToken == "AT-2")
        #expect(g.problems.isEmpty, "\(g.problems)")
    }

    @Test func aFailingBackgroundRefreshKeepsServingTheCachedTokenAndTheAccount() async throws {
        let g = try Gated { $0.retryPolicy.retryDelay = 0 }
        g.gate.open()
        let account = try await g.signIn(["refresh_in": 600])
        try await g.h.clock.sleep(seconds: 601)

        // A server error (sent again once, as every 5xx).
        g.stub.expect(path: "/oauth2/v2.0/token", reply: .json(500, Fixture.apiError("server_error")))
        g.stub.expect(path: "/oauth2/v2.0/token", reply: .json(500, Fixture.apiError("server_error")))
        #expect(try await account.getAccessToken(parameters: Self.parameters()).accessToken == "AT-secret-value")
        #expect(await g.settled())
        #expect(g.refreshRequests == 2)
        // Within the retry delay, callers get the cached token without another request.
        #expect(try await account.getAccessToken(parameters: Self.parameters()).accessToken == "AT-secret-value")
        #expect(await g.settled())
        #expect(g.refreshRequests == 2)

        // Then the refresh token is refused.
        try await g.h.clock.sleep(seconds: RefreshCoordinator.backgroundRetryDelay)
        g.stub.expect(path: "/oauth2/v2.0/token", reply: .json(400, Fixture.apiError("invalid_grant", codes: [700082])))
        #expect(try await account.getAccessToken(parameters: Self.parameters()).accessToken == "AT-secret-value")
        #expect(await g.settled())
        #expect(g.refreshRequests == 3)
        #expect(g.h.log.text.contains("Background token refresh failed"))

        // Until the token enters the expiry buffer, the cached token; the account stays.
        try await g.h.clock.sleep(seconds: 3599 - 300 - 601 - RefreshCoordinator.backgroundRetryDelay - 2)
        g.stub.expect(path: "/oauth2/v2.0/token", reply: .json(400, Fixture.apiError("invalid_grant", codes: [700082])))
        #expect(try await account.getAccessToken(parameters: Self.parameters()).accessToken == "AT-secret-value")
        #expect(await g.settled())
        #expect(g.refreshRequests == 4)
        #expect(g.h.app.getNativeAuthUserAccount() != nil)
        #expect(g.cache.refreshToken(homeAccountId: try #require(account.account.identifier)) == "RT-secret-value")

        // After expiry the caller refreshes as before, and sees the error.
        try await g.h.clock.sleep(seconds: 3)
        g.stub.expect(path: "/oauth2/v2.0/token", reply: .json(400, Fixture.apiError("invalid_grant", codes: [700082])))
        let error = try await #require(throws: RetrieveAccessTokenError.self) {
            try await account.getAccessToken(parameters: Self.parameters())
        }
        #expect(error.isRefreshTokenExpired)
        #expect(g.refreshRequests == 5)
        #expect(g.problems.isEmpty, "\(g.problems)")
    }

    @Test func signOutDuringABackgroundRefreshKeepsTheAccountSignedOut() async throws {
        let g = try Gated()
        let account = try await g.signIn(["refresh_in": 600])
        try await g.h.clock.sleep(seconds: 601)
        g.expectRefresh("AT-2")
        let token = try await Self.withoutWaiting(g) { try await account.getAccessToken(parameters: Self.parameters()).accessToken }
        #expect(token == "AT-secret-value")
        #expect(await eventually { g.refreshRequests == 1 })
        account.signOut()
        #expect(g.h.app.getNativeAuthUserAccount() == nil)
        g.gate.open()
        #expect(await g.settled())
        #expect(g.h.app.getNativeAuthUserAccount() == nil)
        #expect(try g.h.app.allAccounts().isEmpty)
        #expect(g.cache.refreshToken(homeAccountId: try #require(account.account.identifier)) == nil)
        #expect(g.problems.isEmpty, "\(g.problems)")
    }

    @Test func refreshOnRoundTripsThroughTheCacheFileAndASecondApplicationSeesIt() async throws {
        let directory = try TokenCacheTests.TemporaryDirectory()
        let first = try Gated { $0.tokenCacheLocation = .file(directory.cacheFile) }
        first.gate.open()
        let account = try await first.signIn(["refresh_in": 900])
        let signedInAt = Int(first.h.clock.now().timeIntervalSince1970.rounded(.down))

        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: directory.cacheFile)) as? [String: Any])
        let accessTokens = try #require(json["AccessToken"] as? [String: [String: Any]])
        #expect(accessTokens.count == 1)
        #expect(accessTokens.values.first?["refresh_on"] as? String == String(signedInAt + 900))
        #expect(accessTokens.values.first?["cached_at"] as? String == String(signedInAt))

        // A second application on the same file (its clock starts where the first one's did).
        let second = try Gated { $0.tokenCacheLocation = .file(directory.cacheFile) }
        second.gate.open()
        let restored = try #require(second.h.app.getNativeAuthUserAccount())
        #expect(try refreshOn(second, restored) == Date(timeIntervalSince1970: Double(signedInAt + 900)))
        try await second.h.clock.sleep(seconds: 901)
        second.expectRefresh("AT-2", extra: ["refresh_in": 900])
        #expect(try await restored.getAccessToken(parameters: Self.parameters()).accessToken == "AT-secret-value")
        #expect(await second.settled())
        #expect(second.refreshRequests == 1)
        // The first application reads the new token and its new refresh_on from the file.
        try await first.h.clock.sleep(seconds: 901)
        #expect(try await account.getAccessToken(parameters: Self.parameters()).accessToken == "AT-2")
        #expect(await first.settled())
        #expect(first.refreshRequests == 0)
        #expect(first.problems.isEmpty && second.problems.isEmpty, "\(first.problems) \(second.problems)")
    }
}
