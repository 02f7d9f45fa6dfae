import Foundation
import MSAL
import MSALRedis
import NativeAuthEmulator
import TestSupport
import Testing

/// Saved sign-ins on Redis end to end (docs/redis.md#saved-sign-ins): a real flow state, V1 and
/// native auth V2, saved in Redis by one worker and continued by another, each with its own
/// `MSALRedisClient` and application object as workers on two machines have, against the emulator
/// in process; the second worker's sign-in then serves the first from the shared token cache.
@Suite struct SavedSignInsOnRedisTests {
    typealias H = EmulatorHarness

    struct Worker {
        let app: MSALNativeAuthPublicClientApplication
        let signIns: MSALRedisSignInStore
    }

    let harness: EmulatorHarness
    let server: RedisServer

    init() throws {
        harness = try H()
        server = try RedisServer()
    }

    func worker() throws -> Worker {
        let client = try ClientTests.client(server.url) { $0.keyPrefix = "todo:" }
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: H.passwordApp,
            authority: try MSALCIAMAuthority(url: URL(string: harness.router.authority(baseURL: "http://127.0.0.1:1"))!),
            challengeTypes: [.OOB, .password])
        config.allowsMultipleAccounts = true
        config.tokenCacheLocation = .entryStore(
            try MSALRedisTokenCacheEntryStore(client: client, encryptionKey: SignInStoreTests.key), checkInterval: 60)
        config.transport = EmulatorTransport(router: harness.router)
        return Worker(
            app: try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config),
            signIns: try MSALRedisSignInStore(client: client, encryptionKey: SignInStoreTests.key))
    }

    func code(_ username: String) throws -> String { try #require(harness.lastCode(username)) }

    @Test func aV1CodeStepSavedOnOneWorkerIsFinishedOnAnotherOnce() async throws {
        let first = try worker()
        let second = try worker()
        guard case .codeRequired(let state, _, _, _) = try await first.app.signIn(parameters: .init(username: H.grace)) else {
            throw RedisTestFailure("expected .codeRequired")
        }
        let id = try first.signIns.save(state.serialized())

        let restored = try second.app.restoreState(serialized: try second.signIns.take(id), as: SignInCodeRequiredState.self)
        guard case .completed(let account) = try await restored.submitCode(code: try code(H.grace)) else {
            throw RedisTestFailure("expected .completed")
        }
        #expect(account.account.username == H.grace)
        // A replayed id finds nothing, on either worker.
        for worker in [first, second] {
            #expect(throws: MSALRedisError.self) { _ = try worker.signIns.take(id) }
        }
        // The first worker, which never finished a sign-in, finds the account in the shared cache.
        #expect(try first.app.allAccounts().map(\.username) == [H.grace])
    }

    @Test func aV2CodeStepSavedOnOneWorkerIsFinishedOnAnotherOnce() async throws {
        let first = try worker()
        let second = try worker()
        let state = try expectState(
            try await first.app.signInV2(parameters: MSALNativeAuthSignInParametersV2(username: H.grace)),
            MSALNativeAuthCodeRequiredState.self)
        let id = try first.signIns.save(state.serialized())

        let taken = try second.signIns.take(id)
        let restored = try expectState(try second.app.restoreStateV2(serialized: taken), MSALNativeAuthCodeRequiredState.self)
        #expect(restored.scenario == .signIn && restored.codeLength == state.codeLength)
        guard case .completed(let account, .signIn) = try await restored.submitCode(try code(H.grace)) else {
            throw RedisTestFailure("expected completion")
        }
        #expect(account.account.username == H.grace)
        #expect(throws: MSALRedisError.self) { _ = try second.signIns.take(id) }
        #expect(try first.app.allAccounts().map(\.username) == [H.grace])
    }
}

struct RedisTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
