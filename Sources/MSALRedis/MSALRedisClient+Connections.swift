import Foundation

extension MSALRedisClient {
    /// Sends `commands` (pipelined) to `node`, or to the configured endpoint when `nil` (under Redis
    /// Sentinel, the primary: Sources/MSALRedis/Sentinel/SentinelPrimary.swift), on its
    /// connection (made, or made again when it failed or the server closed it while idle), before
    /// `deadline`. A failure means the connection failed: it is dropped (and, in cluster mode, the
    /// slot map is marked for a refresh) before the error is thrown.
    func send(_ commands: [RedisCommand], to node: ClusterSlotMap.Node?, deadline: Deadline) throws(MSALRedisError) -> [MSALRedisReply] {
        if let node { return try send(commands, on: .tcp(host: node.host, port: node.port), deadline: deadline) }
        if case .sentinel = configuration.endpoint { return try sendToPrimary(commands, deadline: deadline) } // SentinelPrimary.swift
        return try send(commands, on: configuration.endpoint, deadline: deadline)
    }

    /// Sends `commands` to `endpoint` as `send(_:to:deadline:)` does.
    func send(_ commands: [RedisCommand], on endpoint: MSALRedisConfiguration.Endpoint, deadline: Deadline) throws(MSALRedisError)
        -> [MSALRedisReply]
    {
        let key = Self.key(of: endpoint)
        let connection = self.connection(to: endpoint, key: key)
        do {
            return try connection.send(commands, deadline: deadline)
        } catch {
            lock.lock()
            defer { lock.unlock() }
            if connections[key] === connection { connections[key] = nil }
            if error.code != .serverError { slotMap?.isStale = true }
            throw error
        }
    }

    /// The connection to `endpoint`: the open one, or a new one (which connects when its first
    /// command needs it, outside the lock).
    private func connection(to endpoint: MSALRedisConfiguration.Endpoint, key: String) -> MultiplexedConnection {
        lock.lock()
        defer { lock.unlock() }
        if let open = connections[key] {
            guard open.isUnusable else { return open }
            open.close("The Redis server closed the connection")
        }
        let configuration = configuration
        let tlsContext = tlsContext
        let credentials = credentials
        let selectDatabase = slotMap == nil
        let made = MultiplexedConnection(credentials: credentials) { deadline throws(MSALRedisError) in
            try RedisConnection(
                endpoint: endpoint, configuration: configuration, tlsContext: tlsContext, credentials: credentials,
                selectDatabase: selectDatabase, operation: deadline)
        }
        connections[key] = made
        return made
    }

    /// Sends `AUTH` with the credentials just renewed on every open connection, each within
    /// `commandTimeout` (on the thread that renewed them).
    func renewCredentials() {
        lock.lock()
        let open = Array(connections.values)
        lock.unlock()
        for connection in open { connection.renewCredentials(deadline: Deadline(after: configuration.commandTimeout)) }
    }

    /// Reads the slot map again when a failure marked it stale; one caller does it while the others
    /// go on with the map they have (a `MOVED` corrects them).
    func refreshSlotMapIfStale(deadline: Deadline) {
        lock.lock()
        let any = slotMap?.isStale == true ? slotMap?.nodes.first : nil
        if any != nil { slotMap?.isStale = false }
        lock.unlock()
        guard let any else { return }
        do {
            try refreshSlotMap(from: any, deadline: deadline)
        } catch {
            lock.lock()
            slotMap?.isStale = true
            lock.unlock()
        }
    }

    /// Reads the slot map with `CLUSTER SLOTS` from `node` (the one that just redirected), else
    /// from any server known, before `deadline`.
    func refreshSlotMap(from node: ClusterSlotMap.Node, deadline: Deadline) throws(MSALRedisError) {
        lock.lock()
        var candidates: [ClusterSlotMap.Node?] = [node]
        candidates += slotMap?.nodes.filter { $0 != node } ?? []
        lock.unlock()
        candidates.append(nil)
        var failure = MSALRedisError(.cluster, "No Redis Cluster node answered CLUSTER SLOTS")
        for candidate in candidates {
            do {
                let reply = try send([RedisCommand("CLUSTER", "SLOTS")], to: candidate, deadline: deadline).last ?? .null
                let map = try ClusterSlotMap(reply: reply)
                lock.lock()
                slotMap = map
                lock.unlock()
                return
            } catch {
                failure = error
            }
        }
        throw failure
    }

    static func key(of endpoint: MSALRedisConfiguration.Endpoint) -> String {
        switch endpoint {
        case .tcp(let host, let port): return "\(host):\(port)"
        case .unix(let path): return "unix:\(path)"
        case .sentinel(let sentinel): return "sentinel:\(sentinel.primaryName)"
        }
    }
}
