import Foundation
import MSALRedis
import TestSupport
import Testing

/// `MSALRedisSignInStore`: a state saved by one process and taken by another, once; expiry;
/// encryption at rest refusing anything that does not authenticate, and leaving it where it is;
/// values that are not ours. Eight threads taking one id run again under ThreadSanitizer.
@Suite(.tags(.concurrency)) struct SignInStoreTests {
    static let state = Data(#"{"version":1,"kind":"signInCode","continuationToken":"ct-secret-value-123"}"#.utf8)
    static let key = Data((0..<32).map { UInt8($0 * 7 % 256) })
    static var keyHex: String { key.map { String(format: "%02x", $0) }.joined() }

    static func helper(_ arguments: [String], input: Data? = nil) async throws -> (status: Int32, stdout: String, stderr: String) {
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("msal-redis-helper")
        return try await ChildProcess.run(tool.path, arguments, input: input, limit: 60)
    }

    static func failure(_ body: () throws -> Void) -> MSALRedisError? {
        do {
            try body()
            return nil
        } catch {
            return error as? MSALRedisError
        }
    }

    @Test func aStateSavedHereIsContinuedByAnotherProcessOnce() async throws {
        let server = try RedisServer()
        let client = try ClientTests.client(server.url)
        let store = try MSALRedisSignInStore(client: client)
        let id = try store.save(Self.state)
        #expect(id.count == 32)
        let taken = try await Self.helper(["take", server.url, id])
        #expect(taken.status == 0, "\(taken.stderr)")
        #expect(Data(taken.stdout.utf8) == Self.state)
        let again = try await Self.helper(["take", server.url, id])
        #expect(again.status == 1 && again.stderr.hasPrefix("notFound"))
        #expect(Self.failure { _ = try store.take(id) }?.code == .notFound)
    }

    @Test func aStateSavedByAnotherProcessIsTakenHereEncrypted() async throws {
        let server = try RedisServer()
        let saved = try await Self.helper(["save", server.url, Self.keyHex], input: Self.state)
        #expect(saved.status == 0, "\(saved.stderr)")
        let id = saved.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let client = try ClientTests.client(server.url)
        let stored = try #require(try client.command("GET", key: "signin:{\(id)}").data)
        #expect(stored.range(of: Data("ct-secret-value".utf8)) == nil)
        let store = try MSALRedisSignInStore(client: client, encryptionKey: Self.key)
        #expect(try store.take(id) == Self.state)
    }

    /// Eight takers with the right key, each on its own connection, let go at once, over twenty
    /// saved states: each state goes to exactly one of them and the others find it taken.
    @Test func onlyOneOfManyConcurrentTakesGetsTheState() throws {
        let server = try RedisServer()
        let store = try MSALRedisSignInStore(client: try ClientTests.client(server.url), encryptionKey: Self.key)
        let takers = try (0..<8).map { _ in
            let client = try ClientTests.client(server.url)
            try client.command("PING")
            return try MSALRedisSignInStore(client: client, encryptionKey: Self.key)
        }
        for round in 0..<20 {
            let id = try store.save(Self.state)
            let lock = NSLock()
            nonisolated(unsafe) var taken: [Data] = []
            nonisolated(unsafe) var refused: [MSALRedisError.Code?] = []
            // Threads of their own (not a pool that may run fewer at once), let go together.
            let ready = DispatchGroup()
            let done = DispatchGroup()
            let go = DispatchSemaphore(value: 0)
            for taker in takers {
                ready.enter()
                done.enter()
                Thread {
                    ready.leave()
                    go.wait()
                    do {
                        let state = try taker.take(id)
                        lock.withLock { taken.append(state) }
                    } catch {
                        lock.withLock { refused.append((error as? MSALRedisError)?.code) }
                    }
                    done.leave()
                }.start()
            }
            ready.wait()
            for _ in takers { go.signal() }
            done.wait()
            #expect(taken == [Self.state], "round \(round): exactly one of eight takers with the right key gets the state")
            #expect(refused == Array(repeating: .notFound, count: 7), "round \(round): the others find it taken")
        }
    }

    /// A worker with another key (a rolling deploy, a typo) cannot open the state and leaves it:
    /// the worker with the right key takes it afterwards, once.
    @Test func aWorkerWithAnotherKeyLeavesTheStateForTheRightOne() throws {
        let server = try RedisServer()
        let client = try ClientTests.client(server.url)
        let right = try MSALRedisSignInStore(client: client, encryptionKey: Self.key)
        let wrong = try MSALRedisSignInStore(client: try ClientTests.client(server.url), encryptionKey: Data(repeating: 9, count: 32))
        let unkeyed = try MSALRedisSignInStore(client: try ClientTests.client(server.url))
        let id = try right.save(Self.state)
        let stored = try client.command("GET", key: "signin:{\(id)}").data
        #expect(Self.failure { _ = try wrong.take(id) }?.code == .invalidValue)
        #expect(Self.failure { _ = try unkeyed.take(id) }?.code == .invalidValue)
        #expect(try client.command("GET", key: "signin:{\(id)}").data == stored, "the state is still there, as saved")
        let ttl = try client.command("TTL", key: "signin:{\(id)}").integer ?? -1
        #expect(ttl > 590 && ttl <= 600, "and keeps its lifetime")
        #expect(try right.take(id) == Self.state)
        #expect(Self.failure { _ = try right.take(id) }?.code == .notFound)
    }

    @Test func keepsAStateForItsLifetimeOnlyUnderThePrefix() throws {
        let server = try RedisServer()
        let client = try ClientTests.client(server.url) { $0.keyPrefix = "contoso:" }
        let id = try MSALRedisSignInStore(client: client).save(Self.state)
        let ttl = try client.command("TTL", key: "contoso:signin:{\(id)}").integer ?? -1
        #expect(ttl > 590 && ttl <= 600)
        let short = try MSALRedisSignInStore(client: client, lifetime: 1)
        let expiring = try short.save(Self.state)
        usleep(2_100_000)
        #expect(Self.failure { _ = try short.take(expiring) }?.code == .notFound)
    }

    @Test func refusesATamperedMovedOrForeignValue() throws {
        let server = try RedisServer()
        let client = try ClientTests.client(server.url)
        let sealed = try MSALRedisSignInStore(client: client, encryptionKey: Self.key)
        let plain = try MSALRedisSignInStore(client: client)
        // One bit flipped in the ciphertext.
        let id = try sealed.save(Self.state)
        var bytes = try #require(try client.command("GET", key: "signin:{\(id)}").data)
        bytes[bytes.count - 3] ^= 0x01
        try client.command("SET", key: "signin:{\(id)}", bytes, "EX", "600")
        #expect(Self.failure { _ = try sealed.take(id) }?.code == .invalidValue)
        // Never returned and never taken: still there as it was, refused again.
        #expect(try client.command("GET", key: "signin:{\(id)}").data == bytes)
        #expect(Self.failure { _ = try sealed.take(id) }?.code == .invalidValue)
        // A good value copied under another id: the key is authenticated with it.
        let first = try sealed.save(Self.state)
        let second = try sealed.save(Data("other".utf8))
        try client.command("COPY", key: "signin:{\(first)}", "signin:{\(second)}", "REPLACE")
        #expect(Self.failure { _ = try sealed.take(second) }?.code == .invalidValue)
        // Another key; no key for an encrypted value; a plain value where a key is set.
        let other = try MSALRedisSignInStore(client: client, encryptionKey: Data(repeating: 9, count: 32))
        #expect(Self.failure { _ = try other.take(try sealed.save(Self.state)) }?.code == .invalidValue)
        #expect(Self.failure { _ = try plain.take(try sealed.save(Self.state)) }?.code == .invalidValue)
        #expect(Self.failure { _ = try sealed.take(try plain.save(Self.state)) }?.code == .invalidValue)
        // Garbage, an empty value and a hash where a state should be.
        let garbage = String(repeating: "ab", count: 16)
        try client.command("SET", key: "signin:{\(garbage)}", "{\"not\":\"ours\"}")
        #expect(Self.failure { _ = try plain.take(garbage) }?.code == .invalidValue)
        let hash = String(repeating: "cd", count: 16)
        try client.command("HSET", key: "signin:{\(hash)}", "f", "v")
        #expect(Self.failure { _ = try plain.take(hash) }?.serverCode == "WRONGTYPE")
    }

    @Test func refusesBadInputWithoutEchoingIt() throws {
        let server = try RedisServer()
        let store = try MSALRedisSignInStore(client: try ClientTests.client(server.url))
        for id in ["", "short", "ct-secret-value-1234567890abcdef", String(repeating: "A", count: 32), "../../etc/passwd"] {
            let error = Self.failure { _ = try store.take(id) }
            #expect(error?.code == .notFound)
            #expect(error.map { id.isEmpty || !$0.message.contains(id) } == true)
        }
        #expect(Self.failure { _ = try store.save(Data(count: MSALRedisSignInStore.maxStateBytes + 1)) }?.code == .tooLarge)
        #expect(
            Self.failure { _ = try MSALRedisSignInStore(client: try ClientTests.client(server.url), encryptionKey: Data(count: 16)) }?.code
                == .invalidConfiguration)
    }
}
