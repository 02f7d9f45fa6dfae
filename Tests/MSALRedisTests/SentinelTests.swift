import Foundation
import MSAL
import TestSupport
import Testing

@testable import MSALRedis

/// Redis Sentinel (Sources/MSALRedis/Sentinel/SentinelPrimary.swift): the `redis-sentinel://` URL, the
/// primary found through the sentinels (one down skipped, one naming a replica not trusted), and
/// writers through one client across two failovers, losing nothing that was acknowledged.
@Suite(.serialized, .tags(.concurrency)) struct SentinelTests {
    typealias Address = MSALRedisConfiguration.Sentinel.Address

    @Test func readsEveryPartOfASentinelURL() throws {
        let configuration = try MSALRedisConfiguration(
            url: "redis-sentinel://app:p%40ss%3Aword@s1.example.com:26380,10.0.0.2,[::1]:5000/my%20primary/3")
        let sentinels = [
            Address(host: "s1.example.com", port: 26380), Address(host: "10.0.0.2", port: 26379), Address(host: "::1", port: 5000),
        ]
        #expect(configuration.endpoint == .sentinel(MSALRedisConfiguration.Sentinel(sentinels: sentinels, primaryName: "my primary")))
        #expect(!configuration.useTLS)
        #expect(configuration.username == "app" && configuration.password == "p@ss:word")
        #expect(configuration.database == 3)
        #expect(configuration.description.hasPrefix("redis-sentinel://s1.example.com:26380,10.0.0.2:26379,[::1]:5000/my primary db 3"))
        #expect(!configuration.description.contains("p@ss"))

        let tls = try MSALRedisConfiguration(url: "rediss-sentinel://:secret@sentinel.example.com/cache/")
        #expect(tls.endpoint == .sentinel(.init(sentinels: [Address(host: "sentinel.example.com", port: 26379)], primaryName: "cache")))
        #expect(tls.useTLS && tls.username == nil && tls.password == "secret" && tls.database == 0)
    }

    @Test(arguments: [
        "redis-sentinel:///mymaster", "redis-sentinel://h1,,h2/mymaster", "redis-sentinel://h1:26379", "redis-sentinel://h1/",
        "redis-sentinel://h1:0/mymaster", "redis-sentinel://h1:99999/mymaster", "redis-sentinel://h1:abc/mymaster",
        "redis-sentinel://h1:+5/mymaster", "redis-sentinel://h1/mymaster/x", "redis-sentinel://h1/mymaster/1/2",
        "redis-sentinel://h1/mymaster?db=1", "redis-sentinel://::1/mymaster", "rediss-sentinel://[::1]x/mymaster",
    ])
    func refusesASentinelURLItCannotUse(_ url: String) {
        #expect(throws: MSALRedisError.self) { try MSALRedisConfiguration(url: url) }
        do {
            _ = try MSALRedisConfiguration(url: url)
        } catch {
            #expect(error.code == .invalidConfiguration)
        }
    }

    /// The first sentinel listed is down: the next one names the primary, which the client writes
    /// to and then asks first.
    @Test func findsThePrimaryThroughTheSentinelsAndSkipsOneThatIsDown() throws {
        let set = try RedisSentinelSet()
        let down = RedisServer.freePort()
        let client = try ClientTests.client(set.url(before: [down]))
        try client.command("SET", key: "found", "yes")
        #expect(try RedisSentinelSet.direct(set.servers[0]).command("GET", key: "found").string == "yes")
        #expect(try client.command("ROLE").array?.first?.string == "master")
        #expect(client.sentinelPrimary?.primary == Address(host: "127.0.0.1", port: set.servers[0].port))
        #expect(client.sentinelPrimary?.sentinels.first == Address(host: "127.0.0.1", port: set.sentinels[0].port))
        #expect(client.sentinelPrimary?.sentinels.dropFirst().first == Address(host: "127.0.0.1", port: down))

        // Two of three sentinels down: the third still names the primary.
        set.sentinels[0].stop()
        set.sentinels[1].stop()
        let later = try ClientTests.client(set.url(before: [down]))
        #expect(try later.command("GET", key: "found").string == "yes")
    }

    /// `rediss-sentinel://`: TLS to the sentinels and to the primary, verified against the CA given;
    /// without it, the sentinels' certificates are refused.
    @Test func findsThePrimaryOverTLS() throws {
        let tls = try TLSFiles()
        let set = try RedisSentinelSet(tls: tls)
        let client = try ClientTests.client(set.url()) { $0.caFile = tls.caCertificate }
        try client.command("SET", key: "secure", "yes")
        #expect(try RedisSentinelSet.direct(set.servers[0]).command("GET", key: "secure").string == "yes")
        let untrusting = try ClientTests.client(set.url()) { $0.commandTimeout = 1 }
        #expect(ClientTests.code { try untrusting.command("PING") } == .tlsCertificate)
    }

    /// A sentinel that names the replica (stale, or lying: here a fake one) is not trusted: the
    /// replica answers ROLE as one, so nothing is written there, even with `replica-read-only no`
    /// (where a write would succeed). Alone, it is an error; listed first, the next sentinel is asked.
    @Test func aSentinelThatNamesAReplicaIsNotTrusted() throws {
        let set = try RedisSentinelSet()
        let replica = set.servers[1]
        try RedisSentinelSet.direct(replica).command("CONFIG", "SET", "replica-read-only", "no")
        let fake = try FakeServer(answer: Self.naming(replica.port))

        let misled = try ClientTests.client("redis-sentinel://127.0.0.1:\(fake.port)/\(set.name)") { $0.commandTimeout = 0.5 }
        let error = ClientTests.code { try misled.command("SET", key: "misled", "yes") }
        #expect(error == .connectionFailed)
        do {
            try misled.command("PING")
        } catch {
            #expect(error.message.contains("ROLE"), "\(error)")
        }
        #expect(try RedisSentinelSet.direct(replica).command("EXISTS", key: "misled").integer == 0)

        let client = try ClientTests.client(set.url(before: [fake.port]))
        try client.command("SET", key: "right", "yes")
        #expect(try RedisSentinelSet.direct(set.servers[0]).command("GET", key: "right").string == "yes")
        #expect(client.sentinelPrimary?.sentinels.first?.port == set.sentinels[0].port)
    }

    /// A primary demoted while the client holds a connection to it (no sentinel closes it): the
    /// command it answers `READONLY` is sent again, within the same call, to the primary named now.
    @Test func aCommandAnsweredReadOnlyGoesToThePrimaryNamedNow() throws {
        let first = try RedisServer()
        let second = try RedisServer(RedisServer.Options(replicaOf: first.port))
        let fake = try FakeServer(answer: Self.naming(first.port))
        let client = try ClientTests.client("redis-sentinel://127.0.0.1:\(fake.port)/mymaster")
        try client.command("SET", key: "before", "1")
        fake.answer(with: Self.naming(second.port))
        try RedisSentinelSet.direct(second).command("REPLICAOF", "NO", "ONE")
        try RedisSentinelSet.direct(first).command("REPLICAOF", "127.0.0.1", "\(second.port)")
        #expect(try client.command("SET", key: "after", "2") == .simple("OK"))
        #expect(try RedisSentinelSet.direct(second).command("GET", key: "after").string == "2")
        #expect(client.sentinelPrimary?.primary?.port == second.port)
    }

    /// The change tracker connects to the primary the sentinels name and, when the failover closes
    /// its connection, to the new one: a write there is reported.
    @Test func theChangeTrackerFollowsAFailover() throws {
        typealias T = TokenCacheEntryStoreTests
        let set = try RedisSentinelSet()
        let tracked = try MSALRedisTokenCacheEntryStore(client: try ClientTests.client(set.url()))
        let recorder = TrackingTests.Recorder()
        let stop = try #require(tracked.observeChanges(clientId: T.clientId, recorder.record))
        defer { stop() }
        try recorder.wait("tracking") { $0 == [.tracking] }
        try RedisSentinelSet.direct(set.sentinels[0]).command("SENTINEL", "FAILOVER", set.name)
        try set.wait("the tracker stopped and tracking again", seconds: 60) {
            recorder.changes.withLock { $0.contains(.stopped) && $0.last == .tracking }
        }
        try set.wait("the tracker on the new primary", seconds: 30) {
            // A client with tracking on (flag t; the sentinels' own subscriptions have not).
            let clients = (try? RedisSentinelSet.direct(set.servers[1]).command("CLIENT", "LIST").string) ?? ""
            return clients.split(separator: "\n").contains {
                $0.split(separator: " ").contains { $0.hasPrefix("flags=") && $0.contains("t") }
            }
        }
        let writer = try MSALRedisTokenCacheEntryStore(client: try ClientTests.client(set.url()), tracksChanges: false)
        try writer.write(MSALTokenCacheEntryWrite(partition: T.ada, set: ["AccessToken:a": T.value("x")], remove: []))
        try set.wait("the write reported", seconds: 30) { recorder.changes.withLock { $0.last == .changed(T.ada) } }
    }

    /// What a sentinel answers `SENTINEL get-master-addr-by-name` with for a loopback server.
    static func naming(_ port: Int) -> [UInt8] {
        Array("*2\r\n$9\r\n127.0.0.1\r\n$\(String(port).utf8.count)\r\n\(port)\r\n".utf8)
    }

    /// Four writers through one client while the sentinels fail over twice: `SENTINEL FAILOVER`
    /// (the primary demoted to a replica of the one promoted), then kill -9 of the new primary (the
    /// first promoted back). Errors during a switch are allowed; every acknowledged INCR is on the
    /// primary at the end, and the client writes there without a restart.
    ///
    /// Acknowledged means the INCR answered and `WAIT 1 200`, pipelined after it, answered that a
    /// replica has it: a write only the primary has is lost when that primary dies or is demoted
    /// (a demoted primary drops its data for the new primary's, and for seconds after a manual
    /// failover the old primary still takes writes). `min-replicas-to-write` would not be enough:
    /// it refuses writes when no replica is connected, not writes a replica has not received.
    @Test func writersThroughTwoFailoversLoseNothingAcknowledged() throws {
        let set = try RedisSentinelSet()
        let (first, second) = (set.servers[0], set.servers[1])
        let client = try ClientTests.client(set.url()) { $0.commandTimeout = 3 }
        let phase = Locked(0)
        let stop = Locked(false)
        let writers = (0..<4).map { FailoverWriter(key: "writer:\($0)") }
        let done = DispatchSemaphore(value: 0)
        for writer in writers {
            Thread {
                writer.run(client, phase: phase, stop: stop)
                done.signal()
            }.start()
        }
        var joined = false
        func join() {
            stop.withLock { $0 = true }
            if !joined { for _ in writers { done.wait() } }
            joined = true
        }
        defer { join() }
        try set.wait("acknowledged writes before the failover", seconds: 30) { writers.allSatisfy { $0.acknowledged(in: 0) >= 20 } }

        try RedisSentinelSet.direct(set.sentinels[0]).command("SENTINEL", "FAILOVER", set.name)
        try set.wait("the replica promoted", seconds: 60) { set.agreedPrimary() === second }
        phase.withLock { $0 = 1 }
        // The demoted primary becomes the new one's replica, and the client finds the new primary.
        try set.wait("acknowledged writes after the failover", seconds: 60) { writers.allSatisfy { $0.acknowledged(in: 1) >= 20 } }

        second.kill9()
        try set.wait("the first primary promoted again", seconds: 60) { set.agreedPrimary() === first }
        phase.withLock { $0 = 2 }
        // No replica is left to acknowledge: writes that succeed show the client recovered. (Each
        // WAIT then blocks the one connection the writers share for its whole timeout.)
        try set.wait("writes after the second failover", seconds: 60) { writers.allSatisfy { $0.succeeded(in: 2) >= 5 } }

        join()
        for writer in writers {
            let value = try client.command("GET", key: writer.key).string.flatMap { Int64($0) } ?? 0
            #expect(value >= writer.highestAcknowledged, "\(writer.key): \(value) < \(writer.highestAcknowledged) acknowledged")
            #expect(writer.highestAcknowledged > 0)
        }
        #expect(try client.command("ROLE").array?.first?.string == "master")
        #expect(try client.command("CONFIG", "GET", "port").array?.last?.string == "\(first.port)")
        #expect(try client.command("INCR", key: "after-the-failovers") == .integer(1))
        #expect(try RedisSentinelSet.direct(first).command("GET", key: "after-the-failovers").string == "1")
    }
}

