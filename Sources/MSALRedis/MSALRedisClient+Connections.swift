import Foundation

extension MSALRedisClient {
    /// Sends `commands` (pipelined) to `node`, or to the configured endpoint when `nil`, on its
    /// connection (made, or made again when the server closed it while idle), before `deadline`.
    /// Any failure drops the connection (and, in cluster mode, marks the slot map for a refresh)
    /// before it is thrown.
    func send(_ commands: [[Data]], to node: ClusterSlotMap.Node?, deadline: Deadline) throws(MSALRedisError) -> [MSALRedisReply] {
        let endpoint = node.map { MSALRedisConfiguration.Endpoint.tcp(host: $0.host, port: $0.port) } ?? configuration.endpoint
        let key = Self.key(of: endpoint)
        do {
            return try connection(to: endpoint, key: key, deadline: deadline).pipeline(commands, deadline: deadline)
        } catch {
            connections.removeValue(forKey: key)?.close()
            if error.code != .serverError { slotMap?.isStale = true }
            throw error
        }
    }

    private func connection(to endpoint: MSALRedisConfiguration.Endpoint, key: String, deadline: Deadline) throws(MSALRedisError)
        -> RedisConnection
    {
        if let open = connections[key] {
            guard open.isStale else { return open }
            open.close()
            connections[key] = nil
        }
        let made = try RedisConnection(
            endpoint: endpoint, configuration: configuration, tlsContext: tlsContext, selectDatabase: slotMap == nil, operation: deadline)
        connections[key] = made
        return made
    }

    /// Reads the slot map with `CLUSTER SLOTS` from `node` (the one that just redirected), else
    /// from any server known, before `deadline`.
    func refreshSlotMap(from node: ClusterSlotMap.Node, deadline: Deadline) throws(MSALRedisError) {
        var candidates: [ClusterSlotMap.Node?] = [node]
        candidates += slotMap?.nodes.filter { $0 != node } ?? []
        candidates.append(nil)
        var failure = MSALRedisError(.cluster, "No Redis Cluster node answered CLUSTER SLOTS")
        for candidate in candidates {
            do {
                let reply = try send([[Data("CLUSTER".utf8), Data("SLOTS".utf8)]], to: candidate, deadline: deadline).last ?? .null
                slotMap = try ClusterSlotMap(reply: reply)
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
        }
    }
}
