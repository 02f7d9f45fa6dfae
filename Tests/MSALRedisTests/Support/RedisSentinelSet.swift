import Foundation
import MSALRedis
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Redis Sentinel on loopback: a primary, one replica (`replicaof`) and three sentinels
/// (`redis-server <conf> --sentinel`) monitoring them as `name` with a quorum of 2, a second of
/// silence before a server is down and short failover timeouts; each in a temporary directory of
/// its own, stopped together (Tests/TestSupport/RedisServer.swift stops each on deinit).
final class RedisSentinelSet: @unchecked Sendable {
    let name = "mymaster"
    /// The servers as started: `servers[0]` the primary, `servers[1]` its replica (a failover swaps the roles).
    let servers: [RedisServer]
    let sentinels: [RedisServer]

    /// With `tls`: TLS only, for clients, replication and the sentinels' own connections alike.
    let tls: TLSFiles?

    init(tls: TLSFiles? = nil) throws {
        self.tls = tls
        let replication = tls == nil ? [] : ["tls-replication yes"]
        let primary = try RedisServer(RedisServer.Options(tls: tls, lines: replication))
        let replica = try RedisServer(RedisServer.Options(tls: tls, replicaOf: primary.port, lines: replication))
        servers = [primary, replica]
        let monitor =
            [
                "sentinel monitor \(name) 127.0.0.1 \(primary.port) 2", "sentinel down-after-milliseconds \(name) 1000",
                "sentinel failover-timeout \(name) 3000",
            ] + replication
        sentinels = try (0..<3).map { _ in try RedisServer(RedisServer.Options(tls: tls, sentinel: true, lines: monitor)) }
        try wait("the replica in sync with the primary", seconds: 30) {
            (try? Self.direct(replica).command("INFO", "replication").string)?.contains("master_link_status:up") == true
        }
        // Each sentinel knows the primary, the replica, and the other sentinels (a quorum needs them).
        try wait("every sentinel to know the primary, the replica and the other sentinels", seconds: 60) {
            sentinels.allSatisfy { sentinel in
                guard let client = try? Self.direct(sentinel),
                    let master = try? client.command("SENTINEL", "get-master-addr-by-name", name).array,
                    master.last?.string == "\(primary.port)",
                    let replicas = try? client.command("SENTINEL", "replicas", name).array,
                    replicas.contains(where: { Self.fields($0)["port"] == "\(replica.port)" && Self.fields($0)["flags"] == "slave" }),
                    let others = try? client.command("SENTINEL", "sentinels", name).array
                else { return false }
                return others.count == 2
            }
        }
    }

    /// `redis-sentinel://127.0.0.1:<port>,…/<name>` (`rediss-sentinel` with TLS) over the sentinels
    /// (after `before`, if given).
    func url(before: [Int] = []) -> String {
        let ports = before + sentinels.map(\.port)
        return (tls == nil ? "redis-sentinel://" : "rediss-sentinel://") + ports.map { "127.0.0.1:\($0)" }.joined(separator: ",")
            + "/\(name)"
    }

    /// The server the sentinels all name as the primary now and that answers `ROLE` as one, if any.
    func agreedPrimary() -> RedisServer? {
        let named = sentinels.map { sentinel in
            (try? Self.direct(sentinel).command("SENTINEL", "get-master-addr-by-name", name).array?.last?.string) ?? nil
        }
        guard let port = named.first ?? nil, named.allSatisfy({ $0 == port }),
            let server = servers.first(where: { "\($0.port)" == port }),
            (try? Self.direct(server).command("ROLE").array?.first?.string) == "master"
        else { return nil }
        return server
    }

    /// A client straight to one server or sentinel (for administration), trusting its CA.
    static func direct(_ server: RedisServer) throws -> MSALRedisClient {
        var configuration = try MSALRedisConfiguration(url: server.url)
        configuration.caFile = server.options.tls?.caCertificate
        return try MSALRedisClient(configuration: configuration)
    }

    /// A flat `[name, value, …]` array as a dictionary (`SENTINEL replicas` answers one per replica).
    static func fields(_ reply: MSALRedisReply) -> [String: String] {
        let words = reply.array?.compactMap(\.string) ?? []
        return Dictionary(stride(from: 0, to: words.count - 1, by: 2).map { (words[$0], words[$0 + 1]) }) { first, _ in first }
    }

    /// Waits (a bound for a failure, not a measure) until `done`, or throws naming `what`.
    func wait(_ what: String, seconds: TimeInterval, until done: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if done() { return }
            usleep(50_000)
        }
        throw RedisTestError("Redis Sentinel: waited \(Int(seconds)) s for \(what)")
    }
}
