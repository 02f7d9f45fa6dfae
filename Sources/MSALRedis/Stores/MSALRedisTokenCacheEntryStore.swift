import CRedisTLS
import Foundation
import MSAL

/// The token cache on Redis, shared by every process and machine of an app: give it to
/// `tokenCacheLocation = .entryStore(_:checkInterval:)`.
///
/// ```swift
/// // given: config: MSALNativeAuthPublicClientApplicationConfig, appKey: Data
/// let client = try MSALRedisClient(configuration: MSALRedisConfiguration(url: "rediss://worker:secret@cache.internal:6380"))
/// config.tokenCacheLocation = .entryStore(try MSALRedisTokenCacheEntryStore(client: client, encryptionKey: appKey))
/// ```
///
/// One partition (client id and account) is three keys sharing one hash tag, so that a cluster
/// keeps them in one slot: a hash of entries, a hash of their expiries and a version
/// (docs/redis.md#the-token-cache). A write is one script on that slot: it merges by entry, drops
/// expired entries, and makes the keys live as long as the latest expiry. The client's own keys
/// (the change version and the index of partitions) share another tag and are written after the data.
///
/// Every requirement, and everything the SDK asks in one go (`operation(_:)`), finishes or fails
/// within the client's command timeout as a whole (docs/redis.md#connections).
///
/// Redis tells the SDK which partitions other machines change (`observeChanges`, with
/// `CLIENT TRACKING`: docs/redis.md#changes-pushed-by-redis), so that a worker serves what it holds
/// without asking Redis, and stops serving a user's tokens within milliseconds of a sign-out
/// elsewhere.
public final class MSALRedisTokenCacheEntryStore: MSALTokenCacheEntryStore {
    private let client: MSALRedisClient
    private let seal: ValueSeal
    private let tracksChanges: Bool
    /// One tracker per client id, shared by the application objects that observe it.
    private let trackers = Locked<[String: ChangeTracker]>([:])

    /// How long the tracking connection may stay silent before it is checked with a `PING`.
    static let heartbeat: TimeInterval = 1

    /// A store on `client`'s server under its key prefix; `encryptionKey`: 32 bytes for
    /// AES-256-GCM on every entry, or `nil` to store entries as they are. `tracksChanges`: whether
    /// Redis pushes other machines' changes to this process (`CLIENT TRACKING`, one more
    /// connection; a cluster is not tracked); without it, the SDK asks for a user's version after
    /// each check interval.
    public init(client: MSALRedisClient, encryptionKey: Data? = nil, tracksChanges: Bool = true) throws(MSALRedisError) {
        self.client = client
        self.seal = try ValueSeal(key: encryptionKey)
        self.tracksChanges = tracksChanges
    }

    /// Reports the changes of `clientId`'s partitions as Redis pushes them (`ChangeTracker`),
    /// unless the store was made with `tracksChanges: false`.
    public func observeChanges(clientId: String, _ onChange: @escaping @Sendable (MSALTokenCacheChange) -> Void) -> (@Sendable () -> Void)?
    {
        guard tracksChanges else { return nil }
        let (tracker, id) = trackers.withLock { trackers in
            let tracker: ChangeTracker
            if let running = trackers[clientId] {
                tracker = running
            } else {
                tracker = ChangeTracker(
                    configuration: client.configuration, tlsContext: client.tlsContext, credentials: client.credentials, clientId: clientId,
                    partitionPrefix: partitionPrefix(clientId), heartbeat: Self.heartbeat)
                trackers[clientId] = tracker
                tracker.start()
            }
            return (tracker, tracker.add(onChange))
        }
        return { [trackers] in
            trackers.withLock { trackers in
                if tracker.remove(id), trackers[clientId] === tracker { trackers[clientId] = nil }
            }
        }
    }

    /// `Redis at <endpoint> db <n>`, without the password.
    public var storeDescription: String { "Redis at \(client.configuration)" }

