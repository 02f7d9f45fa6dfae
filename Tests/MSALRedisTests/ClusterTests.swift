import Foundation
import MSAL
import MSALRedis
import TestSupport
import Testing

@testable import MSALRedis

/// Redis Cluster: the key's slot as the server computes it, `MOVED` and `ASK` followed, and a
/// slot moved to another node in the middle of writes with nothing lost.
@Suite(.serialized) struct ClusterTests {
    @Test func computesTheSlotOfAKeyAsTheServerDoes() throws {
        let server = try RedisServer(RedisServer.Options(cluster: true))
        let client = try ClientTests.client(server.url)
        var keys = ["", "a", "foo", "user:1000", "{user1000}.following", "foo{}{bar}", "foo{{bar}}zap", "foo{bar}{zap}", "{", "}{x}"]
        keys += (0..<200).map { "msal:cache:{client-\($0)|account-\($0 * 7)}:tokens" }
        for key in keys {
            let expected = try client.command("CLUSTER", "KEYSLOT", key).integer
            #expect(expected.map(Int.init) == ClusterSlotMap.slot(of: Data(key.utf8)), "\(key)")
        }
        #expect(ClusterSlotMap.crc16(Array("123456789".utf8)) == 0x31C3)
        #expect(ClusterSlotMap.slot(of: Data("{tag}:a".utf8)) == ClusterSlotMap.slot(of: Data("{tag}:b".utf8)))
    }

