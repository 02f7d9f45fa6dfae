import Foundation
import MSAL
import TestSupport
import Testing

@testable import MSALRedis

#if canImport(Glibc)
    import Glibc
#endif

/// Faults of a real server and of the bytes on the wire: each ends in a typed error, loses
/// nothing the server acknowledged, and leaves the client usable once the server is back.
@Suite struct FaultTests {
    static func elapsed(_ body: () throws -> Void) -> (TimeInterval, MSALRedisError?) {
        let start = Date()
        do {
            try body()
            return (Date().timeIntervalSince(start), nil)
        } catch {
            return (Date().timeIntervalSince(start), error as? MSALRedisError)
        }
    }

    @Test func aServerDownAtStartIsAnErrorThenTheClientConnectsWhenItComesUp() throws {
        let server = try RedisServer()
        server.stop()
        let client = try ClientTests.client(server.url)
        let (time, error) = Self.elapsed { try client.ping() }
        #expect(error?.code == .connectionFailed)
        #expect(time < 2)
        try server.start()
        try client.ping()
    }

    /// A start that fails (its port taken meanwhile, so the server exits) leaves the next start
    /// able to succeed: each start waits for a ready line of its own in the kept log, as a new
    /// server's retry on another port relies on (Tests/TestSupport/RedisServer.swift).
    @Test func aServerWhoseStartFailedStartsAgain() throws {
        let server = try RedisServer()
        server.stop()
        let squatter = try SilentServer.loopbackListener(backlog: 1, name: "the port's squatter", port: server.port)
        #expect(throws: (any Error).self) { try server.start() }
        close(squatter.listener)
        try server.start()
        #expect(try ClientTests.client(server.url).command("PING") == .simple("PONG"))
    }

    @Test func aRestartBetweenTwoCommandsCostsNoError() throws {
        let server = try RedisServer(RedisServer.Options(appendOnly: true))
        let client = try ClientTests.client(server.url)
        try client.command("SET", key: "kept", "yes")
        server.stop()
        try server.start()
        #expect(try client.command("GET", key: "kept").string == "yes")
    }

    @Test func aServerKilledMidUseAndRestartedWithAOFKeepsEveryAcknowledgedWrite() throws {
        let server = try RedisServer(RedisServer.Options(appendOnly: true))
        let client = try ClientTests.client(server.url) { $0.commandTimeout = 1 }
        var acknowledged: [Int] = []
        var failure: MSALRedisError?
        let watcher = try ClientTests.client(server.url)
        let killed = DispatchSemaphore(value: 0)
        let killer = Thread {
            for _ in 0..<10_000 {
                if (try? watcher.command("EXISTS", key: "k:150").integer) == 1 { break }
                usleep(1000)
            }
            server.kill9()
            killed.signal()
        }
        killer.start()
        for index in 0..<100_000 {
            do {
                try client.command("SET", key: "k:\(index)", "value-\(index)")
                acknowledged.append(index)
            } catch {
                failure = error
                break
            }
        }
        #expect(failure?.code == .connectionFailed || failure?.code == .timeout)
        // The kill comes once k:150 is written; its reply may be lost with the server, so 150.
        #expect(acknowledged.count >= 150)
        killed.wait()
        try server.start()
        let replies = try acknowledged.map { try client.command("GET", key: "k:\($0)").string }
        #expect(replies == acknowledged.map { "value-\($0)" })
    }

