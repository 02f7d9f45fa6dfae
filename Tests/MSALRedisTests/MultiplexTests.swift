import Foundation
import TestSupport
import Testing

@testable import MSALRedis

/// One multiplexed connection per server (docs/redis.md#connections): the commands of many
/// threads are in flight on it together, each thread gets its own replies, and a command that
/// times out closes the connection, failing the commands still waiting on it, never handing them
/// another's reply (again under ThreadSanitizer).
@Suite(.tags(.concurrency)) struct MultiplexTests {
    /// Runs `body(index)` on `count` threads of their own, started together, and returns once all ended.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                start.wait()
                body(index)
                group.leave()
            }.start()
        }
        for _ in 0..<count { start.signal() }
        group.wait()
    }

    /// What threads report: mismatches, errors, and error codes, under a lock.
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var notes: [String] = []
        private var codes: [MSALRedisError.Code?] = []

        func note(_ text: String) {
            lock.lock()
            defer { lock.unlock() }
            if notes.count < 20 { notes.append(text) }
        }

        func record(_ code: MSALRedisError.Code?) {
            lock.lock()
            defer { lock.unlock() }
            codes.append(code)
        }

        var problems: [String] {
            lock.lock()
            defer { lock.unlock() }
            return notes
        }

        var recorded: [MSALRedisError.Code?] {
            lock.lock()
            defer { lock.unlock() }
            return codes
        }
    }

    /// The clients connected to `server`, other than the one asking.
    static func otherClients(_ server: RedisServer) throws -> Int {
        let list = try ClientTests.client(server.url).command("CLIENT", "LIST").string ?? ""
        return list.split(separator: "\n").count - 1
    }

    @Test func manyThreadsEachGetTheirOwnReplies() throws {
        let server = try RedisServer()
        let client = try ClientTests.client(server.url)
        let tally = Tally()
        Self.onThreads(64) { thread in
            let key = "counter:\(thread)"
            for round in 1...200 {
                do {
                    if round % 10 == 0 {
                        let replies = try client.pipeline([
                            RedisCommand("INCR", key: key), RedisCommand("GET", key: key), RedisCommand("ECHO", key),
                        ])
                        let expected: [MSALRedisReply] = [.integer(Int64(round)), .bulk(Data("\(round)".utf8)), .bulk(Data(key.utf8))]
                        if replies != expected { tally.note("\(key) round \(round): pipeline answered \(replies)") }
                    } else {
                        let counted = try client.command("INCR", key: key)
                        if counted != .integer(Int64(round)) { tally.note("\(key) round \(round): INCR answered \(counted)") }
                        let read = try client.command("GET", key: key)
                        if read.string != "\(round)" { tally.note("\(key) round \(round): GET answered \(read)") }
                    }
                } catch {
                    tally.note("\(key) round \(round): \(error)")
                }
            }
        }
        #expect(tally.problems == [])
        #expect(try Self.otherClients(server) == 1, "the client should have kept one connection")
    }

    /// Behind a proxy that holds every reply until it has all of them, concurrent commands finish
    /// only if they were all written before any was answered: in flight together, not one by one.
    @Test func concurrentCommandsAreInFlightTogetherOnOneConnection() throws {
        let server = try RedisServer()
        let count = 40
        let proxy = try ReplyHoldingProxy(upstreamPort: server.port, replies: count, patience: 3)
        let client = try ClientTests.client(proxy.url) { $0.commandTimeout = 20 }
        let tally = Tally()
        Self.onThreads(count) { thread in
            do {
                let reply = try client.command("INCR", key: "held:\(thread)")
                if reply != .integer(1) { tally.note("held:\(thread) answered \(reply)") }
            } catch {
                tally.note("held:\(thread): \(error)")
            }
        }
        #expect(tally.problems == [])
        #expect(proxy.heldUntilAll == true, "the proxy had to let replies go before all \(count) commands came")
        #expect(proxy.connections == 1)
    }

    /// A command whose deadline passes while it reads its reply (the server busy in `DEBUG SLEEP`)
    /// closes the connection: the commands queued behind it fail with `.connectionFailed`
    /// before their own deadlines, and the next command gets a new connection.
    @Test func aTimeoutWhileReadingFailsTheCommandsBehindIt() throws {
        let server = try RedisServer(RedisServer.Options(debugCommand: true))
        let client = try ClientTests.client(server.url) { $0.commandTimeout = 1 }
        try client.command("SET", key: "k", "v")
        let before = try client.command("CLIENT", "ID")
        let tally = Tally()
        Self.onThreads(9) { thread in
            // The others send theirs once the sleep is on the wire (their deadlines are later).
            if thread > 0 { usleep(300_000) }
            tally.record(
                ClientTests.code { try client.run(thread == 0 ? RedisCommand("DEBUG", "SLEEP", "1.6") : RedisCommand("GET", key: "k")) })
        }
        let codes = tally.recorded
        #expect(codes.filter { $0 == .timeout }.count == 1)
        #expect(codes.filter { $0 == .connectionFailed }.count == 8)
        #expect(try client.command("GET", key: "k").string == "v")
        #expect(try client.command("CLIENT", "ID") != before)
    }

    /// A command whose deadline passes while it waits for another caller to read (its operation
    /// began earlier) closes the connection just the same: the reader fails with `.connectionFailed`.
    @Test func aTimeoutWhileWaitingFailsTheCommandReading() throws {
        let server = try RedisServer(RedisServer.Options(debugCommand: true))
        let client = try ClientTests.client(server.url) { $0.commandTimeout = 1 }
        try client.command("SET", key: "k", "v")
        let tally = Tally()
        Self.onThreads(2) { thread in
            let code = ClientTests.code {
                if thread == 0 {
                    usleep(200_000)
                    try client.command("DEBUG", "SLEEP", "1.6")
                } else {
                    try client.operation { () throws(MSALRedisError) in
                        usleep(500_000)
                        try client.command("GET", key: "k")
                    }
                }
            }
            tally.record(code)
        }
        #expect(Set(tally.recorded) == [.connectionFailed, .timeout])
        #expect(try client.command("GET", key: "k").string == "v")
    }

    @Test func disconnectFailsTheCommandsInFlight() throws {
        let server = try RedisServer(RedisServer.Options(debugCommand: true))
        let client = try ClientTests.client(server.url) { $0.commandTimeout = 10 }
        try client.command("SET", key: "k", "v")
        let tally = Tally()
        Self.onThreads(2) { thread in
            if thread == 0 {
                tally.record(ClientTests.code { try client.command("DEBUG", "SLEEP", "1") })
            } else {
                usleep(300_000)
                client.disconnect()
            }
        }
        #expect(tally.recorded == [.connectionFailed])
        #expect(try client.command("GET", key: "k").string == "v")
    }
}
