import Foundation
import MSAL
import NativeAuthEmulator
import NativeAuthTesting

/// The token cache over an entry store (docs/scale-out.md), with the reference in-memory store
/// standing in for the server, so the figures are the SDK's own cost; a Redis store adds its round
/// trips on top of the "asks the store" rows. Side by side with the file cache's cached hit.
func sharedCache(iterations: Int, writesPerWriter: Int) async throws -> [Row] {
    let accounts = 10
    let sets = 100
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-shared-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("token_cache.json")
    try CacheFixture.write(to: file, accounts: accounts, scopeSets: sets)
    let store = InMemoryTokenCacheEntryStore()
    // The fixture's entries, written to the store as the SDK lays them out.
    let document = try TokenCacheDocument(json: try Data(contentsOf: file))
    let plan = EntryStoreLayout.plan(
        from: [:], to: EntryStoreLayout.partitions(of: document, clientId: CacheFixture.clientId), now: Date())
    for write in plan.writes { try store.write(write) }

    func application(_ location: MSALNativeAuthTokenCacheLocation) throws -> MSALNativeAuthPublicClientApplication {
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: CacheFixture.clientId, authority: try MSALCIAMAuthority(url: URL(string: CacheFixture.authority)!),
            challengeTypes: [.OOB, .password])
        config.tokenCacheLocation = location
        config.allowsMultipleAccounts = true
        return try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
    }

    /// p50 / p99 of `iterations` cached calls on `app` for the fixture's middle scope set.
    func hits(_ app: MSALNativeAuthPublicClientApplication, between: (() throws -> Void)? = nil) async throws -> Stats {
        guard let account = app.getNativeAuthUserAccount() else { throw EmulatorError("no cached account") }
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = [CacheFixture.scope(sets / 2)]
        return try await timedCachedCalls(account, parameters, iterations: iterations, between: between)
    }

    let tokens = accounts * sets
    var rows: [Row] = []
    func row(_ figure: String, _ stats: Stats) {
        rows.append(
            Row(
                figure: "\(figure), \(tokens) tokens (p50 / p99 µs)", measured: "\(format(stats.p50, 2)) / \(format(stats.p99, 2))",
                target: "—", met: nil))
    }
    row("cached getAccessToken, file cache", try await hits(try application(.file(file))))
    row("cached getAccessToken, entry store, copy trusted 1 s", try await hits(try application(.entryStore(store, checkInterval: 1))))
    row("cached getAccessToken, entry store, asks on every call", try await hits(try application(.entryStore(store, checkInterval: 0))))
    // Another machine writes one account's partition before every call: the call reads that partition again.
    let other = EntryStoreLayout.partitions(of: document, clientId: CacheFixture.clientId).keys.first { $0.homeAccountId != nil }!
    var round = 0
    let changed = try await hits(try application(.entryStore(store, checkInterval: 0))) {
        round += 1
        let value = MSALTokenCacheEntryValue(data: Data(#"{"home_account_id":"\#(other.homeAccountId!)"}"#.utf8), expiresOn: nil)
        try store.write(MSALTokenCacheEntryWrite(partition: other, set: ["Account:bench-\(round % 2)": value], remove: []))
    }
    row("cached getAccessToken after another machine's write", changed)
    rows += try await concurrentWrites(store: store, perWriter: writesPerWriter)
    rows += try await manyAccounts(accounts: 1_000, iterations: max(200, iterations / 20))
    return rows
}

/// One client with `accounts` accounts in its copy: another machine's change to one account seen by
/// the next cached call, and this process writing one account's new access token. Both should cost
/// what one partition holds, not what the whole cache holds.
private func manyAccounts(accounts: Int, iterations: Int) async throws -> [Row] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-many-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("token_cache.json")
    try CacheFixture.write(to: file, accounts: accounts, scopeSets: 2)
    let store = InMemoryTokenCacheEntryStore()
    let document = try TokenCacheDocument(json: try Data(contentsOf: file))
    let partitions = EntryStoreLayout.partitions(of: document, clientId: CacheFixture.clientId)
    for write in EntryStoreLayout.plan(from: [:], to: partitions, now: Date()).writes { try store.write(write) }
    let other = partitions.keys.first { $0.homeAccountId != nil }!

    let config = MSALNativeAuthPublicClientApplicationConfig(
        clientId: CacheFixture.clientId, authority: try MSALCIAMAuthority(url: URL(string: CacheFixture.authority)!),
        challengeTypes: [.OOB, .password])
    config.tokenCacheLocation = .entryStore(store, checkInterval: 0)
    config.allowsMultipleAccounts = true
    let app = try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
    guard let account = app.getNativeAuthUserAccount() else { throw EmulatorError("no cached account") }
    let parameters = MSALNativeAuthGetAccessTokenParameters()
    parameters.scopes = [CacheFixture.scope(1)]
    var round = 0
    let changed = try await timedCachedCalls(account, parameters, iterations: iterations) {
        round += 1
        let value = MSALTokenCacheEntryValue(data: Data(#"{"home_account_id":"\#(other.homeAccountId!)"}"#.utf8), expiresOn: nil)
        try store.write(MSALTokenCacheEntryWrite(partition: other, set: ["Account:bench-\(round % 2)": value], remove: []))
    }

    let storage = EntryStoreTokenCacheStorage(
        store: store, clientId: CacheFixture.clientId, checkInterval: 1, lease: 60, clock: SystemClock())
    _ = try storage.load(ifChangedSince: nil)
    let home = other.homeAccountId!
    var samples: [UInt64] = []
    for index in 0..<iterations {
        let start = now()
        _ = try storage.update { document in
            document[.accessToken]["\(home)-accesstoken-\(index % 50)"] = [
                "home_account_id": .string(home), "secret": .string("at-\(index)"),
                "expires_on": .string(String(Int(Date().timeIntervalSince1970) + 3600)),
            ]
        }
        samples.append(now() - start)
    }
    let writes = Stats(samples)
    let tokens = accounts * 2
    return [
        Row(
            figure: "cached getAccessToken after another machine's write, \(accounts) accounts, \(tokens) tokens (p50 / p99 µs)",
            measured: "\(format(changed.p50, 1)) / \(format(changed.p99, 1))", target: "—", met: nil),
        Row(
            figure: "entry store write of one account, \(accounts) accounts, \(tokens) tokens (p50 / p99 µs)",
            measured: "\(format(writes.p50, 1)) / \(format(writes.p99, 1))", target: "—", met: nil),
    ]
}

/// Writes per second with 1, 2, 4 and 8 writers at once, each a machine storing a new access token
/// for its own account (one partition each), as refreshes do.
private func concurrentWrites(store: InMemoryTokenCacheEntryStore, perWriter: Int) async throws -> [Row] {
    var rows: [Row] = []
    for writers in [1, 2, 4, 8] {
        let start = now()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    let storage = EntryStoreTokenCacheStorage(
                        store: store, clientId: CacheFixture.clientId, checkInterval: 1, lease: 60, clock: SystemClock())
                    let home = "writer-\(writer).bench"
                    for index in 0..<perWriter {
                        _ = try storage.update { document in
                            document[.accessToken]["\(home)-accesstoken-\(index % 50)"] = [
                                "home_account_id": .string(home), "secret": .string("at-\(index)"),
                                "expires_on": .string(String(Int(Date().timeIntervalSince1970) + 3600)),
                            ]
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let seconds = Double(now() - start) / 1e9
        rows.append(
            Row(
                figure: "entry store writes, \(writers) concurrent writers (writes/s)",
                measured: format(Double(writers * perWriter) / seconds, 0), target: "—", met: nil))
    }
    return rows
}
