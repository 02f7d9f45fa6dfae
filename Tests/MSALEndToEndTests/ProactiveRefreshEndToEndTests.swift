import Foundation
import TestSupport
import Testing

@testable import MSAL
@testable import NativeAuthEmulator

/// Proactive refresh against the emulator in-process: its token responses carry no
/// `refresh_in`, so the rule without it applies (half-life for a short token).
@Suite struct ProactiveRefreshEndToEndTests {
    typealias H = EmulatorHarness
    static let todo = "api://emulator/todolist/ToDoList.Read"

    /// The SDK's clock; the emulator's is moved in step through its clock hook.
    final class SteppedClock: NativeAuthClock {
        private let offset = Locked<TimeInterval>(0)
        let base: Date
        init(base: Date) { self.base = base }
        func now() -> Date { base.addingTimeInterval(offset.withLock { $0 }) }
        func sleep(seconds: Double) async throws { offset.withLock { $0 += seconds } }
        func advance(_ seconds: TimeInterval) { offset.withLock { $0 += seconds } }
    }

    struct Setup {
        let router: EmulatorRouter
        let clock: SteppedClock
        let app: MSALNativeAuthPublicClientApplication

        init(lifetime: Int, buffer: TimeInterval) throws {
            let base = Date(timeIntervalSince1970: 1_900_000_000)
            var configuration = EmulatorConfiguration()
            configuration.passwordHashIterations = 1000
            configuration.accessTokenLifetime = lifetime
            router = try EmulatorRouter(seed: .demo, configuration: configuration, now: { base })
            clock = SteppedClock(base: base)
            let config = MSALNativeAuthPublicClientApplicationConfig(
                clientId: H.passwordApp,
                authority: try MSALCIAMAuthority(url: URL(string: router.authority(baseURL: "http://127.0.0.1:1"))!),
                challengeTypes: [.OOB, .password])
            config.tokenCacheLocation = .inMemory
            config.transport = EmulatorTransport(router: router)
            config.tokenExpirationBuffer = buffer
            app = try MSALNativeAuthPublicClientApplication(configuration: config, clock: clock, uuid: { UUID() })
        }

        /// Both clocks forward by `seconds`.
        func advance(_ seconds: Int) {
            clock.advance(TimeInterval(seconds))
            let body = try! JSONSerialization.data(withJSONObject: ["advance_seconds": seconds])
            let response = router.handle(
                EmulatorRequest(
                    method: "POST", path: "/_emulator/clock", query: [:], headers: ["Content-Type": "application/json"], body: body,
                    baseURL: "http://127.0.0.1:1"))
            precondition(response.status == 200, "the emulator's clock hook refused")
        }

        /// The token endpoint's requests so far, by grant type.
        func grants() -> [String] {
            let response = router.handle(
                EmulatorRequest(
                    method: "GET", path: "/_emulator/requests", query: [:], headers: [:], body: Data(), baseURL: "http://127.0.0.1:1"))
            let log = (try? JSONSerialization.jsonObject(with: response.body)) as? [[String: Any]] ?? []
            return log.filter { $0["endpoint"] as? String == "/oauth2/v2.0/token" }.compactMap {
                ($0["fields"] as? [String: String])?["grant_type"]
            }
        }

        /// Waits (yielding, bounded) until no refresh is in flight: the background task removes itself when done.
        func settle() async -> Bool {
            for _ in 0..<20_000 {
                if app.environment.cache.refreshes.isIdle { return true }
                await Task.yield()
            }
            return false
        }
    }

    @Test func aFiveMinuteTokenIsReplacedInTheBackgroundFromHalfLifeOn() async throws {
        let s = try Setup(lifetime: 300, buffer: 60)
        let signIn = MSALNativeAuthSignInParameters(username: H.ada)
        signIn.password = H.adaPassword
        guard case .completed(let account) = try await s.app.signIn(parameters: signIn) else {
            Issue.record("sign-in failed")
            return
        }
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = [Self.todo]
        let first = try await account.getAccessToken(parameters: parameters)
        #expect(s.grants() == ["password", "refresh_token"])
        let homeAccountId = try #require(account.account.identifier)
        let cached = try #require(
            s.app.environment.cache.accessToken(homeAccountId: homeAccountId, scopes: ScopeSet([Self.todo]), validAt: s.clock.now()))
        #expect(cached.refreshOn == nil, "the emulator sends no refresh_in")
        #expect(cached.refreshDue(expiryBuffer: 60) == s.clock.now().addingTimeInterval(150))

        // Before half-life: the cache, no request.
        s.advance(149)
        #expect(try await account.getAccessToken(parameters: parameters).accessToken == first.accessToken)
        #expect(await s.settle())
        #expect(s.grants().count == 2)

        // At half-life: the same token at once, one refresh behind it, then the new token.
        s.advance(1)
        #expect(try await account.getAccessToken(parameters: parameters).accessToken == first.accessToken)
        #expect(await s.settle())
        #expect(s.grants() == ["password", "refresh_token", "refresh_token"])
        let second = try await account.getAccessToken(parameters: parameters)
        #expect(second.accessToken != first.accessToken)
        #expect(second.expiresOn == s.clock.now().addingTimeInterval(300))

        // Ten more minutes in 10 s steps: one refresh per 150 s, and every call served from the cache.
        let before = s.grants().count
        for _ in 0..<60 {
            s.advance(10)
            let token = try await account.getAccessToken(parameters: parameters)
            #expect((token.expiresOn ?? .distantPast) > s.clock.now().addingTimeInterval(60))
            #expect(await s.settle())
        }
        #expect(s.grants().count - before == 4)
        #expect(s.app.environment.cache.refreshes.backgroundRefreshes.withLock { $0 } == 5)
        #expect(s.app.environment.cache.refreshes.callers.withLock { $0 } == 1, "only the first token for the API waited")
    }
}
