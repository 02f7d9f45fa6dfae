import Foundation

/// A synchronous, thread-safe Redis client: RESP2 over TCP, unix sockets or TLS, with `AUTH`,
/// `SELECT`, one deadline per operation (connecting included), reconnection, and Redis Cluster
/// routing (`MOVED` and `ASK` followed).
///
/// ```swift
/// let client = try MSALRedisClient(configuration: MSALRedisConfiguration(url: "redis://127.0.0.1:6379"))
/// try client.ping()  // fail at the start, not at the first user
/// let store = try MSALRedisTokenCacheEntryStore(client: client)
/// ```
///
/// The stores (`MSALRedisTokenCacheEntryStore`, `MSALRedisSignInStore`) are what an app gives
/// the client to; they send their commands through it (`RedisCommand`, each naming the key a
/// cluster routes it by).
///
/// One multiplexed connection per server (docs/decisions.md, "Redis connections"): the commands of
/// every thread that uses the client are in flight on it together, and each thread gets its own
/// replies, so a command waits for one round trip, not for the commands before it
/// (`MultiplexedConnection`). The client's lock guards only the map of connections and the slot
/// map, never I/O. A connection that fails, or on which a command times out, is closed and every
/// command still waiting on it fails; the next command opens a new one, so the client recovers by
/// itself when the server comes back.
///
/// Each command is an operation that finishes or fails within `commandTimeout`, connecting (when
/// needed) and waiting for its replies included; `operation(_:)` makes several commands one
/// operation, under one deadline.
public final class MSALRedisClient: @unchecked Sendable {
    /// The configuration the client was made with.
    public let configuration: MSALRedisConfiguration
    let tlsContext: TLSContext?
    /// The credentials connections present, renewed before they expire.
    let credentials: CredentialKeeper
    /// Guards `connections`, `slotMap` and `sentinelPrimary`; never held during I/O.
    let lock = NSLock()
    /// Open connections by server ("host:port", or the configured endpoint's key).
    var connections: [String: MultiplexedConnection] = [:]
    /// Which server serves each slot, once a server answered `MOVED` (the client is then in cluster mode).
    var slotMap: ClusterSlotMap?
    /// Under Redis Sentinel: the sentinels and the primary they named (Sources/MSALRedis/Sentinel/SentinelPrimary.swift).
    var sentinelPrimary: SentinelPrimary?
    /// Where the deadline of the operation running on a thread is kept, in that thread's dictionary.
    private let deadlineKey: String

    /// A client for `configuration`. Nothing is connected yet; throws `.invalidConfiguration`
    /// when the CA file (or the system's store) cannot be loaded, or the client certificate and
    /// key cannot be used (unreadable, an encrypted key, a key that does not match, no TLS).
    public init(configuration: MSALRedisConfiguration) throws(MSALRedisError) {
        self.configuration = configuration
        deadlineKey = "MSALRedisClient.deadline.\(UUID().uuidString)"
        sentinelPrimary = SentinelPrimary(configuration.endpoint)
        if configuration.keyFile != nil && configuration.certificateFile == nil {
            throw MSALRedisError(.invalidConfiguration, "A client key file is set without a client certificate file")
        }
        if configuration.certificateFile != nil && !configuration.useTLS {
            throw MSALRedisError(.invalidConfiguration, "A client certificate needs TLS (rediss://)")
        }
        tlsContext =
            configuration.useTLS
            ? try TLSContext(caFile: configuration.caFile, certificateFile: configuration.certificateFile, keyFile: configuration.keyFile)
            : nil
        credentials = CredentialKeeper(configuration: configuration)
        if case .unix = configuration.endpoint, configuration.useTLS {
            throw MSALRedisError(.invalidConfiguration, "TLS over a unix socket is not supported")
        }
        credentials.onRenewed = { [weak self] _ in self?.renewCredentials() }
        credentials.prefetch()
    }

    /// Waits until the credential source has answered, for at most `timeout` seconds, and throws
    /// its failure: for a program's start, whose first command would otherwise have only
    /// `commandTimeout` for a source that may take longer (a password command has 30 s).
    package func awaitCredentials(timeout: TimeInterval) throws(MSALRedisError) {
        _ = try credentials.credentials(deadline: Deadline(after: timeout))
    }

    deinit {
        for connection in connections.values { connection.close("The Redis client was released") }
    }

