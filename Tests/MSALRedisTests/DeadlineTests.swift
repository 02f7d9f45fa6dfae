import Foundation
import TestSupport
import Testing

@testable import MSAL
@testable import MSALRedis

/// One deadline per operation (docs/redis.md#connections): against a server that accepts
/// connections and never answers, or stops answering in the middle of an operation, every public
/// operation of `MSALRedis`, and what the SDK's cache asks of the store in one go, fails with
/// `.timeout` within one command timeout, never one per command or a connect timeout on top.
@Suite struct DeadlineTests {
    /// The command timeout these tests give, and how late the server answers what it answers: a
    /// deadline per command would wait `late` for the first and `timeout` for the next, over
    /// `bound`; one deadline for the operation ends it at `timeout`.
    static let timeout: TimeInterval = 1
    static let late: TimeInterval = 0.8
    static let bound: TimeInterval = 1.5

    static func client(_ server: SilentServer, _ change: (inout MSALRedisConfiguration) -> Void = { _ in }) throws -> MSALRedisClient {
        try ClientTests.client(server.url) {
            $0.commandTimeout = Self.timeout
            $0.connectTimeout = 5
            change(&$0)
        }
    }

    @Test func connectingWithAuthAndSelectIsWithinTheCommandTimeout() throws {
        let server = try SilentServer()
        let client = try Self.client(server) {
            $0.password = "secret"
            $0.database = 2
        }
        let (time, error) = FaultTests.elapsed { try client.command("PING") }
        #expect(error?.code == .timeout)
        #expect(time >= Self.timeout * 0.9 && time < Self.bound, "AUTH and SELECT waited \(time) s, not the 5 s connect timeout")
    }

    @Test func aTakeWhoseDeleteIsNeverAnsweredFailsWithinOneTimeout() throws {
        // GET is answered late with a plain saved state; the compare-and-delete never is.
        let server = try SilentServer(answers: ["$7\r\nMSR1pok\r\n"], delay: Self.late)
        let store = try MSALRedisSignInStore(client: try Self.client(server))
        let (time, error) = FaultTests.elapsed { _ = try store.take(String(repeating: "ab", count: 16)) }
        #expect(error?.code == .timeout)
        #expect(time < Self.bound, "the take took \(time) s")
    }

    @Test func aWriteWhoseIndexIsNeverAnsweredFailsWithinOneTimeout() throws {
        // The partition's script is answered late; the index's script never is.
        let server = try SilentServer(answers: [":1\r\n"], delay: Self.late)
        let store = try MSALRedisTokenCacheEntryStore(client: try Self.client(server))
        let write = MSALTokenCacheEntryWrite(
            partition: TokenCacheEntryStoreTests.ada, set: ["AccessToken:a": TokenCacheEntryStoreTests.value("a")], remove: [])
        let (time, error) = FaultTests.elapsed { try store.write(write) }
        #expect(error?.code == .timeout)
        #expect(time < Self.bound, "the write took \(time) s")
        // SMEMBERS is answered late; the pipeline of versions never is.
        let listing = try SilentServer(answers: ["*1\r\n$1\r\n-\r\n"], delay: Self.late)
        let versions = try MSALRedisTokenCacheEntryStore(client: try Self.client(listing))
        let (listed, failure) = FaultTests.elapsed { _ = try versions.partitionVersions(clientId: TokenCacheEntryStoreTests.clientId) }
        #expect(failure?.code == .timeout)
        #expect(listed < Self.bound, "the versions took \(listed) s")
    }

    /// The SDK's write of one account reads that account's partition and the client's, then
    /// writes: the first read is answered late, the second never is.
    @Test func theCachesReadsAndWritesOfOneUpdateShareOneTimeout() throws {
        let server = try SilentServer(answers: ["$-1\r\n*0\r\n"], delay: Self.late)
        let store = try MSALRedisTokenCacheEntryStore(client: try Self.client(server))
        let storage = EntryStoreTokenCacheStorage(
            store: store, clientId: TokenCacheEntryStoreTests.clientId, checkInterval: 60, lease: 30, clock: SystemClock())
        let builder = AccountSliceBuilder(clientId: TokenCacheEntryStoreTests.clientId, environment: "host", realm: "realm")
        let start = Date()
        let error = #expect(throws: SetupError.self) { try storage.update(account: "ada-uid.tenant", builder: builder) { _ in } }
        let time = Date().timeIntervalSince(start)
        #expect(error?.code == .cacheUnavailable)
        #expect(error?.underlying?.domain == MSALRedisErrorDomain && error?.underlying?.code == MSALRedisError.Code.timeout.rawValue)
        #expect(time < Self.bound, "the update took \(time) s")
    }
}