    @Test func followsMovedToEveryNode() throws {
        let cluster = try RedisCluster()
        let client = try ClientTests.client(cluster.nodes[0].url)
        for index in 0..<300 { try client.command("SET", key: "key-\(index)", "\(index)") }
        for index in 0..<300 { #expect(try client.command("GET", key: "key-\(index)").string == "\(index)") }
        // Every node holds some of them: the writes were routed, not all sent to the seed.
        for node in cluster.nodes { #expect((try cluster.direct(node).command("DBSIZE").integer ?? 0) > 0) }
        // A script on one slot runs where the slot lives.
        let reply = try client.run(.eval("return redis.call('INCR', KEYS[1])", keys: ["{acct}:version"], arguments: []))
        #expect(reply == .integer(1))
    }

    /// Once the client knows the cluster, each command goes straight to the node of the key it
    /// names (`RedisCommand.key`; a script's first key): no node answers one with `MOVED`.
    @Test func aCommandGoesStraightToTheNodeOfItsKey() throws {
        let cluster = try RedisCluster()
        let client = try ClientTests.client(cluster.nodes[0].url)
        // Learns the slot map from the first MOVED (the keys live on every node).
        for index in 0..<100 { try client.command("SET", key: "key-\(index)", "-") }
        for node in cluster.nodes { try cluster.direct(node).command("CONFIG", "RESETSTAT") }
        for index in 0..<100 { try client.command("SET", key: "key-\(index)", "\(index)") }
        #expect(try client.pipeline((0..<100).map { RedisCommand("GET", key: "key-\($0)") }).map(\.string) == (0..<100).map { "\($0)" })
        for index in 0..<20 { // scripts on slots of every node
            let script = RedisCommand.eval("return redis.call('INCR', KEYS[1])", keys: ["{account-\(index)}:version"], arguments: [])
            #expect(try client.run(script) == .integer(1))
        }
        var redirected = 0
        for node in cluster.nodes {
            let errors = try cluster.direct(node).command("INFO", "errorstats").string ?? ""
            let moved = errors.split(separator: "\r\n").first { $0.hasPrefix("errorstat_MOVED:count=") }
            redirected += moved.flatMap { Int($0.dropFirst("errorstat_MOVED:count=".count)) } ?? 0
        }
        #expect(redirected == 0)
    }

    /// A pipeline over keys of every node: sent whole to the seed before the client knows the
    /// cluster (each `MOVED` then sent again on its own), then grouped by node; answers in order.
    @Test func aPipelineOverEveryNodeAnswersInOrder() throws {
        let cluster = try RedisCluster()
        let admin = try ClientTests.client(cluster.nodes[0].url)
        for index in 0..<200 { try admin.command("SET", key: "key-\(index)", "\(index)") }
        let gets = (0..<200).map { RedisCommand("GET", key: "key-\($0)") }
        let fresh = try ClientTests.client(cluster.nodes[1].url)
        #expect(try fresh.pipeline(gets).map(\.string) == (0..<200).map { "\($0)" })
        #expect(try fresh.pipeline(gets).map(\.string) == (0..<200).map { "\($0)" })
        #expect(try admin.pipeline(gets).map(\.string) == (0..<200).map { "\($0)" })
    }

    @Test func aSlotMovedDuringWritesLosesNothing() throws {
        let cluster = try RedisCluster()
        let tag = "{client-1|account-1}"
        let slot = ClusterSlotMap.slot(of: Data(tag.utf8))
        let source = try cluster.owner(of: slot)
        let target = try #require(cluster.nodes.first { $0 !== source })
        let client = try ClientTests.client(cluster.nodes.first { $0 !== source && $0 !== target }!.url)
        let admin = try ClientTests.client(cluster.nodes[0].url)
        for index in 0..<40 { try admin.command("SET", key: "\(tag):k:\(index)", "\(index)") }
        let progress = WriterProgress()
        let done = DispatchSemaphore(value: 0)
        let writer = Thread {
            for index in 0..<600 {
                do {
                    try client.command("HSET", key: "\(tag):part", "field-\(index)", "value-\(index)")
                    try client.command("SET", key: "\(tag):new:\(index)", "\(index)")
                    progress.acknowledged = index + 1
                } catch {
                    progress.failures.append(error as? MSALRedisError)
                }
                usleep(500)
            }
            done.signal()
        }
        writer.start()
        usleep(50_000)
        try cluster.move(slot: slot, to: target) { usleep(20_000) }
        done.wait()
        #expect(progress.failures.isEmpty, "\(progress.failures.count) failed, the first: \(String(describing: progress.failures.first))")
        #expect(progress.acknowledged == 600)
        #expect(try cluster.owner(of: slot) === target)
        let fields = try client.command("HGETALL", key: "\(tag):part").array ?? []
        #expect(fields.count == 1200)
        for index in 0..<600 { #expect(try client.command("GET", key: "\(tag):new:\(index)").string == "\(index)") }
        for index in 0..<40 { #expect(try client.command("GET", key: "\(tag):k:\(index)").string == "\(index)") }
        #expect(try cluster.direct(source).command("DBSIZE").integer.map { $0 >= 0 } == true)
    }

    /// The token cache store's own writes (a script over a partition's three keys, then the
    /// client's index) while the partition's slot migrates: `ASK` and `TRYAGAIN` are followed
    /// within the command timeout and every acknowledged entry is on the new node.
    @Test func tokenCacheWritesWhileTheirSlotMovesLoseNoEntry() throws {
        let cluster = try RedisCluster()
        let store = try MSALRedisTokenCacheEntryStore(client: try ClientTests.client(cluster.nodes[0].url))
        let partition = TokenCacheEntryStoreTests.ada
        let slot = ClusterSlotMap.slot(of: store.keys(partition).entries)
        let source = try cluster.owner(of: slot)
        let target = try #require(cluster.nodes.first { $0 !== source })
        try store.write(
            MSALTokenCacheEntryWrite(partition: partition, set: ["RefreshToken:r": TokenCacheEntryStoreTests.value("rt")], remove: []))
        let progress = WriterProgress()
        let done = DispatchSemaphore(value: 0)
        let writer = Thread {
            for index in 0..<300 {
                do {
                    let token = TokenCacheEntryStoreTests.value("at-\(index)")
                    try store.write(MSALTokenCacheEntryWrite(partition: partition, set: ["AccessToken:\(index)": token], remove: []))
                    progress.acknowledged = index + 1
                } catch {
                    progress.failures.append(error as? MSALRedisError)
                }
                usleep(300)
            }
            done.signal()
        }
        writer.start()
        usleep(30_000)
        try cluster.move(slot: slot, to: target) { usleep(20_000) }
        done.wait()
        #expect(progress.failures.isEmpty, "\(progress.failures.count) failed, the first: \(String(describing: progress.failures.first))")
        #expect(progress.acknowledged == 300)
        #expect(try cluster.owner(of: slot) === target)
        let entries = try store.entries(in: partition)
        #expect(entries.count == 301)
        for index in 0..<300 { #expect(entries["AccessToken:\(index)"] == Data("at-\(index)".utf8)) }
        #expect(try store.partitionVersions(clientId: partition.clientId)[partition] != nil)
        #expect(try cluster.direct(target).command("EXISTS", key: store.keys(partition).entries).integer == 1)
    }
}

/// What a writer thread did, read by the test after the thread signalled its end.
final class WriterProgress: @unchecked Sendable {
    var acknowledged = 0
    var failures: [MSALRedisError?] = []
}
