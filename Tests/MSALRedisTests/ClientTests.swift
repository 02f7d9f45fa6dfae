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
        #expect(try client.command("SET", key: "k", value) == .simple("OK"))
        #expect(try client.command("GET", key: "k") == .bulk(value))
        #expect(try client.command("GET", key: "missing") == .null)
        #expect(try client.command("INCRBY", key: "n", "41") == .integer(41))
        #expect(try client.command("MGET", key: "n", "missing") == .array([.bulk(Data("41".utf8)), .null]))
        let connection = try client.command("CLIENT", "ID")
        for _ in 0..<10 { try client.command("PING") }
        #expect(try client.command("CLIENT", "ID") == connection)
    }

    @Test func talksOverAUnixSocketAndSelectsTheDatabase() throws {
        let server = try RedisServer(RedisServer.Options(unixSocket: true))
        let three = try Self.client("unix://\(server.unixSocketPath)?db=3")
        try three.command("SET", key: "where", "three")
        let zero = try Self.client(server.url)
        #expect(try zero.command("GET", key: "where") == .null)
        #expect(try Self.client(server.url + "/3").command("GET", key: "where").string == "three")
    }

    @Test func authenticatesAnACLUserAndRefusesAWrongPassword() throws {
        let server = try RedisServer(RedisServer.Options(aclUser: ("worker", "correct-horse")))
        #expect(try Self.client(server.url).command("PING") == .simple("PONG"))
        var wrong: MSALRedisError?
        do {
            try Self.client("redis://worker:wrong-password-value@127.0.0.1:\(server.port)").command("PING")
        } catch { wrong = error as? MSALRedisError }
        #expect(wrong?.code == .authentication)
        #expect(wrong.map { !$0.message.contains("wrong-password-value") && !$0.description.contains("wrong-password-value") } == true)
        #expect(Self.code { try Self.client("redis://127.0.0.1:\(server.port)").command("GET", key: "x") } == .authentication)
    }

    @Test func verifiesTheServerCertificateAgainstTheGivenCA() throws {
        let tls = try TLSFiles()
        let server = try RedisServer(RedisServer.Options(tls: tls))
        let client = try Self.client(server.url) { $0.caFile = tls.caCertificate }
        try client.command("SET", key: "over", "tls")
        #expect(try client.command("GET", key: "over").string == "tls")
        // One connection serves every command (TLS 1.3's session tickets do not make it look stale).
        let connection = try client.command("CLIENT", "ID")
        for _ in 0..<10 { try client.command("PING") }
        #expect(try client.command("CLIENT", "ID") == connection)
        let byName = try Self.client("rediss://localhost:\(server.port)") { $0.caFile = tls.caCertificate }
        #expect(try byName.command("GET", key: "over").string == "tls")
        // The system's store does not know the throwaway CA.
        #expect(Self.code { try Self.client(server.url).command("PING") } == .tlsCertificate)
        // Plain text to a TLS port is not Redis either.
        #expect(Self.code { try Self.client("redis://127.0.0.1:\(server.port)") { $0.commandTimeout = 1 }.command("PING") } != nil)
    }

    @Test func refusesACertificateForAnotherHost() throws {
        let tls = try TLSFiles(names: "DNS:wrong.example.com")
        let server = try RedisServer(RedisServer.Options(tls: tls))
        #expect(Self.code { try Self.client(server.url) { $0.caFile = tls.caCertificate }.command("PING") } == .tlsCertificate)
        #expect(
            Self.code { try Self.client("rediss://localhost:\(server.port)") { $0.caFile = tls.caCertificate }.command("PING") }
                == .tlsCertificate)
    }

    @Test func refusesACAFileItCannotLoad() throws {
        #expect(Self.code { _ = try Self.client("rediss://127.0.0.1:1") { $0.caFile = "/nonexistent/ca.pem" } } == .invalidConfiguration)
    }

    @Test func answersAWrongTypeWithATypedErrorAndStaysUsable() throws {
        let server = try RedisServer()
        let client = try Self.client(server.url)
        try client.command("HSET", key: "h", "f", "v")
        var wrongType: MSALRedisError?
        do { try client.command("GET", key: "h") } catch { wrongType = error }
        #expect(wrongType?.code == .serverError && wrongType?.serverCode == "WRONGTYPE")
        #expect(Self.code { try client.command("NOSUCHCOMMAND", "secret-argument") } == .serverError)
        #expect(try client.command("PING") == .simple("PONG"))
    }

    @Test func pipelinesCommandsWithTheirRepliesInOrderAndErrorsInPlace() throws {
        let server = try RedisServer()
        let client = try Self.client(server.url)
        try client.command("SET", key: "a", "1")
        try client.command("HSET", key: "h", "f", "v")
        let replies = try client.pipeline([
            RedisCommand("GET", key: "a"), RedisCommand("GET", key: "h"), RedisCommand("GET", key: "missing"),
            RedisCommand("INCR", key: "a"),
        ])
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
    }

    @Test func sharesOneClientBetweenThreads() throws {
        let server = try RedisServer()
        let client = try Self.client(server.url)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 { _ = try? client.command("INCR", key: "counter") }
        }
        #expect(try client.command("GET", key: "counter").string == "1600")
    }
}
