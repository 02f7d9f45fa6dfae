import Foundation
import TestSupport
import Testing

@testable import MSAL
@testable import NativeAuthEmulator

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Access tokens for both sample APIs across a restart, expiry and sign-out, against the live emulator.
@Suite struct TokensEndToEndTests {
    typealias H = EmulatorHarness
    static let todo = "api://emulator/todolist/ToDoList.Read"
    static let profile = "api://emulator/profile//.default"

    /// The SDK's clock, moved in step with the emulator's.
    final class MovableClock: NativeAuthClock {
        private let offset = Locked<TimeInterval>(0)
        func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }
        func sleep(seconds: Double) async throws { offset.withLock { $0 += seconds } }
        func advance(_ seconds: TimeInterval) { offset.withLock { $0 += seconds } }
    }

    private func app(_ server: EmulatorServer, cache: URL, clock: MovableClock) throws -> MSALNativeAuthPublicClientApplication {
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: H.passwordApp, authority: try MSALCIAMAuthority(url: URL(string: server.authority)!),
            challengeTypes: [.OOB, .password])
        config.tokenCacheLocation = .file(cache)
        return try MSALNativeAuthPublicClientApplication(configuration: config, clock: clock, uuid: { UUID() })
    }

    private func tokenRequests(_ server: EmulatorServer) async throws -> [String] {
        let (_, data) = try await LiveEmulator.get(server.baseURL + "/_emulator/requests")
        let log = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return log.filter { $0["endpoint"] as? String == "/oauth2/v2.0/token" }.compactMap {
            ($0["fields"] as? [String: String])?["grant_type"]
        }
    }

    private func callAPI(_ server: EmulatorServer, _ path: String, _ token: String) async throws -> Int {
        var request = URLRequest(url: URL(string: server.baseURL + path)!)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as! HTTPURLResponse).statusCode
    }

    @Test func tokensForTwoAPIsSurviveARestartAndRefreshOnceEachAfterExpiry() async throws {
        let server = try LiveEmulator.start()
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("msal-e2e-\(UUID().uuidString)/token_cache.json")
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent()) }
        let clock = MovableClock()

        // Sign in, then a token for each API.
        let signIn = MSALNativeAuthSignInParameters(username: H.ada)
        signIn.password = H.adaPassword
        guard case .completed(let account) = try await app(server, cache: cache, clock: clock).signIn(parameters: signIn) else {
            Issue.record("sign-in failed")
            return
        }
        let todoParameters = MSALNativeAuthGetAccessTokenParameters()
        todoParameters.scopes = [Self.todo]
        let profileParameters = MSALNativeAuthGetAccessTokenParameters()
        profileParameters.scopes = [Self.profile]
        let todo = try await account.getAccessToken(parameters: todoParameters)
        let profile = try await account.getAccessToken(parameters: profileParameters)
        #expect(try await callAPI(server, "/api/todolist", todo.accessToken) == 200)
        #expect(try await callAPI(server, "/api/profile", profile.accessToken) == 200)
        #expect(try await callAPI(server, "/api/profile", todo.accessToken) == 401)
        #expect(try await tokenRequests(server) == ["password", "refresh_token", "refresh_token"])

        // Restart: a new application object on the same file; both tokens with no round trip.
        let restarted = try #require(try app(server, cache: cache, clock: clock).getNativeAuthUserAccount())
        #expect(restarted.account.username == H.ada)
        #expect(try await restarted.getAccessToken(parameters: todoParameters).accessToken == todo.accessToken)
        #expect(try await restarted.getAccessToken(parameters: profileParameters).accessToken == profile.accessToken)
        #expect(try await tokenRequests(server).count == 3)

        // Expiry: one refresh each, then cached again.
        #expect(try await LiveEmulator.post(server.baseURL + "/_emulator/clock", json: ["advance_seconds": 3600]) == 200)
        clock.advance(3600)
        #expect(try await callAPI(server, "/api/todolist", todo.accessToken) == 401, "the old token has expired at the API")
        let todo2 = try await restarted.getAccessToken(parameters: todoParameters)
        let profile2 = try await restarted.getAccessToken(parameters: profileParameters)
        _ = try await restarted.getAccessToken(parameters: todoParameters)
        _ = try await restarted.getAccessToken(parameters: profileParameters)
        #expect(todo2.accessToken != todo.accessToken && profile2.accessToken != profile.accessToken)
        #expect(try await tokenRequests(server) == ["password", "refresh_token", "refresh_token", "refresh_token", "refresh_token"])
        #expect(try await callAPI(server, "/api/todolist", todo2.accessToken) == 200)
        #expect(try await callAPI(server, "/api/profile", profile2.accessToken) == 200)

        // Sign out: gone here and after another restart.
        restarted.signOut()
        #expect(try app(server, cache: cache, clock: clock).getNativeAuthUserAccount() == nil)
        let stale = try await #require(throws: RetrieveAccessTokenError.self) {
            try await restarted.getAccessToken(parameters: todoParameters)
        }
        #expect(stale.isRefreshTokenExpired)
    }

    @Test func serverErrorsOnRefreshAreTyped() async throws {
        let server = try LiveEmulator.start()
        defer { server.stop() }
        let clock = MovableClock()
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: H.passwordApp, authority: try MSALCIAMAuthority(url: URL(string: server.authority)!),
            challengeTypes: [.OOB, .password])
        config.tokenCacheLocation = .inMemory
        let app = try MSALNativeAuthPublicClientApplication(configuration: config, clock: clock, uuid: { UUID() })
        let signIn = MSALNativeAuthSignInParameters(username: H.ada)
        signIn.password = H.adaPassword
        guard case .completed(let account) = try await app.signIn(parameters: signIn) else { return }

        let mixed = MSALNativeAuthGetAccessTokenParameters()
        mixed.scopes = [Self.todo, "api://emulator/profile/Profile.Read"]
        let scopeError = try await #require(throws: RetrieveAccessTokenError.self) { try await account.getAccessToken(parameters: mixed) }
        #expect(scopeError.isInvalidScope && scopeError.errorCodes == [28000])

        _ =
            server.router.handle(
                EmulatorRequest(
                    method: "DELETE", path: "/_emulator/sessions", query: ["username": H.ada],
                    baseURL: server.baseURL)
            ).status
        let revoked = MSALNativeAuthGetAccessTokenParameters()
        revoked.scopes = [Self.todo]
        let expired = try await #require(throws: RetrieveAccessTokenError.self) { try await account.getAccessToken(parameters: revoked) }
        #expect(expired.isRefreshTokenExpired)
    }
}
