import Foundation
import MSAL
import MSALRedis
import TestSupport
import Testing

/// Credentials that change (Sources/MSALRedis/Connection/CredentialKeeper.swift) against a real
/// `redis-server`: a password rotated while a worker keeps using the cache, a renewal the server
/// refuses, and a source that fails or is late.
@Suite(.tags(.concurrency)) struct CredentialRotationTests {
    /// A server whose ACL user `worker` has `password`, and an `admin` user for the test's own commands.
    static func server(password: String) throws -> (RedisServer, MSALRedisClient) {
        let server = try RedisServer(RedisServer.Options(aclUser: ("worker", password)))
        let admin = try ClientTests.client(server.url)
        try admin.command("ACL", "SETUSER", "admin", "on", ">admin-pw", "~*", "&*", "+@all")
        return (server, try ClientTests.client("redis://admin:admin-pw@\(server.host):\(server.port)"))
    }

    /// The server's count of a field of `INFO`, e.g. `cmdstat_auth` calls.
    static func info(_ admin: MSALRedisClient, _ section: String, _ field: String, _ subfield: String? = nil) throws -> Int {
        let text = try admin.command("INFO", section).string ?? ""
        guard let line = text.split(separator: "\r\n").first(where: { $0.hasPrefix(field + ":") }) else { return 0 }
        let value = line.dropFirst(field.count + 1)
        guard let subfield else { return Int(value) ?? -1 }
        let part = value.split(separator: ",").first { $0.hasPrefix(subfield + "=") }
        return part.flatMap { Int($0.dropFirst(subfield.count + 1)) } ?? -1
    }

    static func waitUntil(_ seconds: TimeInterval = 20, _ condition: () throws -> Bool) rethrows -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if try condition() { return true }
            usleep(20_000)
        }
        return try condition()
    }

    /// The password rotates on the server while three threads keep using the token cache; the
    /// renewed password is sent with `AUTH` on the open connection (no new connection), no request
    /// fails, and the old password is refused afterwards.
    @Test func aRotatedPasswordIsPresentedOnTheOpenConnectionAndNoRequestFails() throws {
        let (server, admin) = try Self.server(password: "first-secret")
        let directory = try RedisServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/password"
        try "first-secret\n".write(toFile: file, atomically: true, encoding: .utf8)
        var configuration = try MSALRedisConfiguration(url: "redis://\(server.host):\(server.port)")
        configuration.credentialSource = MSALRedisPasswordCommand(["cat", file], username: "worker", refreshInterval: 0.6).source
        let client = try MSALRedisClient(configuration: configuration)
        let store = try MSALRedisTokenCacheEntryStore(client: client, tracksChanges: false)

        let running = Locked(true)
        let outcome = Locked((requests: 0, failures: [String]()))
        let group = DispatchGroup()
        for worker in 0..<3 {
            DispatchQueue.global().async(group: group) {
                let partition = MSALTokenCachePartition(clientId: "app", homeAccountId: "user-\(worker)")
                var round = 0
                while running.withLock({ $0 }) {
                    round += 1
                    do {
                        let entry = TokenCacheEntryStoreTests.value("v\(round)")
                        try store.write(
                            MSALTokenCacheEntryWrite(partition: partition, set: ["AccessToken:\(round % 4)": entry], remove: []))
                        _ = try store.read(partition)
                        outcome.withLock { $0.requests += 1 }
                    } catch {
                        outcome.withLock { $0.failures.append("\(error)") }
                    }
                }
            }
        }
        #expect(Self.waitUntil { outcome.withLock { $0.requests } > 30 })
        let authBefore = try Self.info(admin, "commandstats", "cmdstat_auth", "calls")
        let connectionsBefore = try Self.info(admin, "stats", "total_connections_received")

        try admin.command("ACL", "SETUSER", "worker", ">second-secret")
        try "second-secret\n".write(toFile: file, atomically: true, encoding: .utf8)
        // Renewals come every 0.3 s: once one has gone out with the second password, the old one can go.
        #expect(try Self.waitUntil { try Self.info(admin, "commandstats", "cmdstat_auth", "calls") >= authBefore + 2 })
        try admin.command("ACL", "SETUSER", "worker", "<first-secret")
        let requestsAtRemoval = outcome.withLock { $0.requests }
        #expect(Self.waitUntil { outcome.withLock { $0.requests } > requestsAtRemoval + 30 })
        let authAfterRemoval = try Self.info(admin, "commandstats", "cmdstat_auth", "calls")
        #expect(try Self.waitUntil { try Self.info(admin, "commandstats", "cmdstat_auth", "calls") > authAfterRemoval })
        running.withLock { $0 = false }
        group.wait()

        let result = outcome.withLock { $0 }
        #expect(result.failures.isEmpty, "\(result.failures.prefix(3))")
        #expect(result.requests > 60)
        // The renewals went out on the connection already open: no connection was made for them.
        #expect(try Self.info(admin, "stats", "total_connections_received") == connectionsBefore)
        #expect(try Self.info(admin, "commandstats", "cmdstat_auth", "failed_calls") == 0)
        let old = try ClientTests.client("redis://worker:first-secret@\(server.host):\(server.port)")
        #expect(ClientTests.code { try old.command("PING") } == .authentication)
    }

    /// Renewed credentials the server refuses retire the connection: the next one is refused
    /// them and says so, and commands in flight are not dropped by it.
    @Test func aRenewalTheServerRefusesIsReportedByTheNextConnection() throws {
        let (server, admin) = try Self.server(password: "good")
        let password = Locked("good")
        var configuration = try MSALRedisConfiguration(url: "redis://\(server.host):\(server.port)")
        configuration.credentialSource = {
            MSALRedisCredentials(username: "worker", password: password.withLock { $0 }, expiresOn: Date().addingTimeInterval(0.6))
        }
        let client = try MSALRedisClient(configuration: configuration)
        try client.command("SET", key: "k", "1")
        password.withLock { $0 = "not-the-password" }
        #expect(Self.waitUntil { (try? Self.info(admin, "commandstats", "cmdstat_auth", "failed_calls")) ?? 0 >= 1 })
        var codes: [MSALRedisError.Code?] = []
        _ = Self.waitUntil {
            codes.append(ClientTests.code { try client.command("GET", key: "k") })
            return codes.last == .authentication
        }
        #expect(codes.last == .authentication)
        #expect(!codes.contains { $0 != nil && $0 != .authentication })
    }

    /// An open connection that nobody uses is renewed too, before the credentials expire; the
    /// change tracker's connection, which cannot send `AUTH` while subscribed, connects again.
    @Test func idleConnectionsAndTheTrackerAreRenewedBeforeTheCredentialsExpire() throws {
        let (server, admin) = try Self.server(password: "pw")
        let asked = Locked(0)
        var configuration = try MSALRedisConfiguration(url: "redis://\(server.host):\(server.port)")
        configuration.credentialSource = {
            asked.withLock { $0 += 1 }
            return MSALRedisCredentials(username: "worker", password: "pw", expiresOn: Date().addingTimeInterval(1))
        }
        let client = try MSALRedisClient(configuration: configuration)
        let store = try MSALRedisTokenCacheEntryStore(client: client)
        let changes = Locked([MSALTokenCacheChange]())
        let stop = store.observeChanges(clientId: "app") { change in changes.withLock { $0.append(change) } }
        defer { stop?() }
        try client.command("PING")
        #expect(Self.waitUntil { changes.withLock { $0 } == [.tracking] })
        let clientId = try client.command("CLIENT", "ID")
        let authBefore = try Self.info(admin, "commandstats", "cmdstat_auth", "calls")
        let connectionsBefore = try Self.info(admin, "stats", "total_connections_received")
        let askedBefore = asked.withLock { $0 }
        // No command is sent meanwhile: the renewals themselves go out, beside the AUTH of each
        // connection the tracker makes again.
        #expect(
            try Self.waitUntil {
                let renewals = try Self.info(admin, "commandstats", "cmdstat_auth", "calls") - authBefore
                return renewals - (try Self.info(admin, "stats", "total_connections_received") - connectionsBefore) >= 2
            })
        #expect(asked.withLock { $0 } > askedBefore)
        #expect(try client.command("CLIENT", "ID") == clientId)
        #expect(Self.waitUntil { changes.withLock { Array($0.prefix(3)) } == [.tracking, .stopped, .tracking] })
    }

    /// A source that throws is `.authentication` with its reason; one that is late is `.timeout`
    /// for the command waiting on it, which never waits past its deadline.
    @Test func aSourceThatFailsOrIsLateFailsTheCommandClearly() throws {
        struct VaultDown: Error, CustomStringConvertible { var description: String { "the vault is down" } }
        let server = try RedisServer(RedisServer.Options(aclUser: ("worker", "pw")))
        var configuration = try MSALRedisConfiguration(url: "redis://\(server.host):\(server.port)")
        configuration.credentialSource = { throw VaultDown() }
        let failing = try MSALRedisClient(configuration: configuration)
        do {
            try failing.command("PING")
            Issue.record("PING succeeded without credentials")
        } catch {
            #expect(error.code == .authentication)
            #expect(error.message.contains("the vault is down"))
        }

        configuration.commandTimeout = 0.2
        configuration.credentialSource = {
            usleep(1_500_000)
            return MSALRedisCredentials(username: "worker", password: "pw")
        }
        let late = try MSALRedisClient(configuration: configuration)
        #expect(ClientTests.code { try late.command("PING") } == .timeout)
        // The answer arrives on the source's own thread and serves the commands after it.
        #expect(Self.waitUntil { ClientTests.code { try late.command("PING") } == nil })
        // A program's start waits for the source beyond one command's deadline.
        let started = try MSALRedisClient(configuration: configuration)
        try started.awaitCredentials(timeout: 30)
        #expect(ClientTests.code { try started.command("PING") } == nil)
    }

    /// Credentials that have already expired are a failure, not asked for again at once (and again).
    @Test func expiredCredentialsFromTheSourceAreRefused() throws {
        let server = try RedisServer(RedisServer.Options(aclUser: ("worker", "pw")))
        let asked = Locked(0)
        var configuration = try MSALRedisConfiguration(url: "redis://\(server.host):\(server.port)")
        configuration.credentialSource = {
            asked.withLock { $0 += 1 }
            return MSALRedisCredentials(username: "worker", password: "pw", expiresOn: Date().addingTimeInterval(-1))
        }
        let client = try MSALRedisClient(configuration: configuration)
        do {
            try client.command("PING")
            Issue.record("PING succeeded with expired credentials")
        } catch {
            #expect(error.code == .authentication && error.message.contains("expired"), "\(error)")
        }
        usleep(300_000)
        #expect(asked.withLock { $0 } <= 2, "asked \(asked.withLock { $0 }) times")
    }

    @Test func credentialsNeverShowTheirPassword() throws {
        let credentials = MSALRedisCredentials(username: "worker", password: "hunter2", expiresOn: Date())
        #expect(!"\(credentials)".contains("hunter2"))
        #expect(!String(reflecting: credentials).contains("hunter2"))
        var dumped = ""
        dump(credentials, to: &dumped)
        #expect(!dumped.contains("hunter2"))
        var configuration = try MSALRedisConfiguration(url: "redis://cache.internal")
        configuration.credentialSource = { credentials }
        #expect("\(configuration)".hasSuffix("credentials from a source"))
    }
}
