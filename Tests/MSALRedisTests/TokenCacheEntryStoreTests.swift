import Foundation
import MSAL
import TestSupport
import Testing

@testable import MSALRedis

/// `MSALRedisTokenCacheEntryStore` against the guarantees of `MSALTokenCacheEntryStore`: merge by
/// entry across processes, partitions that never cross, versions that change, expiry with the
/// tokens, leased locks, encryption, and one slot per partition in a cluster.
@Suite struct TokenCacheEntryStoreTests {
    static let clientId = "00001111-aaaa-2222-bbbb-3333cccc4444"
    static let ada = MSALTokenCachePartition(clientId: clientId, homeAccountId: "ada-uid.tenant")
    static let grace = MSALTokenCachePartition(clientId: clientId, homeAccountId: "grace-uid.tenant")

    static func value(_ text: String, expires: TimeInterval? = 3600) -> MSALTokenCacheEntryValue {
        MSALTokenCacheEntryValue(data: Data(text.utf8), expiresOn: expires.map { Date().addingTimeInterval($0) })
    }

    static func store(_ server: RedisServer, key: Data? = nil) throws -> MSALRedisTokenCacheEntryStore {
        try MSALRedisTokenCacheEntryStore(client: try ClientTests.client(server.url), encryptionKey: key)
    }

