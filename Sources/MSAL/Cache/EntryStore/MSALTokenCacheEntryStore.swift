import Foundation

/// Keeps the token cache as separate entries in partitions, for a cache that several machines share
/// (a Redis server: `MSALRedis`). Give one to `tokenCacheLocation = .entryStore(_:checkInterval:)`.
///
/// The SDK splits its cache document into partitions: one per client id and account (home account
/// id), holding that account's access, refresh and id tokens and its account record, and one per
/// client id for what belongs to no account (app metadata). Each entry is MSAL's JSON object for it,
/// as opaque bytes, under a key the SDK makes from its section and MSAL's cache key. A write names
/// one partition and only the entries that changed, so writers of different accounts never touch
/// each other's data and two writers of one account each keep the entries they wrote. The SDK keeps
/// the entries in memory and reads the store again only when a version says something changed
/// (docs/scale-out.md, docs/decisions.md#shared-token-cache).
///
/// What an implementation must guarantee:
///
/// - **Atomic writes per partition.** `write(_:)` sets and removes its entries of one partition all
///   at once: a reader sees all of them or none. Entries of the partition it does not name are left
///   as they are (merge by entry); a key written by two writers holds the later value.
/// - **Versions that change.** After `write(_:)` or `removePartition(_:)` returns, the partition's
///   version in `partitionVersions(clientId:)` and the client's `changeVersion(clientId:)` differ
///   from every value they had before the call began. Versions are compared for equality only;
///   they may be bumped after the data is written (a reader then reads again, which is harmless),
///   never before. `changeVersion` is read often (at most once per check interval and on every
///   miss) and must be cheap: one round trip, no scan.
/// - **Expiry.** An entry with `expiresOn` may disappear once that time has passed and never
///   before; an entry without one stays until it is removed. A store that can expire only whole
///   partitions keeps each partition until the latest expiry it was given (the SDK ignores expired
///   tokens, and removes them from a partition when it next writes it).
/// - **Refresh locks with a lease.** `tryLock` takes a partition's lock for `owner` unless another
///   owner holds it, and the lock lapses by itself after `lease` seconds (a worker that dies while
///   refreshing does not block the account); `unlock` releases it only when `owner` still holds it.
///   The SDK takes it around a refresh, so that machines sharing the store refresh one account one
///   at a time and never present a refresh token another machine has just replaced.
/// - **Errors.** Every requirement may throw; the error reaches the app as the cache's error
///   (`lastTokenCacheError`, `NSError` in its own domain, as a `MSALTokenCachePersistence`'s does).
///   The SDK never falls back to another store. Values are tokens: implementations never put a
///   value, or anything derived from one, in an error message, a description or a log.
///
/// Requirements are synchronous and may block for a round trip. The SDK makes the read of an
/// account for an `async` request (`getAccessToken`, `acquireTokenSilent`) on threads of its own,
/// never on the caller's; the calls of a refresh (lock, read, write), of a sign-in's or sign-out's
/// write, and of the synchronous methods (`nativeAuthUserAccount(forIdentifier:)`,
/// `account(forIdentifier:)`, `allAccounts()`) run on the thread that called the SDK
/// (docs/decisions.md#shared-token-cache). Calls may come from several threads at once, for one
/// application object too, and several application objects (processes, machines) may call one
/// store at once: a store must be safe to call concurrently.
public protocol MSALTokenCacheEntryStore: AnyObject, Sendable {
    /// What the store is, for logs and error messages (for example `Redis at redis.internal:6379`).
    /// Never a password or a value.
    var storeDescription: String { get }

    /// A value that changes with every write and removal in any partition of `clientId`; nil when
    /// the client has never written anything.
    func changeVersion(clientId: String) throws -> String?

    /// Every partition of `clientId` that holds entries, with its version.
    func partitionVersions(clientId: String) throws -> [MSALTokenCachePartition: String]

    /// The entries of `partition` by key (empty when it has none); entries past their expiry may be
    /// left out or included.
    func entries(in partition: MSALTokenCachePartition) throws -> [String: Data]

    /// The version of one partition, nil when it holds nothing: what the SDK asks before it serves
    /// an account whose copy it no longer trusts. The default reads `partitionVersions(clientId:)`,
    /// every partition's; a store that serves many accounts answers for the one (one round trip).
    func version(of partition: MSALTokenCachePartition) throws -> String?

    /// The version and the entries of one partition, read together: what the SDK asks the first
    /// time it serves an account. A version read before the entries is enough (a writer between
    /// the two makes the next check read again); the default asks `version(of:)`, then `entries(in:)`.
    /// A store that can answers both in one round trip.
    func read(_ partition: MSALTokenCachePartition) throws -> (version: String?, entries: [String: Data])

