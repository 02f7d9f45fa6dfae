import Foundation

/// The primary that Redis Sentinel names for a client configured with `.sentinel`
/// (Sources/MSALRedis/Sentinel/MSALRedisConfiguration+Sentinel.swift), and the order to ask the sentinels in.
/// Kept in the client and guarded by its lock; resolving (I/O) happens outside it.
///
/// Resolving: the sentinels are asked in turn `SENTINEL get-master-addr-by-name <name>`, each on a
/// short-lived connection (without `AUTH`: the configured credentials are the data servers'); the
/// address named is connected to (with `AUTH`) and must answer `ROLE` as `master`, since a
/// sentinel's answer can be stale or wrong; the sentinel whose answer passed is asked first from
/// then on (as redis-py does). While some sentinel answers but no primary passes (a failover under
/// way), the sentinels are asked again until the operation's deadline.
///
/// Forgetting: a connection failure or a timeout on the primary (connecting or waiting for a reply:
/// a primary that stopped answering may have been replaced), or a `READONLY` reply (it was demoted
/// to a replica), forgets it and drops its connection; the next command resolves again. A
/// command answered `READONLY` was not executed, so it is sent once more to the primary resolved
/// anew, within the same deadline. A failure forgets the primary only when it is still the one
/// that failed, so a late failure of the old primary does not undo a newer resolution.
struct SentinelPrimary {
    typealias Address = MSALRedisConfiguration.Sentinel.Address

    /// The sentinels in the order to ask them.
    var sentinels: [Address]
    let name: String
    /// The primary, once resolved and until a failure forgets it.
    var primary: Address?

    init?(_ endpoint: MSALRedisConfiguration.Endpoint) {
        guard case .sentinel(let sentinel) = endpoint else { return nil }
        sentinels = sentinel.sentinels
        name = sentinel.primaryName
    }

    /// The endpoint to connect to for `configuration`: its own, or under Sentinel the primary
    /// resolved now (for the change tracker, which keeps no state between its connections).
    static func endpoint(
        of configuration: MSALRedisConfiguration, tlsContext: TLSContext?, credentials: CredentialKeeper, deadline: Deadline
    ) throws(MSALRedisError) -> MSALRedisConfiguration.Endpoint {
        guard let sentinel = SentinelPrimary(configuration.endpoint) else { return configuration.endpoint }
        let primary = try sentinel.resolve(
            configuration: configuration, tlsContext: tlsContext, credentials: credentials, deadline: deadline
        ).primary
        return .tcp(host: primary.host, port: primary.port)
    }

    /// Asks the sentinels for the primary and checks it (above) before `deadline`; returns it and
    /// the sentinel that named it. Throws the last failure when none passes (a timeout only when
    /// nothing else failed).
    func resolve(
        configuration: MSALRedisConfiguration, tlsContext: TLSContext?, credentials: CredentialKeeper, deadline: Deadline
    ) throws(MSALRedisError) -> (primary: Address, sentinel: Address) {
        var failure: MSALRedisError?
        while true {
            var answered = false
            for (index, sentinel) in sentinels.enumerated() {
                // A share of the time left, so that a sentinel that does not answer leaves time for the next.
                let share = Deadline(after: deadline.remainingSeconds / Double(sentinels.count - index)).earlier(deadline)
                do {
                    let named = try ask(sentinel, configuration: configuration, tlsContext: tlsContext, deadline: share)
                    answered = true
                    try check(
                        named, named: sentinel, configuration: configuration, tlsContext: tlsContext, credentials: credentials,
                        deadline: share)
                    return (named, sentinel)
                } catch {
                    // A timeout at the end of the time left says less than the failure before it.
                    if error.code != .timeout || failure == nil { failure = error }
                }
            }
            guard answered, deadline.remainingSeconds > 0.05 else {
                throw failure ?? MSALRedisError(.connectionFailed, "No Redis Sentinel was asked for the primary '\(name)'")
            }
            usleep(50_000)
        }
    }