    /// One deadline, the client's command timeout, for every command `body` sends
    /// (`MSALRedisClient.operation(_:)`).
    public func operation<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        try client.operation(body)
    }

    /// `GET <prefix>tc:{<client id>}:changed`.
    public func changeVersion(clientId: String) throws -> String? {
        try client.command([Data("GET".utf8), clientKey(clientId, "changed")]).string
    }

    /// The members of the client's partition set, each with its version key's value (partitions
    /// whose version has expired or was removed are left out): the versions are read in one
    /// pipeline, one round trip per server however many accounts there are.
    public func partitionVersions(clientId: String) throws -> [MSALTokenCachePartition: String] {
        try client.operation { () throws(MSALRedisError) in try versions(clientId: clientId) }
    }

    private func versions(clientId: String) throws(MSALRedisError) -> [MSALTokenCachePartition: String] {
        let members = try client.command([Data("SMEMBERS".utf8), clientKey(clientId, "partitions")]).array ?? []
        let partitions = members.compactMap(\.string).map { member in
            MSALTokenCachePartition(clientId: clientId, homeAccountId: member == "-" ? nil : String(member.dropFirst()))
        }
        let replies = try client.pipeline(partitions.map { [Data("GET".utf8), key($0, "v")] })
        var versions: [MSALTokenCachePartition: String] = [:]
        for (partition, reply) in zip(partitions, replies) {
            if case .error(let text) = reply { throw MSALRedisError.fromServer(text) }
            if let version = reply.string { versions[partition] = version }
        }
        return versions
    }

    /// `HGETALL` of the partition's entries, each opened (`.invalidValue` for one this store did not write).
    public func entries(in partition: MSALTokenCachePartition) throws -> [String: Data] {
        let entriesKey = key(partition, "e")
        return try opened(try client.command([Data("HGETALL".utf8), entriesKey]), entriesKey)
    }

    /// `GET` of the partition's version key.
    public func version(of partition: MSALTokenCachePartition) throws -> String? {
        try client.command([Data("GET".utf8), key(partition, "v")]).string
    }

    /// The version and the entries in one round trip: `GET` of the version and `HGETALL` of the
    /// entries, pipelined (one slot: one server).
    public func read(_ partition: MSALTokenCachePartition) throws -> (version: String?, entries: [String: Data]) {
        let entriesKey = key(partition, "e")
        let replies = try client.pipeline([[Data("GET".utf8), key(partition, "v")], [Data("HGETALL".utf8), entriesKey]])
        for reply in replies { if case .error(let text) = reply { throw MSALRedisError.fromServer(text) } }
        guard let version = replies[0].string else { return (nil, [:]) }
        return (version, try opened(replies[1], entriesKey))
    }

    /// The entries of an `HGETALL` reply, each opened (`.invalidValue` for one this store did not write).
    private func opened(_ reply: MSALRedisReply, _ entriesKey: Data) throws -> [String: Data] {
        let fields = reply.array ?? []
        guard fields.count % 2 == 0 else { throw MSALRedisError(.invalidValue, "A token cache partition is not a hash of entries") }
        var entries: [String: Data] = [:]
        for index in stride(from: 0, to: fields.count, by: 2) {
            guard let field = fields[index].string, let stored = fields[index + 1].data else {
                throw MSALRedisError(.invalidValue, "A token cache entry is not one this library wrote")
            }
            entries[field] = try seal.open(stored, storedAs: entriesKey + Data(field.utf8))
        }
        return entries
    }

    /// One script on the partition's slot (TokenCacheScripts.write), then the client's index and change version.
    public func write(_ write: MSALTokenCacheEntryWrite) throws {
        try client.operation { () throws(MSALRedisError) in try written(write) }
    }

    private func written(_ write: MSALTokenCacheEntryWrite) throws(MSALRedisError) {
        let entriesKey = key(write.partition, "e")
        var arguments = [Data("EVAL".utf8), Data(TokenCacheScripts.write.utf8), Data("3".utf8)]
        arguments += [entriesKey, key(write.partition, "x"), key(write.partition, "v")]
        arguments += [try Self.newVersion(), Data(String(write.set.count).utf8)]
        for (field, value) in write.set {
            let expiry = value.expiresOn.map { String(Int64(($0.timeIntervalSince1970 * 1000).rounded(.up))) } ?? ""
            arguments += [Data(field.utf8), try seal.seal(value.data, storedAs: entriesKey + Data(field.utf8)), Data(expiry.utf8)]
        }
        arguments += write.remove.map { Data($0.utf8) }
        let kept = try client.command(arguments).integer ?? 0
        try index(write.partition, kept == 1 ? "add" : "remove")
    }

    /// Deletes the partition's keys, then updates the client's index and change version.
    public func removePartition(_ partition: MSALTokenCachePartition) throws {
        try client.operation { () throws(MSALRedisError) in
            try client.command([Data("DEL".utf8), key(partition, "e"), key(partition, "x"), key(partition, "v")])
            try index(partition, "remove")
        }
    }

    /// `SET <lock> owner NX PX <lease in ms>`.
    public func tryLock(_ partition: MSALTokenCachePartition, owner: String, lease: TimeInterval) throws -> Bool {
        let milliseconds = String(max(1, Int64((lease * 1000).rounded(.up))))
        let reply = try client.command([
            Data("SET".utf8), key(partition, "lock"), Data(owner.utf8), Data("NX".utf8), Data("PX".utf8), Data(milliseconds.utf8),
        ])
        return reply == .simple("OK")
    }

    /// Deletes the lock in a script only while `owner` holds it.
    public func unlock(_ partition: MSALTokenCachePartition, owner: String) throws {
        try client.command([
            Data("EVAL".utf8), Data(TokenCacheScripts.unlock.utf8), Data("1".utf8), key(partition, "lock"), Data(owner.utf8),
        ])
    }

    /// Records that `partition` holds entries (or no longer does) and bumps the client's change
    /// version, after the data. The index lives in another slot than the data, so a removal looks
    /// at the data again once its member is gone: a write by another machine that landed between
    /// this removal's data and its index (its own "add" already done) would otherwise leave an
    /// account with entries that no machine lists. A write that lands after that look adds itself.
    func index(_ partition: MSALTokenCachePartition, _ change: String) throws(MSALRedisError) {
        try client.command([
            Data("EVAL".utf8), Data(TokenCacheScripts.index.utf8), Data("2".utf8), clientKey(partition.clientId, "partitions"),
            clientKey(partition.clientId, "changed"), Data(Self.member(partition).utf8), Data(change.utf8), try Self.newVersion(),
        ])
        if change == "remove", try client.command([Data("EXISTS".utf8), key(partition, "v")]).integer == 1 {
            try index(partition, "add")
        }
    }

    /// `<prefix>tc:{<client id>|<member>}:<kind>`: one hash tag per partition.
    func key(_ partition: MSALTokenCachePartition, _ kind: String) -> Data {
        Data("\(partitionPrefix(partition.clientId))\(Self.tagSafe(Self.member(partition)))}:\(kind)".utf8)
    }

    /// `<prefix>tc:{<client id>|`: how every key of the client's partitions begins.
    func partitionPrefix(_ clientId: String) -> String { "\(client.configuration.keyPrefix)tc:{\(Self.tagSafe(clientId))|" }

    /// `<prefix>tc:{<client id>}:<kind>`: the client's own keys.
    func clientKey(_ clientId: String, _ kind: String) -> Data {
        Data("\(client.configuration.keyPrefix)tc:{\(Self.tagSafe(clientId))}:\(kind)".utf8)
    }

    /// The partition's name in the client's index: `-` for the client's own, `a<home account id>` for an account's.
    private static func member(_ partition: MSALTokenCachePartition) -> String { partition.homeAccountId.map { "a" + $0 } ?? "-" }

    /// Braces would end or start a hash tag: they are escaped, as is the escape character.
    private static func tagSafe(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(
            of: "}", with: "%7D")
    }

    /// A version no earlier write has had: 128 random bits.
    private static func newVersion() throws(MSALRedisError) -> Data {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard msal_redis_random(&bytes, 16) == 1 else { throw MSALRedisError(.invalidValue, "No random bytes for a version") }
        return Data(bytes.map { String(format: "%02x", $0) }.joined().utf8)
    }
}