    /// Sets `write.set` and removes `write.remove` in `write.partition`, atomically, and bumps the
    /// versions.
    func write(_ write: MSALTokenCacheEntryWrite) throws

    /// Removes `partition` and every entry in it (sign-out), and bumps the versions.
    func removePartition(_ partition: MSALTokenCachePartition) throws

    /// Takes the refresh lock of `partition` for `owner` for `lease` seconds; false when another
    /// owner holds it.
    func tryLock(_ partition: MSALTokenCachePartition, owner: String, lease: TimeInterval) throws -> Bool

    /// Releases the lock of `partition` if `owner` still holds it.
    func unlock(_ partition: MSALTokenCachePartition, owner: String) throws

    /// Optional: calls `onChange` (on any thread, one call at a time) with the changes of the
    /// partitions of `clientId` that any writer makes, as the store learns them
    /// (`MSALTokenCacheChange`): while the store reports `.tracking`, the SDK trusts what it holds
    /// until the store names it, instead of asking the store after each check interval. Returns a
    /// function that stops the calls, or nil when the store cannot notify (the default).
    func observeChanges(clientId: String, _ onChange: @escaping @Sendable (MSALTokenCacheChange) -> Void) -> (@Sendable () -> Void)?

    /// Optional: runs `body`, the calls one cache operation of the SDK makes in one go (a look-up:
    /// a version, then the entries; a write: the reads before it and the writes; the list of
    /// accounts), so that a store with a timeout bounds them as a whole rather than each
    /// (`MSALRedisTokenCacheEntryStore`: one command timeout for all of them). The default runs `body`.
    func operation<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result
}

extension MSALTokenCacheEntryStore {
    /// `partitionVersions(clientId:)[partition]`.
    public func version(of partition: MSALTokenCachePartition) throws -> String? {
        try partitionVersions(clientId: partition.clientId)[partition]
    }

    /// `version(of:)`, then `entries(in:)` unless the version says the partition is empty.
    public func read(_ partition: MSALTokenCachePartition) throws -> (version: String?, entries: [String: Data]) {
        guard let version = try version(of: partition) else { return (nil, [:]) }
        return (version, try entries(in: partition))
    }

    /// Runs `body`: each call is bounded on its own.
    public func operation<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result { try body() }

    /// No notifications: other writers' changes are seen through the versions alone.
    public func observeChanges(clientId: String, _ onChange: @escaping @Sendable (MSALTokenCacheChange) -> Void) -> (@Sendable () -> Void)?
    {
        nil
    }
}

/// One partition of a client's token cache: one account's entries, or the client's own.
public struct MSALTokenCachePartition: Hashable, Sendable, CustomStringConvertible {
    /// The application (client) id, as configured.
    public var clientId: String
    /// The account's home account id, lower-cased; nil for the client's partition (app metadata).
    public var homeAccountId: String?

    /// A partition of `clientId`: an account's when `homeAccountId` is given (it is lower-cased),
    /// else the client's own.
    public init(clientId: String, homeAccountId: String?) {
        self.clientId = clientId
        self.homeAccountId = homeAccountId?.lowercased()
    }

    /// `<client id>` or `<client id>/<home account id>`: the home account id is personal data, so
    /// the SDK logs a partition only as personal data.
    public var description: String { homeAccountId.map { "\(clientId)/\($0)" } ?? clientId }
}

/// One entry to set: MSAL's JSON object for it, and when it may be dropped.
public struct MSALTokenCacheEntryValue: Sendable, Equatable {
    /// The entry's bytes (a JSON object; a secret inside).
    public var data: Data
    /// When the entry may disappear (an access token's expiry); nil to keep it until removed.
    public var expiresOn: Date?

    /// An entry of `data` that may disappear after `expiresOn`.
    public init(data: Data, expiresOn: Date?) {
        self.data = data
        self.expiresOn = expiresOn
    }
}

/// The changes of one partition that one `write(_:)` makes, all at once.
public struct MSALTokenCacheEntryWrite: Sendable, Equatable {
    /// The partition written.
    public var partition: MSALTokenCachePartition
    /// Entries to set, by key (a new value replaces the old one).
    public var set: [String: MSALTokenCacheEntryValue]
    /// Keys to remove; never one of `set`'s.
    public var remove: Set<String>

    /// A write of `set` and `remove` to `partition`.
    public init(partition: MSALTokenCachePartition, set: [String: MSALTokenCacheEntryValue], remove: Set<String>) {
        self.partition = partition
        self.set = set
        self.remove = remove
    }
}