    /// Runs `body` as one operation: every command it sends through this client, and every
    /// connection made for them, share one deadline, `commandTimeout` from now, so that the whole
    /// finishes or fails (`.timeout`) within it (docs/redis.md#connections). An operation inside
    /// another on the same thread is part of the outer one.
    ///
    /// ```swift
    /// // given: client: MSALRedisClient
    /// let replies = try client.operation { () throws(MSALRedisError) -> [MSALRedisReply] in
    ///     [try client.command("GET", key: "first"), try client.command("GET", key: "second")]
    /// }
    /// ```
    package func operation<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let dictionary = Thread.current.threadDictionary
        guard dictionary[deadlineKey] == nil else { return try body() }
        dictionary[deadlineKey] = NSNumber(value: Deadline(after: configuration.commandTimeout).nanoseconds)
        defer { dictionary[deadlineKey] = nil }
        return try body()
    }

    /// The deadline of the operation running on this thread, or of a new one.
    private var deadline: Deadline {
        if let running = Thread.current.threadDictionary[deadlineKey] as? NSNumber { return Deadline(nanoseconds: running.uint64Value) }
        return Deadline(after: configuration.commandTimeout)
    }

    /// Asks the server for `PONG` (a connection is made first when none is open, `AUTH` and
    /// `SELECT` included): for a program's start, to fail there rather than at its first user,
    /// and for a health check. Throws as any command does: `.connectionFailed`, `.timeout`,
    /// `.authentication`…
    public func ping() throws(MSALRedisError) {
        let reply = try run(RedisCommand("PING"))
        guard reply == .simple("PONG") else {
            throw MSALRedisError(.protocolViolation, "Redis answered PING with something else than PONG")
        }
    }

    /// Runs `command` on the server that holds its key and returns its reply; an error reply is
    /// thrown as `.serverError` (or `.authentication`, `.cluster`).
    @discardableResult
    package func run(_ command: RedisCommand) throws(MSALRedisError) -> MSALRedisReply {
        let reply = try routed(command, deadline: deadline)
        if case .error(let text) = reply { throw MSALRedisError.fromServer(text) }
        return reply
    }

    /// Runs a command on no key: `command("PING")`, `command("CONFIG", "SET", "maxmemory", "0")`.
    @discardableResult
    package func command(_ name: String, _ arguments: any RedisWord...) throws(MSALRedisError) -> MSALRedisReply {
        try run(RedisCommand(name, arguments: arguments))
    }

    /// Runs a command on `key`: `command("GET", key: "greeting")`.
    @discardableResult
    package func command(_ name: String, key: any RedisWord, _ arguments: any RedisWord...) throws(MSALRedisError) -> MSALRedisReply {
        try run(RedisCommand(name, key: key, arguments: arguments))
    }

    /// Runs several commands with one round trip to each server they go to (pipelined) and returns
    /// their replies in order. An error reply is returned in its place as `.error`, not thrown; a
    /// command that the cluster redirects (`MOVED`, `ASK`, `TRYAGAIN`) is sent again on its own,
    /// as `run` sends it.
    package func pipeline(_ commands: [RedisCommand]) throws(MSALRedisError) -> [MSALRedisReply] {
        let deadline = self.deadline
        refreshSlotMapIfStale(deadline: deadline)
        var groups: [ClusterSlotMap.Node?: [Int]] = [:]
        lock.lock()
        for (index, command) in commands.enumerated() { groups[node(for: command), default: []].append(index) }
        lock.unlock()
        var replies = [MSALRedisReply](repeating: .null, count: commands.count)
        for (node, indices) in groups {
            for (index, reply) in zip(indices, try send(indices.map { commands[$0] }, to: node, deadline: deadline)) {
                if Self.isRedirection(reply) {
                    replies[index] = try routed(commands[index], deadline: deadline)
                } else {
                    replies[index] = reply
                }
            }
        }
        return replies
    }

    /// Closes every connection (commands in flight on them fail with `.connectionFailed`); the
    /// next command opens one again.
    public func disconnect() {
        lock.lock()
        defer { lock.unlock() }
        for connection in connections.values { connection.close("The Redis client was disconnected") }
        connections = [:]
    }

    /// Sends the command to the server that serves its key, following `MOVED` (and refreshing the
    /// slot map) and `ASK` (`ASKING`, then the command, once there), at most five redirections;
    /// `TRYAGAIN` (a slot being migrated) is retried after a short wait until `deadline`.
    private func routed(_ command: RedisCommand, deadline: Deadline) throws(MSALRedisError) -> MSALRedisReply {
        refreshSlotMapIfStale(deadline: deadline)
        lock.lock()
        var target = node(for: command)
        lock.unlock()
        var asking = false
        var redirections = 0
        while true {
            let commands = asking ? [RedisCommand("ASKING"), command] : [command]
            let reply = try send(commands, to: target, deadline: deadline).last ?? .null
            guard case .error(let text) = reply else { return reply }
            let word = text.prefix { $0 != " " }
            guard Self.isRedirection(reply) else { return .error(text) }
            if word == "TRYAGAIN" {
                guard deadline.remainingMilliseconds > 0 else { return .error(text) }
                usleep(20_000)
                continue
            }
            redirections += 1
            guard redirections <= 5, let node = ClusterSlotMap.redirection(text) else {
                throw MSALRedisError(.cluster, "Redis Cluster redirected the command too often", serverCode: String(word))
            }
            asking = word == "ASK"
            target = node
            if word == "MOVED" { try refreshSlotMap(from: node, deadline: deadline) }
        }
    }

    /// The node that serves `command`'s key in cluster mode (`nil`: the configured endpoint); the
    /// lock is held.
    private func node(for command: RedisCommand) -> ClusterSlotMap.Node? {
        command.key.flatMap { key in slotMap?.node(for: ClusterSlotMap.slot(of: key)) }
    }

    /// Whether `reply` sends the command elsewhere or asks for it again: `MOVED`, `ASK`, `TRYAGAIN`.
    private static func isRedirection(_ reply: MSALRedisReply) -> Bool {
        guard case .error(let text) = reply else { return false }
        return ["MOVED", "ASK", "TRYAGAIN"].contains(text.prefix { $0 != " " })
    }
}