/// One writer thread: INCR of its key then `WAIT 1 200`, pipelined, until stopped; what was
/// acknowledged (a replica has it) and what only succeeded, by phase.
final class FailoverWriter: @unchecked Sendable {
    let key: String
    private let state = Locked((highest: Int64(0), acknowledged: [0, 0, 0], succeeded: [0, 0, 0], errors: 0))

    init(key: String) { self.key = key }

    var highestAcknowledged: Int64 { state.withLock { $0.highest } }
    func acknowledged(in phase: Int) -> Int { state.withLock { $0.acknowledged[phase] } }
    func succeeded(in phase: Int) -> Int { state.withLock { $0.succeeded[phase] } }

    func run(_ client: MSALRedisClient, phase: Locked<Int>, stop: Locked<Bool>) {
        let commands = [RedisCommand("INCR", key: key), RedisCommand("WAIT", 1, 200)]
        while !stop.withLock({ $0 }) {
            let now = phase.withLock { $0 }
            let replies = try? client.pipeline(commands)
            state.withLock { state in
                guard let value = replies?[0].integer else {
                    state.errors += 1
                    return
                }
                state.succeeded[now] += 1
                guard (replies?[1].integer ?? 0) >= 1 else { return }
                state.acknowledged[now] += 1
                state.highest = max(state.highest, value)
            }
            usleep(2000)
        }
    }
}
