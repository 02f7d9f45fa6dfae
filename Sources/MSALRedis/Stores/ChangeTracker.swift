import Foundation
import MSAL

/// Follows the changes of one client's token cache on Redis and reports them
/// (`MSALTokenCacheChange`), with server-assisted client-side caching: `CLIENT TRACKING` in
/// broadcast mode for the client's key prefixes, its invalidation messages sent to the tracking
/// connection itself, subscribed to `__redis__:invalidate` (RESP2; Redis 6 or later).
/// docs/redis.md#changes-pushed-by-redis says what it costs and what it needs.
///
/// One thread and one connection, for as long as someone observes. Every write, removal or
/// expiry of a partition's keys, by any machine (this one included), is reported as `.changed`;
/// a flush as `.changedAll`. The connection is checked with a `PING` after `heartbeat` of silence;
/// when it fails, or the answer is late, the tracker reports `.stopped` at once, then connects again
/// (waiting longer after each failure, up to 30 s) and reports `.tracking` when it is back. A
/// cluster is not tracked (each node would need its own connection): the tracker then reports
/// nothing and the SDK checks versions after its interval. Under Redis Sentinel it connects to the
/// primary the sentinels name, asked again at each connection (a failover closes the old primary's
/// connections: Sources/MSALRedis/Sentinel/SentinelPrimary.swift).
final class ChangeTracker: @unchecked Sendable {
    typealias Observer = @Sendable (MSALTokenCacheChange) -> Void

    private let configuration: MSALRedisConfiguration
    private let tlsContext: TLSContext?
    private let credentials: CredentialKeeper
    /// The client's keys: the prefix tracked, and the partition each changed key belongs to.
    private let keys: TokenCacheKeys
    private let heartbeat: TimeInterval
    private let state = Locked(State())

    private struct State {
        var observers: [UUID: Observer] = [:]
        var stopped = false
        /// The connection the thread reads, while it has one (interrupted to stop).
        var connection: RedisConnection?
        var tracking = false
    }

    init(
        configuration: MSALRedisConfiguration, tlsContext: TLSContext?, credentials: CredentialKeeper, keys: TokenCacheKeys,
        heartbeat: TimeInterval
    ) {
        self.configuration = configuration
        self.tlsContext = tlsContext
        self.credentials = credentials
        self.keys = keys
        self.heartbeat = heartbeat
    }

    /// Starts the thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "MSALRedis change tracker"
        thread.start()
    }

    /// Adds `observer`; it is told `.tracking` at once when the tracker is tracking.
    func add(_ observer: @escaping Observer) -> UUID {
        let id = UUID()
        let tracking = state.withLock { state in
            state.observers[id] = observer
            return state.tracking
        }
        if tracking { observer(.tracking) }
        return id
    }

    /// Removes an observer; stops the tracker when it was the last. Returns whether it stopped.
    func remove(_ id: UUID) -> Bool {
        state.withLock { state in
            state.observers[id] = nil
            guard state.observers.isEmpty else { return false }
            state.stopped = true
            state.connection?.interrupt()
            return true
        }
    }

    private func report(_ changes: [MSALTokenCacheChange]) {
        guard !changes.isEmpty else { return }
        let observers = state.withLock { Array($0.observers.values) }
        for observer in observers { for change in changes { observer(change) } }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func run() {
        var failures = 0
        while !isStopped {
            do {
                try track()
            } catch {
                // A cluster, or a failure: reported below; tried again after a while.
                _ = error
            }
            let wasTracking = state.withLock { state in
                defer { (state.connection, state.tracking) = (nil, false) }
                state.connection?.close()
                return state.tracking
            }
            if wasTracking {
                report([.stopped])
                failures = 0
            }
            failures += 1
            let wait = min(30, 0.05 * pow(2, Double(min(failures, 10))))
            var slept = 0.0
            while slept < wait && !isStopped {
                usleep(20_000)
                slept += 0.02
            }
        }
    }

    /// Connects, turns tracking on and reports what Redis sends until the connection fails.
    private func track() throws(MSALRedisError) {
        let setup = Deadline(after: configuration.connectTimeout + configuration.commandTimeout)
        // Under Redis Sentinel, the primary named now: each reconnection asks again (SentinelPrimary.swift).
        let endpoint = try SentinelPrimary.endpoint(of: configuration, tlsContext: tlsContext, credentials: credentials, deadline: setup)
        let connection = try RedisConnection(
            endpoint: endpoint, configuration: configuration, tlsContext: tlsContext, credentials: credentials,
            selectDatabase: true, operation: setup)
        let registered = state.withLock { state in
            guard !state.stopped else { return false }
            state.connection = connection
            return true
        }
        guard registered else {
            connection.close()
            return
        }
        let replies = try connection.pipeline([RedisCommand("INFO", "cluster"), RedisCommand("CLIENT", "ID")], deadline: setup)
        if replies[0].string?.contains("cluster_enabled:1") == true {
            // Invalidations come from the node that holds the key: one connection would miss the others'.
            state.withLock { $0.stopped = true }
            return
        }
        guard let id = replies[1].integer else { throw MSALRedisError.fromServer(replies[1].errorText ?? "ERR no client id") }
        let tracking = RedisCommand("CLIENT", "TRACKING", "ON", "REDIRECT", Int(id), "BCAST", "PREFIX", keys.partitionPrefix)
        for reply in try connection.pipeline([tracking], deadline: setup) {
            if let text = reply.errorText { throw MSALRedisError.fromServer(text) }
        }
        try connection.write(RESPEncoder.encode(RedisCommand("SUBSCRIBE", "__redis__:invalidate")), deadline: setup)
        let subscribed = try connection.next(deadline: setup)
        if let text = subscribed.errorText { throw MSALRedisError.fromServer(text) }
        state.withLock { $0.tracking = true }
        report([.tracking])
        var pinged = false
        // A subscribed connection cannot send AUTH (RESP2): renewed credentials mean a new connection.
        while !isStopped && credentials.generation == connection.credentialGeneration {
            let reply: MSALRedisReply
            do {
                reply = try connection.next(deadline: Deadline(after: pinged ? configuration.commandTimeout : heartbeat))
            } catch let error where error.code == .timeout && !pinged {
                try connection.write(RESPEncoder.encode(RedisCommand("PING")), deadline: Deadline(after: configuration.commandTimeout))
                pinged = true
                continue
            }
            pinged = false
            report(changes(in: reply))
        }
    }

    /// The changes an invalidation message names: each partition once; a flush (no keys) is
    /// `.changedAll`. Other messages (the answer to a `PING`) name none.
    func changes(in message: MSALRedisReply) -> [MSALTokenCacheChange] {
        guard let parts = message.array, parts.count == 3, parts[0].string == "message" else { return [] }
        guard let changed = parts[2].array else { return [.changedAll] }
        var partitions: [MSALTokenCachePartition] = []
        for key in changed {
            guard let key = key.string else { return [.changedAll] }
            switch keys.partition(of: key) {
            case .some(.some(let partition)): if !partitions.contains(partition) { partitions.append(partition) }
            case .some(.none): continue
            case .none: return [.changedAll]
            }
        }
        return partitions.map { .changed($0) }
    }
}

extension MSALRedisReply {
    /// The text of an error reply.
    var errorText: String? {
        if case .error(let text) = self { return text }
        return nil
    }
}
