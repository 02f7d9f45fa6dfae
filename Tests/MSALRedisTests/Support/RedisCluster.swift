import Foundation
import MSALRedis
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Three `redis-server`s in cluster mode on loopback ports, joined with
/// `redis-cli --cluster create … --cluster-replicas 0 --cluster-yes`, and stopped together.
final class RedisCluster: @unchecked Sendable {
    let nodes: [RedisServer]

    init() throws {
        nodes = try (0..<3).map { _ in try RedisServer(RedisServer.Options(cluster: true)) }
        let result = try ChildProcess.runBlocking(
            "/usr/bin/redis-cli",
            ["--cluster", "create"] + nodes.map { "127.0.0.1:\($0.port)" } + ["--cluster-replicas", "0", "--cluster-yes"],
            limit: 60)
        guard result.status == 0 else { throw RedisTestError("redis-cli --cluster create failed: \(result.stdout) \(result.stderr)") }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let states = nodes.map { (try? self.direct($0).command("CLUSTER", "INFO").string) ?? "" }
            if states.allSatisfy({ $0.contains("cluster_state:ok") }) { return }
            usleep(100_000)
        }
        throw RedisTestError("the cluster did not reach cluster_state:ok within 30 s")
    }

    /// A client to one node that never follows the cluster (for administration).
    func direct(_ node: RedisServer) throws -> MSALRedisClient {
        try MSALRedisClient(configuration: MSALRedisConfiguration(url: node.url))
    }

    /// The node serving `slot` now.
    func owner(of slot: Int) throws -> RedisServer {
        let slots = try direct(nodes[0]).command("CLUSTER", "SLOTS").array ?? []
        for range in slots {
            guard let fields = range.array, let first = fields[0].integer, let last = fields[1].integer,
                let port = fields[2].array?[1].integer
            else { continue }
            if first <= slot && slot <= last, let node = nodes.first(where: { $0.port == Int(port) }) { return node }
        }
        throw RedisTestError("no node serves slot \(slot)")
    }

    /// Moves `slot` from its owner to `target` the way `redis-cli --cluster reshard` does:
    /// IMPORTING on the target, MIGRATING on the source, MIGRATE of its keys in batches (with
    /// `between` called after each batch), then NODE on every node.
    func move(slot: Int, to target: RedisServer, between: () -> Void = {}) throws {
        let source = try owner(of: slot)
        let sourceClient = try direct(source)
        let targetClient = try direct(target)
        let sourceID = try sourceClient.command("CLUSTER", "MYID").string ?? ""
        let targetID = try targetClient.command("CLUSTER", "MYID").string ?? ""
        try targetClient.command("CLUSTER", "SETSLOT", "\(slot)", "IMPORTING", sourceID)
        try sourceClient.command("CLUSTER", "SETSLOT", "\(slot)", "MIGRATING", targetID)
        while true {
            between()
            let keys = try sourceClient.command("CLUSTER", "GETKEYSINSLOT", "\(slot)", "5").array?.compactMap(\.string) ?? []
            if keys.isEmpty { break }
            try sourceClient.run(RedisCommand("MIGRATE", arguments: ["127.0.0.1", "\(target.port)", "", "0", "5000", "KEYS"] + keys))
        }
        for node in [target, source] + nodes.filter({ $0 !== target && $0 !== source }) {
            try direct(node).command("CLUSTER", "SETSLOT", "\(slot)", "NODE", targetID)
        }
    }
}
