import Foundation
import MSALRedis
import TestSupport
import Testing

/// `MSALRedisClient` against a real `redis-server`: commands and binary values, unix sockets,
/// databases, ACL users, TLS, and several threads on one client (again under ThreadSanitizer).
@Suite(.tags(.concurrency)) struct ClientTests {
    static func client(_ url: String, _ change: (inout MSALRedisConfiguration) -> Void = { _ in }) throws -> MSALRedisClient {
        var configuration = try MSALRedisConfiguration(url: url)
        change(&configuration)
        return try MSALRedisClient(configuration: configuration)
    }

    static func code(_ body: () throws -> Void) -> MSALRedisError.Code? {
        do {
            try body()
            return nil
        } catch let error as MSALRedisError {
            return error.code
        } catch {
            return nil
        }
    }

    @Test func setsAndGetsBinaryValues() throws {
        let server = try RedisServer()
        let client = try Self.client(server.url)
        let value = Data((0...255).map { UInt8($0) } + Array("\r\n$-1\r\n".utf8))
        #expect(try client.command([Data("SET".utf8), Data("k".utf8), value]) == .simple("OK"))
        #expect(try client.command(["GET", "k"]) == .bulk(value))
        #expect(try client.command(["GET", "missing"]) == .null)
        #expect(try client.command(["INCRBY", "n", "41"]) == .integer(41))
        #expect(try client.command(["MGET", "n", "missing"]) == .array([.bulk(Data("41".utf8)), .null]))
        let connection = try client.command(["CLIENT", "ID"])
        for _ in 0..<10 { try client.command(["PING"]) }
        #expect(try client.command(["CLIENT", "ID"]) == connection)
    }

    @Test func talksOverAUnixSocketAndSelectsTheDatabase() throws {
        let server = try RedisServer(RedisServer.Options(unixSocket: true))
        let three = try Self.client("unix://\(server.unixSocketPath)?db=3")
        try three.command(["SET", "where", "three"])
        let zero = try Self.client(server.url)
        #expect(try zero.command(["GET", "where"]) == .null)
        #expect(try Self.client(server.url + "/3").command(["GET", "where"]).string == "three")
    }

    @Test func authenticatesAnACLUserAndRefusesAWrongPassword() throws {
        let server = try RedisServer(RedisServer.Options(aclUser: ("worker", "correct-horse")))
        #expect(try Self.client(server.url).command(["PING"]) == .simple("PONG"))
        var wrong: MSALRedisError?
        do {
            try Self.client("redis://worker:wrong-password-value@127.0.0.1:\(server.port)").command(["PING"])
        } catch { wrong = error as? MSALRedisError }
        #expect(wrong?.code == .authentication)
        #expect(wrong.map { !$0.message.contains("wrong-password-value") && !$0.description.contains("wrong-password-value") } == true)
        #expect(Self.code { try Self.client("redis://127.0.0.1:\(server.port)").command(["GET", "x"]) } == .authentication)
    }

    @Test func verifiesTheServerCertificateAgainstTheGivenCA() throws {
        let tls = try TLSFiles()
        let server = try RedisServer(RedisServer.Options(tls: tls))
        let client = try Self.client(server.url) { $0.caFile = tls.caCertificate }
        try client.command(["SET", "over", "tls"])
        #expect(try client.command(["GET", "over"]).string == "tls")
        // One connection serves every command (TLS 1.3's session tickets do not make it look stale).
        let connection = try client.command(["CLIENT", "ID"])
        for _ in 0..<10 { try client.command(["PING"]) }
        #expect(try client.command(["CLIENT", "ID"]) == connection)
        let byName = try Self.client("rediss://localhost:\(server.port)") { $0.caFile = tls.caCertificate }
        #expect(try byName.command(["GET", "over"]).string == "tls")
        // The system's store does not know the throwaway CA.
        #expect(Self.code { try Self.client(server.url).command(["PING"]) } == .tlsCertificate)
        // Plain text to a TLS port is not Redis either.
        #expect(Self.code { try Self.client("redis://127.0.0.1:\(server.port)") { $0.commandTimeout = 1 }.command(["PING"]) } != nil)
    }

    @Test func refusesACertificateForAnotherHost() throws {
        let tls = try TLSFiles(names: "DNS:wrong.example.com")
        let server = try RedisServer(RedisServer.Options(tls: tls))
        #expect(Self.code { try Self.client(server.url) { $0.caFile = tls.caCertificate }.command(["PING"]) } == .tlsCertificate)
        #expect(
            Self.code { try Self.client("rediss://localhost:\(server.port)") { $0.caFile = tls.caCertificate }.command(["PING"]) }
                == .tlsCertificate)
    }

    @Test func refusesACAFileItCannotLoad() throws {
        #expect(Self.code { _ = try Self.client("rediss://127.0.0.1:1") { $0.caFile = "/nonexistent/ca.pem" } } == .invalidConfiguration)
    }

    @Test func answersAWrongTypeWithATypedErrorAndStaysUsable() throws {
        let server = try RedisServer()
        let client = try Self.client(server.url)
        try client.command(["HSET", "h", "f", "v"])
        var wrongType: MSALRedisError?
        do { try client.command(["GET", "h"]) } catch { wrongType = error }
        #expect(wrongType?.code == .serverError && wrongType?.serverCode == "WRONGTYPE")
        #expect(Self.code { try client.command(["NOSUCHCOMMAND", "secret-argument"]) } == .serverError)
        #expect(try client.command(["PING"]) == .simple("PONG"))
    }

    @Test func pipelinesCommandsWithTheirRepliesInOrderAndErrorsInPlace() throws {
        let server = try RedisServer()
        let client = try Self.client(server.url)
        try client.command(["SET", "a", "1"])
        try client.command(["HSET", "h", "f", "v"])
        let replies = try client.pipeline(
            [["GET", "a"], ["GET", "h"], ["GET", "missing"], ["INCR", "a"]].map { $0.map { Data($0.utf8) } })
        #expect(replies.count == 4)
        #expect(replies[0].string == "1")
        guard case .error(let text) = replies[1] else {
            Issue.record("not an error: \(replies[1])")
            return
        }
        #expect(text.hasPrefix("WRONGTYPE"))
        #expect(replies[2] == .null)
        #expect(replies[3] == .integer(2))
        #expect(try client.pipeline([]).isEmpty)
        // A list with an empty command is refused whole: nothing of it is sent.
        #expect(Self.code { _ = try client.pipeline([[Data("INCR".utf8), Data("a".utf8)], []]) } == .invalidConfiguration)
        #expect(try client.command(["GET", "a"]).string == "2")
    }

    @Test func sharesOneClientBetweenThreads() throws {
        let server = try RedisServer()
        let client = try Self.client(server.url)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 { _ = try? client.command(["INCR", "counter"]) }
        }
        #expect(try client.command(["GET", "counter"]).string == "1600")
    }
}