    /// The address `sentinel` gives for the primary.
    private func ask(
        _ sentinel: Address, configuration: MSALRedisConfiguration, tlsContext: TLSContext?, deadline: Deadline
    ) throws(MSALRedisError) -> Address {
        var plain = configuration
        (plain.username, plain.password, plain.credentialSource) = (nil, nil, nil)
        let place = "\(sentinel.host):\(sentinel.port)"
        let connection = try RedisConnection(
            endpoint: .tcp(host: sentinel.host, port: sentinel.port), configuration: plain, tlsContext: tlsContext,
            credentials: CredentialKeeper(configuration: plain), selectDatabase: false,
            operation: deadline)
        defer { connection.close() }
        let reply = try connection.pipeline([RedisCommand("SENTINEL", "get-master-addr-by-name", name)], deadline: deadline)[0]
        if let text = reply.errorText {
            let error = MSALRedisError.fromServer(text)
            throw MSALRedisError(
                .serverError, "Redis Sentinel at \(place) refused to name a primary: \(error.message)", serverCode: error.serverCode)
        }
        guard let fields = reply.array else {
            throw MSALRedisError(.connectionFailed, "Redis Sentinel at \(place) knows no primary named '\(name)'")
        }
        guard fields.count == 2, let host = fields[0].string, let port = fields[1].string.flatMap({ Int($0) }), !host.isEmpty else {
            throw MSALRedisError(.protocolViolation, "Redis Sentinel at \(place) named the primary in a malformed reply")
        }
        return Address(host: host, port: port)
    }

    /// Connects to `primary` as the client does (`AUTH` included) and asks `ROLE`: throws unless it
    /// answers `master`.
    private func check(
        _ primary: Address, named sentinel: Address, configuration: MSALRedisConfiguration, tlsContext: TLSContext?,
        credentials: CredentialKeeper, deadline: Deadline
    ) throws(MSALRedisError) {
        let connection = try RedisConnection(
            endpoint: .tcp(host: primary.host, port: primary.port), configuration: configuration, tlsContext: tlsContext,
            credentials: credentials, selectDatabase: false, operation: deadline)
        defer { connection.close() }
        let role = try connection.pipeline([RedisCommand("ROLE")], deadline: deadline)[0]
        guard let what = role.array?.first?.string, what == "master" else {
            let answer = role.array?.first?.string ?? role.errorText.map { MSALRedisError.fromServer($0).message } ?? "no role"
            throw MSALRedisError(
                .connectionFailed,
                "Redis Sentinel at \(sentinel.host):\(sentinel.port) named \(primary.host):\(primary.port) the primary '\(name)', "
                    + "but it answers ROLE: \(answer)")
        }
    }
}

extension MSALRedisClient {
    /// Sends `commands` to the primary Redis Sentinel names (resolved when none is known), forgets
    /// it after a failure, and after a `READONLY` reply sends the commands once more to the primary
    /// resolved anew (`SentinelPrimary`), all before `deadline`.
    func sendToPrimary(_ commands: [RedisCommand], deadline: Deadline) throws(MSALRedisError) -> [MSALRedisReply] {
        var resent = false
        while true {
            let primary = try resolvedPrimary(deadline: deadline)
            let replies: [MSALRedisReply]
            do {
                replies = try send(commands, on: .tcp(host: primary.host, port: primary.port), deadline: deadline)
            } catch {
                if error.code != .serverError { forget(primary) }
                throw error
            }
            guard replies.contains(where: { $0.errorText?.hasPrefix("READONLY") == true }) else { return replies }
            // Demoted to a replica: no command of these ran there (a replica refuses every write).
            forget(primary)
            guard !resent else { return replies }
            resent = true
        }
    }

    /// The primary known, or one resolved now (outside the lock).
    private func resolvedPrimary(deadline: Deadline) throws(MSALRedisError) -> SentinelPrimary.Address {
        lock.lock()
        let known = sentinelPrimary
        lock.unlock()
        guard let known else { throw MSALRedisError(.invalidConfiguration, "The Redis client is not configured for Sentinel") }
        if let primary = known.primary { return primary }
        let found = try known.resolve(configuration: configuration, tlsContext: tlsContext, credentials: credentials, deadline: deadline)
        lock.lock()
        defer { lock.unlock() }
        sentinelPrimary?.primary = found.primary
        if let index = sentinelPrimary?.sentinels.firstIndex(of: found.sentinel), index > 0 {
            sentinelPrimary?.sentinels.remove(at: index)
            sentinelPrimary?.sentinels.insert(found.sentinel, at: 0)
        }
        return found.primary
    }

    /// Forgets `primary` when it is still the one known, and drops its connection.
    private func forget(_ primary: SentinelPrimary.Address) {
        lock.lock()
        defer { lock.unlock() }
        if sentinelPrimary?.primary == primary { sentinelPrimary?.primary = nil }
        // Not closed: commands in flight on it get their own replies (a READONLY is sent again by its sender).
        connections[Self.key(of: .tcp(host: primary.host, port: primary.port))] = nil
    }
}