    /// The token cache store's writes (a script, then the index) under a kill -9: every write that
    /// returned is there after the restart, with its partition listed, and the store writes again.
    @Test func tokenCacheWritesSurviveAKillWithAOF() throws {
        let server = try RedisServer(RedisServer.Options(appendOnly: true))
        let store = try MSALRedisTokenCacheEntryStore(client: try ClientTests.client(server.url) { $0.commandTimeout = 1 })
        let partition = TokenCacheEntryStoreTests.ada
        let watcher = try ClientTests.client(server.url)
        let killed = DispatchSemaphore(value: 0)
        let killer = Thread {
            for _ in 0..<10_000 {
                if (try? watcher.command("HEXISTS", key: store.keys(partition).entries, "AccessToken:100").integer) == 1 {
                    break
                }
                usleep(1000)
            }
            server.kill9()
            killed.signal()
        }
        killer.start()
        var acknowledged = 0
        var failure: MSALRedisError?
        for index in 0..<100_000 {
            do {
                let token = TokenCacheEntryStoreTests.value("at-\(index)")
                try store.write(MSALTokenCacheEntryWrite(partition: partition, set: ["AccessToken:\(index)": token], remove: []))
                acknowledged = index + 1
            } catch {
                failure = error as? MSALRedisError
                break
            }
        }
        #expect(failure?.code == .connectionFailed || failure?.code == .timeout)
        #expect(acknowledged >= 100, "the kill came after write 100 reached the server")
        killed.wait()
        try server.start()
        let entries = try store.entries(in: partition)
        for index in 0..<acknowledged { #expect(entries["AccessToken:\(index)"] == Data("at-\(index)".utf8), "write \(index)") }
        #expect(try store.partitionVersions(clientId: partition.clientId)[partition] != nil)
        try store.write(
            MSALTokenCacheEntryWrite(partition: partition, set: ["AccessToken:after": TokenCacheEntryStoreTests.value("a")], remove: []))
    }

    @Test func aPausedServerTimesOutEachCommandAndTheClientRecoversWhenItResumes() throws {
        let server = try RedisServer()
        let client = try ClientTests.client(server.url) { $0.commandTimeout = 0.3 }
        try client.command("SET", key: "before", "1")
        server.pause()
        defer { server.resume() }
        let (time, error) = Self.elapsed { try client.command("GET", key: "before") }
        #expect(error?.code == .timeout)
        #expect(time >= 0.25 && time < 2)
        server.resume()
        #expect(try client.command("GET", key: "before").string == "1")
    }

    @Test func aSlowCommandTimesOutAndTheNextOneReconnects() throws {
        let server = try RedisServer(RedisServer.Options(debugCommand: true))
        let client = try ClientTests.client(server.url) { $0.commandTimeout = 0.2 }
        let (time, error) = Self.elapsed { try client.command("DEBUG", "SLEEP", "0.8") }
        #expect(error?.code == .timeout)
        #expect(time < 0.7)
        usleep(800_000)
        #expect(try client.command("PING") == .simple("PONG"))
    }

    @Test func connectingToAServerThatNeverAnswersTimesOut() throws {
        let server = try RedisServer(RedisServer.Options(aclUser: ("worker", "pw")))
        server.pause()
        defer { server.resume() }
        let client = try ClientTests.client(server.url) { $0.connectTimeout = 0.3 }
        let (time, error) = Self.elapsed { try client.command("PING") }
        #expect(error?.code == .timeout)
        #expect(time < 2)
    }

    @Test func aServerThatIsNotRedisIsAProtocolError() throws {
        let fake = try FakeServer(answer: Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8))
        let (_, error) = Self.elapsed { try ClientTests.client("redis://127.0.0.1:\(fake.port)").command("PING") }
        #expect(error?.code == .protocolViolation)
    }

    /// `ping()` holds only for `PONG`: a server answering anything else is not one to start on.
    @Test func aPingAnsweredWithSomethingElseThanPongIsAProtocolError() throws {
        let fake = try FakeServer(answer: Array("+OK\r\n".utf8))
        let (_, error) = Self.elapsed { try ClientTests.client("redis://127.0.0.1:\(fake.port)").ping() }
        #expect(error?.code == .protocolViolation)
    }

    @Test func aHugeAnnouncedValueIsRefusedBeforeItIsRead() throws {
        let fake = try FakeServer(answer: Array("$536870912\r\nabc".utf8))
        let (_, error) = Self.elapsed { try ClientTests.client("redis://127.0.0.1:\(fake.port)").command("GET", key: "x") }
        #expect(error?.code == .tooLarge)
        let array = try FakeServer(answer: Array("*100000000\r\n".utf8))
        #expect(Self.elapsed { try ClientTests.client("redis://127.0.0.1:\(array.port)").command("KEYS", "*") }.1?.code == .tooLarge)
    }

    @Test func aValueOverTheLimitIsTooLargeAndTheClientGoesOn() throws {
        let server = try RedisServer()
        let client = try ClientTests.client(server.url) { $0.maxReplyBytes = 1 << 20 }
        try client.command("SET", key: "big", Data(count: 2 << 20))
        #expect(Self.elapsed { try client.command("GET", key: "big") }.1?.code == .tooLarge)
        #expect(try client.command("STRLEN", key: "big") == .integer(2 << 20))
    }
}
