import Foundation
import MSAL
import MSALRedis
import NativeAuthEmulator
import TestSupport
import Testing

/// The SDK's token cache on Redis end to end: application objects, each with its own
/// `MSALRedisClient` as a worker on another machine would have, share one `redis-server` through
/// `MSALRedisTokenCacheEntryStore` (encrypted), against the emulator in process with a refresh
/// token honoured once.
@Suite struct SharedTokenCacheOnRedisTests {
    typealias H = EmulatorHarness
    static let todo = "api://emulator/todolist/ToDoList.Read"
    static let profile = "api://emulator/profile/Profile.Read"

    /// Counts the token requests one worker sends.
    final class CountingTransport: HTTPTransport {
        let inner: any HTTPTransport
        private let lock = NSLock()
        nonisolated(unsafe) private var count = 0
        init(_ inner: any HTTPTransport) { self.inner = inner }
        var tokenRequests: Int { lock.withLock { count } }
        func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
            if request.url.path.hasSuffix("/oauth2/v2.0/token") { lock.withLock { count += 1 } }
            return try await inner.send(request)
        }
    }

    let harness: EmulatorHarness
    let server: RedisServer

    init() throws {
        harness = try H { $0.strictRefreshTokenRotation = true }
        server = try RedisServer()
    }

    /// A worker; `tracksChanges`, `checkInterval`: as `MSALRedisTokenCacheEntryStore` and `.entryStore` take them.
    func worker(tracksChanges: Bool = true, checkInterval: TimeInterval = 60) throws -> (
        app: MSALNativeAuthPublicClientApplication, transport: CountingTransport
    ) {
        let transport = CountingTransport(EmulatorTransport(router: harness.router))
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: H.passwordApp,
            authority: try MSALCIAMAuthority(url: URL(string: harness.router.authority(baseURL: "http://127.0.0.1:1"))!),
            challengeTypes: [.OOB, .password])
        let store = try MSALRedisTokenCacheEntryStore(
            client: try ClientTests.client(server.url) { $0.keyPrefix = "todo:" }, encryptionKey: SignInStoreTests.key,
            tracksChanges: tracksChanges)
        config.tokenCacheLocation = .entryStore(store, checkInterval: checkInterval)
        config.transport = transport
        return (try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config), transport)
    }

    func token(_ account: MSALNativeAuthUserAccountResult, _ scope: String, force: Bool = false) async throws -> String {
        let request = MSALNativeAuthGetAccessTokenParameters()
        request.scopes = [scope]
        request.forceRefresh = force
        return try await account.getAccessToken(parameters: request).accessToken
    }

    @Test func aSignInOnOneWorkerServesTokensOnAnotherAndASignOutEndsItEverywhere() async throws {
        let first = try worker()
        let second = try worker()
        let parameters = MSALNativeAuthSignInParameters(username: H.ada)
        parameters.password = H.adaPassword
        guard case .completed(let signedIn) = try await first.app.signIn(parameters: parameters) else {
            throw RedisTestError("no sign-in")
        }
        let todo = try await token(signedIn, Self.todo)
        let there = try #require(second.app.getNativeAuthUserAccount())
        #expect(try await token(there, Self.todo) == todo)
        #expect(second.transport.tokenRequests == 0)
        // Nothing in Redis is readable without the key.
        let client = try ClientTests.client(server.url)
        let keys = try client.command("KEYS", "todo:tc:*").array?.compactMap(\.string) ?? []
        #expect(keys.contains { $0.hasSuffix(":e") })
        for key in keys where key.hasSuffix(":e") {
            for field in try client.command("HVALS", key: key).array ?? [] {
                #expect(field.data.map { $0.range(of: Data(todo.utf8)) == nil } == true)
            }
        }
        there.signOut()
        #expect(first.app.getNativeAuthUserAccount() == nil)
        // The account's partition is gone (the client's own, app metadata, stays).
        #expect(try client.command("KEYS", "todo:tc:*|a*").array?.isEmpty == true)
    }

    @Test func fourWorkersRefreshingOneAccountAtOnceLoseNothing() async throws {
        let workers = try (0..<4).map { _ in try worker() }
        let parameters = MSALNativeAuthSignInParameters(username: H.ada)
        parameters.password = H.adaPassword
        guard case .completed = try await workers[0].app.signIn(parameters: parameters) else { throw RedisTestError("no sign-in") }
        let accounts = try workers.map { try #require($0.app.getNativeAuthUserAccount()) }
        let results = try await withThrowingTaskGroup(of: String.self) { group in
            for round in 0..<3 {
                for (index, account) in accounts.enumerated() {
                    let scope = (index + round).isMultiple(of: 2) ? Self.todo : Self.profile
                    group.addTask { try await token(account, scope, force: true) }
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(results.count == 12)
        // Read from Redis afresh: the account keeps every kind of entry, and a token for each API.
        let store = try MSALRedisTokenCacheEntryStore(
            client: try ClientTests.client(server.url) { $0.keyPrefix = "todo:" }, encryptionKey: SignInStoreTests.key)
        let entries = try store.entries(in: MSALTokenCachePartition(clientId: H.passwordApp, homeAccountId: accounts[0].account.identifier))
        for kind in ["Account:", "IdToken:", "RefreshToken:"] { #expect(entries.keys.contains { $0.hasPrefix(kind) }, "\(kind)") }
        for scope in [Self.todo, Self.profile] {
            #expect(entries.keys.contains { $0.hasPrefix("AccessToken:") && $0.lowercased().contains(scope.lowercased()) }, "\(scope)")
        }
        // The refresh token left in Redis is the live one: every worker can refresh again.
        for account in accounts { _ = try await token(account, Self.todo, force: true) }
        for account in accounts { _ = try await token(account, Self.profile, force: true) }
    }
}