    @Test func fourProcessesWritingOneAccountAtOnceLoseNoEntry() async throws {
        let server = try RedisServer()
        let writers = ["w1", "w2", "w3", "w4"]
        let results = try await withThrowingTaskGroup(of: (Int32, String).self) { group in
            for writer in writers {
                group.addTask {
                    let result = try await SignInStoreTests.helper([
                        "tc-write", server.url, Self.clientId, "ada-uid.tenant", writer, "100",
                    ])
                    return (result.status, result.stderr)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.0 == 0 }, "\(results)")
        let entries = try Self.store(server).entries(in: Self.ada)
        #expect(entries.count == 401)
        for writer in writers {
            for index in 0..<100 { #expect(entries["AccessToken:\(writer)-\(index)"] == Data("at-\(writer)-\(index)".utf8)) }
        }
        let refresh = try #require(entries["RefreshToken:shared"].map { String(decoding: $0, as: UTF8.self) })
        #expect(writers.map { "\($0)-99" }.contains(refresh))
    }

    @Test func oneAccountsWritesAndSignOutNeverTouchAnother() throws {
        let server = try RedisServer()
        let store = try Self.store(server)
        try store.write(MSALTokenCacheEntryWrite(partition: Self.ada, set: ["AccessToken:a": Self.value("ada")], remove: []))
        try store.write(MSALTokenCacheEntryWrite(partition: Self.grace, set: ["AccessToken:a": Self.value("grace")], remove: []))
        let app = MSALTokenCachePartition(clientId: Self.clientId, homeAccountId: nil)
        try store.write(MSALTokenCacheEntryWrite(partition: app, set: ["AppMetadata:x": Self.value("meta", expires: nil)], remove: []))
        #expect(try store.entries(in: Self.ada) == ["AccessToken:a": Data("ada".utf8)])
        #expect(try store.entries(in: Self.grace) == ["AccessToken:a": Data("grace".utf8)])
        #expect(Set(try store.partitionVersions(clientId: Self.clientId).keys) == [Self.ada, Self.grace, app])
        try store.removePartition(Self.ada)
        #expect(try store.entries(in: Self.ada).isEmpty)
        #expect(try store.entries(in: Self.grace) == ["AccessToken:a": Data("grace".utf8)])
        #expect(Set(try store.partitionVersions(clientId: Self.clientId).keys) == [Self.grace, app])
        // Another client id is another set of partitions.
        #expect(try store.partitionVersions(clientId: "another-client").isEmpty)
        #expect(try store.changeVersion(clientId: "another-client") == nil)
    }

    /// A sign-out on one machine (data deleted, then the index) racing a write on another (data,
    /// then the index): the write's data and its "add" land between the two steps of the removal.
    @Test func aRemovalsIndexStepKeepsAPartitionWrittenMeanwhile() throws {
        let server = try RedisServer()
        let store = try Self.store(server)
        try store.write(MSALTokenCacheEntryWrite(partition: Self.ada, set: ["AccessToken:a": Self.value("old")], remove: []))
        let client = try ClientTests.client(server.url)
        try client.command("DEL", key: store.keys(Self.ada).entries, store.keys(Self.ada).expiries, store.keys(Self.ada).version)
        try store.write(MSALTokenCacheEntryWrite(partition: Self.ada, set: ["AccessToken:b": Self.value("new")], remove: []))
        try store.index(Self.ada, "remove")
        #expect(Set(try store.partitionVersions(clientId: Self.clientId).keys) == [Self.ada])
        #expect(try store.entries(in: Self.ada) == ["AccessToken:b": Data("new".utf8)])
        // With no data left, the removal's index step does remove the member.
        try store.removePartition(Self.ada)
        #expect(try store.partitionVersions(clientId: Self.clientId).isEmpty)
        #expect(try client.command("SMEMBERS", key: store.keys(Self.clientId).partitions).array?.isEmpty == true)
    }

    /// A write that leaves a partition with no entries (its last access token expired and
    /// dropped) takes it out of the client's index, so that no check asks for it again.
    @Test func aPartitionEmptiedByAWriteLeavesTheIndex() throws {
        let server = try RedisServer()
        let store = try Self.store(server)
        let client = try ClientTests.client(server.url)
        let index = { () throws -> Set<String> in
            Set(
                try client.command("SMEMBERS", key: store.keys(Self.clientId).partitions).array?.compactMap(\.string) ?? [])
        }
        try store.write(MSALTokenCacheEntryWrite(partition: Self.ada, set: ["AccessToken:a": Self.value("a")], remove: []))
        try store.write(MSALTokenCacheEntryWrite(partition: Self.grace, set: ["RefreshToken:r": Self.value("r", expires: nil)], remove: []))
        #expect(try index() == ["aada-uid.tenant", "agrace-uid.tenant"])
        let before = try store.changeVersion(clientId: Self.clientId)
        try store.write(MSALTokenCacheEntryWrite(partition: Self.ada, set: ["AccessToken:a": Self.value("a", expires: -5)], remove: []))
        #expect(try index() == ["agrace-uid.tenant"], "the emptied partition is out of the index")
        #expect(try store.partitionVersions(clientId: Self.clientId).keys.sorted { $0.description < $1.description } == [Self.grace])
        #expect(try store.changeVersion(clientId: Self.clientId) != before)
        #expect(try client.command("EXISTS", key: store.keys(Self.ada).entries, store.keys(Self.ada).version).integer == 0)
    }

    @Test func everyWriteAndRemovalChangesTheVersionsToValuesNeverSeenBefore() throws {
        let server = try RedisServer()
        let store = try Self.store(server)
        var seen: Set<String> = []
        var changes: Set<String> = []
        for round in 0..<5 {
            try store.write(MSALTokenCacheEntryWrite(partition: Self.ada, set: ["AccessToken:\(round)": Self.value("t")], remove: []))
            seen.insert(try #require(try store.partitionVersions(clientId: Self.clientId)[Self.ada]))
            changes.insert(try #require(try store.changeVersion(clientId: Self.clientId)))
            try store.removePartition(Self.ada)
            #expect(try store.partitionVersions(clientId: Self.clientId)[Self.ada] == nil)
            changes.insert(try #require(try store.changeVersion(clientId: Self.clientId)))
        }
        #expect(seen.count == 5 && changes.count == 10)
    }

    /// A version key that Redis answers with an error (here a key of another type under it) is the
    /// server's error, not a partition quietly left out of the versions.
    @Test func aVersionRedisRefusesIsAnErrorNotAMissingPartition() throws {
        let server = try RedisServer()
        let store = try Self.store(server)
        try store.write(MSALTokenCacheEntryWrite(partition: Self.ada, set: ["AccessToken:a": Self.value("a")], remove: []))
        let client = try ClientTests.client(server.url)
        try client.command("DEL", key: store.keys(Self.ada).version)
        try client.command("HSET", key: store.keys(Self.ada).version, "f", "v")
        var refused: MSALRedisError?
        do { _ = try store.partitionVersions(clientId: Self.clientId) } catch { refused = error as? MSALRedisError }
        #expect(refused?.serverCode == "WRONGTYPE")
    }

    @Test func entriesExpireWithTheirTokens() throws {
        let server = try RedisServer()
        let store = try Self.store(server)
        let client = try ClientTests.client(server.url)
        try store.write(
            MSALTokenCacheEntryWrite(partition: Self.ada, set: ["AccessToken:short": Self.value("s", expires: 2)], remove: []))
        let ttl = try client.command("PTTL", key: store.keys(Self.ada).entries).integer ?? -1
        // The partition lives as long as its token: 2 s, not the 90 days of a refresh token nor for
        // ever. The bound leaves room for the server's clock, read once per command, lagging this
        // process's on a loaded machine (a bound of exactly the token's lifetime failed there once).
        #expect(ttl > 0 && ttl <= 3000, "\(ttl)")
        try store.write(MSALTokenCacheEntryWrite(partition: Self.grace, set: ["RefreshToken:r": Self.value("r", expires: nil)], remove: []))
        #expect(try client.command("PTTL", key: store.keys(Self.grace).entries).integer == -1)
        usleep(3_100_000)
        #expect(try store.entries(in: Self.ada).isEmpty)
        #expect(try store.partitionVersions(clientId: Self.clientId)[Self.ada] == nil)
        // An entry already past its expiry is dropped by the next write of its partition.
        try store.write(MSALTokenCacheEntryWrite(partition: Self.grace, set: ["AccessToken:old": Self.value("o", expires: -5)], remove: []))
        #expect(try store.entries(in: Self.grace) == ["RefreshToken:r": Data("r".utf8)])
    }

    @Test func aRefreshLockIsHeldByOneOwnerUntilReleasedOrItsLeaseLapses() throws {
        let server = try RedisServer()
        let store = try Self.store(server)
        #expect(try store.tryLock(Self.ada, owner: "worker-1", lease: 5))
        #expect(try !store.tryLock(Self.ada, owner: "worker-2", lease: 5))
        #expect(try store.tryLock(Self.grace, owner: "worker-2", lease: 5))
        try store.unlock(Self.ada, owner: "worker-2")
        #expect(try !store.tryLock(Self.ada, owner: "worker-2", lease: 5))
        try store.unlock(Self.ada, owner: "worker-1")
        #expect(try store.tryLock(Self.ada, owner: "worker-2", lease: 0.3))
        usleep(500_000)
        #expect(try store.tryLock(Self.ada, owner: "worker-3", lease: 5))
    }

    @Test func encryptedEntriesNeverReachRedisInClearAndTamperingIsRefused() throws {
        let server = try RedisServer()
        let store = try Self.store(server, key: SignInStoreTests.key)
        let client = try ClientTests.client(server.url)
        try store.write(MSALTokenCacheEntryWrite(partition: Self.ada, set: ["RefreshToken:r": Self.value("rt-secret-value")], remove: []))
        let stored = try #require(try client.command("HGET", key: store.keys(Self.ada).entries, "RefreshToken:r").data)
        #expect(stored.range(of: Data("rt-secret-value".utf8)) == nil)
        #expect(try store.entries(in: Self.ada) == ["RefreshToken:r": Data("rt-secret-value".utf8)])
        // The same bytes under another field do not authenticate.
        try client.command("HSET", key: store.keys(Self.ada).entries, "RefreshToken:other", stored)
        #expect(throws: MSALRedisError.self) { try store.entries(in: Self.ada) }
        // A plain store cannot read them either, and a wrong type is an error, not an empty cache.
        try client.command("SET", key: store.keys(Self.grace).entries, "x")
        #expect(throws: MSALRedisError.self) { try store.entries(in: Self.grace) }
    }

    @Test func aPartitionsKeysShareOneSlotAndWritesWorkOnACluster() throws {
        let cluster = try RedisCluster()
        let store = try MSALRedisTokenCacheEntryStore(client: try ClientTests.client(cluster.nodes[0].url) { $0.keyPrefix = "app:" })
        let admin = try cluster.direct(cluster.nodes[0])
        for partition in [Self.ada, Self.grace, MSALTokenCachePartition(clientId: "odd{client}", homeAccountId: "{x}")] {
            let keys = store.keys(partition)
            let slots = try [keys.entries, keys.expiries, keys.version, keys.lock].map { try admin.command("CLUSTER", "KEYSLOT", $0) }
            #expect(Set(slots.compactMap(\.integer)).count == 1 && slots.count == 4)
            try store.write(MSALTokenCacheEntryWrite(partition: partition, set: ["AccessToken:a": Self.value("v")], remove: []))
            #expect(try store.entries(in: partition) == ["AccessToken:a": Data("v".utf8)])
        }
        let ada = try admin.command("CLUSTER", "KEYSLOT", store.keys(Self.ada).entries)
        let grace = try admin.command("CLUSTER", "KEYSLOT", store.keys(Self.grace).entries)
        #expect(ada != grace)
    }
}
