import Foundation
import Testing

@testable import MSALRedis

/// `MSALRedisConfiguration`'s URL forms and the RESP reader's limits, without a server.
@Suite struct ConfigurationTests {
    @Test func readsEveryPartOfARedisURL() throws {
        let configuration = try MSALRedisConfiguration(url: "rediss://app:p%40ss%3Aword@cache.example.com:6380/3")
        #expect(configuration.endpoint == .tcp(host: "cache.example.com", port: 6380))
        #expect(configuration.useTLS)
        #expect(configuration.username == "app")
        #expect(configuration.password == "p@ss:word")
        #expect(configuration.database == 3)
        let plain = try MSALRedisConfiguration(url: "redis://:only-password@[::1]")
        #expect(plain.endpoint == .tcp(host: "::1", port: 6379))
        #expect(!plain.useTLS && plain.username == nil && plain.password == "only-password" && plain.database == 0)
        let unix = try MSALRedisConfiguration(url: "unix:///run/redis/redis.sock?db=5")
        #expect(unix.endpoint == .unix(path: "/run/redis/redis.sock"))
        #expect(unix.database == 5)
    }

    @Test(arguments: [
        "http://host", "redis://", "redis://host:0", "redis://host/notanumber", "redis://host/-1", "unix://host/path",
        "redis://host?tls=1", "not a url at all",
    ])
    func refusesAURLItCannotUse(_ url: String) {
        #expect(throws: MSALRedisError.self) { try MSALRedisConfiguration(url: url) }
        do {
            _ = try MSALRedisConfiguration(url: url)
        } catch {
            #expect(error.code == .invalidConfiguration)
        }
    }

    @Test func readsThePasswordAndTheKeyFromTheirFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("redis-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func file(_ name: String, _ data: Data) throws -> String {
            let path = directory.appendingPathComponent(name).path
            try data.write(to: URL(fileURLWithPath: path))
            return path
        }
        func refusal(_ body: () throws -> Void) -> MSALRedisError? {
            do {
                try body()
                return nil
            } catch { return error as? MSALRedisError }
        }
        #expect(try MSALRedisConfiguration.password(fromFile: file("p1", Data("s3cret\nignored\n".utf8))) == "s3cret")
        #expect(try MSALRedisConfiguration.password(fromFile: file("p2", Data("s3cret\r\n".utf8))) == "s3cret")
        #expect(try MSALRedisConfiguration.password(fromFile: file("p3", Data("s3cret".utf8))) == "s3cret")
        let blankFirstLine = try file("p4", Data("\nlater".utf8))
        let empty = refusal { _ = try MSALRedisConfiguration.password(fromFile: blankFirstLine) }
        #expect(empty?.code == .invalidConfiguration && empty?.message.contains("later") == false)
        #expect(refusal { _ = try MSALRedisConfiguration.password(fromFile: directory.path + "/none") }?.code == .invalidConfiguration)

