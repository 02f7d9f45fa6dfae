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
/// (`TokenCacheKeys`, docs/redis.md#the-token-cache). A write is one script on that slot: it
/// merges by entry, drops expired entries, and makes the keys live as long as the latest expiry.
/// The client's own keys (the change version and the index of partitions) share another tag and
/// are written after the data.
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
                    configuration: client.configuration, tlsContext: client.tlsContext, credentials: client.credentials,
                    keys: keys(clientId), heartbeat: Self.heartbeat)
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
        try client.command("GET", key: keys(clientId).changed).string
    }

    /// The members of the client's partition set, each with its version key's value (partitions
    /// whose version has expired or was removed are left out): the versions are read in one
    /// pipeline, one round trip per server however many accounts there are.
    public func partitionVersions(clientId: String) throws -> [MSALTokenCachePartition: String] {
        try client.operation { () throws(MSALRedisError) in try versions(clientId: clientId) }
    }

    private func versions(clientId: String) throws(MSALRedisError) -> [MSALTokenCachePartition: String] {
        let keys = keys(clientId)
        let members = try client.command("SMEMBERS", key: keys.partitions).array ?? []
        let partitions = members.compactMap(\.string).compactMap(keys.partition(member:))
        let replies = try client.pipeline(partitions.map { RedisCommand("GET", key: keys.of($0).version) })
        var versions: [MSALTokenCachePartition: String] = [:]
        for (partition, reply) in zip(partitions, replies) {
            if case .error(let text) = reply { throw MSALRedisError.fromServer(text) }
            if let version = reply.string { versions[partition] = version }
        }
        return versions
    }

    /// `HGETALL` of the partition's entries, each opened (`.invalidValue` for one this store did not write).
    public func entries(in partition: MSALTokenCachePartition) throws -> [String: Data] {
        let entriesKey = keys(partition).entries
        return try opened(try client.command("HGETALL", key: entriesKey), entriesKey)
    }

    /// `GET` of the partition's version key.
    public func version(of partition: MSALTokenCachePartition) throws -> String? {
        try client.command("GET", key: keys(partition).version).string
    }

    /// The version and the entries in one round trip: `GET` of the version and `HGETALL` of the
    /// entries, pipelined (one slot: one server).
    public func read(_ partition: MSALTokenCachePartition) throws -> (version: String?, entries: [String: Data]) {
        let keys = keys(partition)
        let replies = try client.pipeline([RedisCommand("GET", key: keys.version), RedisCommand("HGETALL", key: keys.entries)])
        for reply in replies { if case .error(let text) = reply { throw MSALRedisError.fromServer(text) } }
        guard let version = replies[0].string else { return (nil, [:]) }
        return (version, try opened(replies[1], keys.entries))
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
        let keys = keys(write.partition)
        var arguments: [any RedisWord] = [try Self.newVersion(), write.set.count]
        for (field, value) in write.set {
            let expiry = value.expiresOn.map { String(Int64(($0.timeIntervalSince1970 * 1000).rounded(.up))) } ?? ""
            arguments += [field, try seal.seal(value.data, storedAs: keys.entries + Data(field.utf8)), expiry]
        }
        arguments += write.remove.map { $0 as any RedisWord }
        let script = RedisCommand.eval(TokenCacheScripts.write, keys: [keys.entries, keys.expiries, keys.version], arguments: arguments)
        let kept = try client.run(script).integer ?? 0
        try index(write.partition, kept == 1 ? "add" : "remove")
    }

    /// Deletes the partition's keys, then updates the client's index and change version.
    public func removePartition(_ partition: MSALTokenCachePartition) throws {
        try client.operation { () throws(MSALRedisError) in
            let keys = keys(partition)
            try client.command("DEL", key: keys.entries, keys.expiries, keys.version)
            try index(partition, "remove")
        }
    }

    /// `SET <lock> owner NX PX <lease in ms>`.
    public func tryLock(_ partition: MSALTokenCachePartition, owner: String, lease: TimeInterval) throws -> Bool {
        let milliseconds = String(max(1, Int64((lease * 1000).rounded(.up))))
        let reply = try client.command("SET", key: keys(partition).lock, owner, "NX", "PX", milliseconds)
        return reply == .simple("OK")
    }

    /// Deletes the lock in a script only while `owner` holds it.
    public func unlock(_ partition: MSALTokenCachePartition, owner: String) throws {
        try client.run(RedisCommand.eval(TokenCacheScripts.unlock, keys: [keys(partition).lock], arguments: [owner]))
    }

    /// Records that `partition` holds entries (or no longer does) and bumps the client's change
    /// version, after the data. The index lives in another slot than the data, so a removal looks
    /// at the data again once its member is gone: a write by another machine that landed between
    /// this removal's data and its index (its own "add" already done) would otherwise leave an
    /// account with entries that no machine lists. A write that lands after that look adds itself.
    func index(_ partition: MSALTokenCachePartition, _ change: String) throws(MSALRedisError) {
        let clientKeys = keys(partition.clientId)
        try client.run(
            RedisCommand.eval(
                TokenCacheScripts.index, keys: [clientKeys.partitions, clientKeys.changed],
                arguments: [TokenCacheKeys.member(partition), change, try Self.newVersion()]))
        if change == "remove", try client.command("EXISTS", key: keys(partition).version).integer == 1 {
            try index(partition, "add")
        }
    }

    /// The keys of `clientId`'s token cache under the client's key prefix.
    func keys(_ clientId: String) -> TokenCacheKeys { TokenCacheKeys(keyPrefix: client.configuration.keyPrefix, clientId: clientId) }

    /// The keys of `partition`.
    func keys(_ partition: MSALTokenCachePartition) -> TokenCacheKeys.Partition { keys(partition.clientId).of(partition) }

    /// A version no earlier write has had: 128 random bits.
    private static func newVersion() throws(MSALRedisError) -> String { try RandomBytes.hex(16, for: "a version") }
}