        let raw = Data((0..<32).map { UInt8($0 * 7) })
        #expect(try MSALRedisConfiguration.encryptionKey(fromFile: file("k1", raw)) == raw)
        let hex = raw.map { String(format: "%02X", $0) }.joined()
        #expect(try MSALRedisConfiguration.encryptionKey(fromFile: file("k2", Data((hex + "\n").utf8))) == raw)
        #expect(try MSALRedisConfiguration.encryptionKey(fromFile: file("k3", Data(hex.lowercased().utf8))) == raw)
        #expect(try MSALRedisConfiguration.encryptionKey(fromFile: file("k4", Data((hex + "\r\n").utf8))) == raw)
        for bad in [Data(raw.prefix(31)), Data((String(hex.dropLast()) + "g").utf8), Data((hex + "00").utf8)] {
            let path = try file("bad", bad)
            let error = refusal { _ = try MSALRedisConfiguration.encryptionKey(fromFile: path) }
            #expect(error?.code == .invalidConfiguration && error?.message.contains("32 bytes or 64 hex digits") == true)
            #expect(error?.message.contains(hex.prefix(16)) == false)
        }
    }

    @Test func neverPrintsThePassword() throws {
        let configuration = try MSALRedisConfiguration(url: "redis://app:hunter2-secret@host:7000/1")
        #expect(!configuration.description.contains("hunter2"))
        #expect(configuration.description.contains("***"))
        #expect(configuration.description.contains("host:7000"))
    }

    @Test func serverErrorsDropQuotedArguments() {
        let error = MSALRedisError.fromServer("ERR unknown command 'FROB', with args beginning with: 'refresh-token-value' ")
        #expect(error.code == .serverError && error.serverCode == "ERR")
        #expect(!error.message.contains("refresh-token-value") && !error.message.contains("FROB"))
        #expect(MSALRedisError.fromServer("WRONGPASS invalid username-password pair").code == .authentication)
        #expect(MSALRedisError.fromServer("NOAUTH Authentication required.").code == .authentication)
    }

    @Test func readsRepliesSplitAtAnyByte() throws {
        let bytes = Array("+OK\r\n:-42\r\n$5\r\nhe\r\no\r\n$-1\r\n*2\r\n$1\r\na\r\n*1\r\n:7\r\n-ERR no\r\n".utf8)
        for split in 0...bytes.count {
            var reader = RESPReader(maxBulkBytes: 100, maxArrayCount: 10)
            var replies: [MSALRedisReply] = []
            for part in [bytes[..<split], bytes[split...]] {
                part.withUnsafeBytes { reader.feed($0) }
                while let reply = try reader.next() { replies.append(reply) }
            }
            #expect(
                replies == [
                    .simple("OK"), .integer(-42), .bulk(Data("he\r\no".utf8)), .null,
                    .array([.bulk(Data("a".utf8)), .array([.integer(7)])]), .error("ERR no"),
                ], "split at \(split)")
        }
    }

    @Test(arguments: [
        ("$1048577\r\n", MSALRedisError.Code.tooLarge), ("*2000\r\n", .tooLarge), ("!garbage\r\n", .protocolViolation),
        (":12x\r\n", .protocolViolation), ("$3\r\nabcXY", .protocolViolation), ("+OK\rX", .protocolViolation),
        ("$-7\r\n", .protocolViolation),
    ])
    func refusesRepliesOverTheLimitsOrNotRESP(_ input: String, _ code: MSALRedisError.Code) {
        var reader = RESPReader(maxBulkBytes: 1 << 20, maxArrayCount: 1000)
        Array(input.utf8).withUnsafeBytes { reader.feed($0) }
        var caught: MSALRedisError.Code?
        do throws(MSALRedisError) { _ = try reader.next() } catch { caught = error.code }
        #expect(caught == code)
    }

    @Test func refusesALineThatNeverEnds() {
        var reader = RESPReader(maxBulkBytes: 1 << 20, maxArrayCount: 1000)
        let line = [UInt8(ascii: "+")] + [UInt8](repeating: UInt8(ascii: "a"), count: 70_000)
        line.withUnsafeBytes { reader.feed($0) }
        #expect(throws: MSALRedisError.self) { try reader.next() }
    }

    @Test func refusesArraysNestedTooDeep() {
        var reader = RESPReader(maxBulkBytes: 1 << 20, maxArrayCount: 1000)
        Array((String(repeating: "*1\r\n", count: 20) + ":1\r\n").utf8).withUnsafeBytes { reader.feed($0) }
        #expect(throws: MSALRedisError.self) { try reader.next() }
    }

    /// The `redis` object of a configuration file becomes the client configuration it describes
    /// (Sources/MSALRedis/Configuration/MSALRedisSettings.swift): each member to its property.
    @Test func theRedisObjectMakesTheConfigurationItDescribes() throws {
        let directory = NSTemporaryDirectory() + "msal-settings-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "from-the-file\n".write(toFile: directory + "/password", atomically: true, encoding: .utf8)
        let object: [String: Any] = [
            "url": "rediss://worker@cache.internal:6380/2", "password_file": directory + "/password", "ca_file": "/ca.pem",
            "certificate_file": "/client.pem", "certificate_key_file": "/client.key", "key_prefix": "contoso:", "check_interval_seconds": 0,
        ]
        let settings = try MSALRedisSettings(json: object)
        let configuration = try settings.configuration()
        #expect(configuration.endpoint == .tcp(host: "cache.internal", port: 6380) && configuration.useTLS && configuration.database == 2)
        #expect(configuration.username == "worker" && configuration.password == "from-the-file" && configuration.credentialSource == nil)
        #expect(
            configuration.caFile == "/ca.pem" && configuration.certificateFile == "/client.pem" && configuration.keyFile == "/client.key")
        #expect(configuration.keyPrefix == "contoso:" && settings.checkInterval == 0)
        #expect(try MSALRedisSettings(json: settings.json) == settings)

        let command = try MSALRedisSettings(json: ["url": "redis://worker@h", "password_command": ["echo", "printed"]]).configuration()
        #expect(command.password == nil)
        let credentials = try #require(try command.credentialSource?())
        #expect(credentials.username == "worker" && credentials.password == "printed")
    }
}
