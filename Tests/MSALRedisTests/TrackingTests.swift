import Foundation
import MSAL
import NativeAuthEmulator
import TestSupport
import Testing

@testable import MSALRedis

/// Changes pushed by Redis (Sources/MSALRedis/Stores/ChangeTracker.swift): each partition's write,
/// removal and flush reported by name, nothing else; a tracking connection killed is reported
/// stopped and tracks again, a write in the gap unreported (the SDK then falls back to its
/// interval: Tests/MSALTests/Cache/EntryStoreTrackingTests.swift); and end to end, a sign-out on one
/// worker ends another's tokens with no interval to wait for.
@Suite(.tags(.concurrency)) struct TrackingTests {
    typealias T = TokenCacheEntryStoreTests

    /// What an observer was told, in order.
    final class Recorder: Sendable {
        let changes = Locked<[MSALTokenCacheChange]>([])
        func record(_ change: MSALTokenCacheChange) { changes.withLock { $0.append(change) } }

        /// Waits (at most 10 s: a bound for a failure, not a measure) until `done` holds for what was told.
        func wait(_ what: String, until done: ([MSALTokenCacheChange]) -> Bool) throws {
            for _ in 0..<1000 {
                if changes.withLock({ done($0) }) { return }
                usleep(10_000)
            }
            throw RedisTestError("never told: \(what); told \(changes.withLock { $0 })")
        }
    }

    /// A store on `server` observed by a recorder, once it tracks; a writer on another connection.
    static func tracking(_ server: RedisServer) throws -> (
        writer: MSALRedisTokenCacheEntryStore, recorder: Recorder, stop: @Sendable () -> Void
    ) {
        let tracked = try T.store(server)
        let writer = try MSALRedisTokenCacheEntryStore(client: try ClientTests.client(server.url), tracksChanges: false)
        let recorder = Recorder()
        let stop = try #require(tracked.observeChanges(clientId: T.clientId, recorder.record))
        try recorder.wait("tracking") { $0 == [.tracking] }
        return (writer, recorder, stop)
    }

    @Test func eachPartitionsWritesRemovalsAndAFlushAreReportedAndNothingElse() throws {
        let server = try RedisServer()
        let (writer, recorder, stop) = try Self.tracking(server)
        defer { stop() }

        let braces = MSALTokenCachePartition(clientId: T.clientId, homeAccountId: "{odd}%id.tenant")
        let other = MSALTokenCachePartition(clientId: "another-client", homeAccountId: "ada-uid.tenant")
        _ = try writer.tryLock(T.grace, owner: "me", lease: 30)
        try writer.write(MSALTokenCacheEntryWrite(partition: other, set: ["AccessToken:a": T.value("x")], remove: []))
        try writer.write(MSALTokenCacheEntryWrite(partition: T.ada, set: ["AccessToken:a": T.value("x")], remove: []))
        try writer.write(MSALTokenCacheEntryWrite(partition: braces, set: ["AccessToken:a": T.value("x")], remove: []))
        try writer.removePartition(T.ada)
        try recorder.wait("three changes") { $0.count == 4 }
        #expect(recorder.changes.withLock { $0 } == [.tracking, .changed(T.ada), .changed(braces), .changed(T.ada)])
        try ClientTests.client(server.url).command("FLUSHDB")
        try recorder.wait("a flush") { $0.last == .changedAll }
    }

    @Test func aKilledTrackingConnectionIsReportedStoppedThenTracksAgainAndAWriteInTheGapIsNotReported() throws {
        let server = try RedisServer()
        let (writer, recorder, stop) = try Self.tracking(server)
        defer { stop() }
        let client = try ClientTests.client(server.url)
        let list = try #require(try client.command("CLIENT", "LIST", "TYPE", "pubsub").string)
        let id = try #require(list.split(separator: " ").first { $0.hasPrefix("id=") }?.dropFirst(3))
        // Killed, then a write: Redis runs them in this order, so the write lands in the gap.
        let version = writer.keys(T.ada).version
        _ = try client.pipeline([
            RedisCommand("CLIENT", "KILL", "ID", String(id)), RedisCommand("SET", key: version, "v2"),
        ])
        try recorder.wait("stopped, then tracking") { $0 == [.tracking, .stopped, .tracking] }
        try writer.write(MSALTokenCacheEntryWrite(partition: T.ada, set: ["AccessToken:a": T.value("x")], remove: []))
        try recorder.wait("the write after the gap") { $0 == [.tracking, .stopped, .tracking, .changed(T.ada)] }
    }

    @Test func aTrackingConnectionThatFallsSilentIsReportedStoppedByItsHeartbeat() throws {
        let server = try RedisServer()
        let tracked = try MSALRedisTokenCacheEntryStore(client: try ClientTests.client(server.url) { $0.commandTimeout = 0.5 })
        let recorder = Recorder()
        let stop = try #require(tracked.observeChanges(clientId: T.clientId, recorder.record))
        defer { stop() }
        try recorder.wait("tracking") { $0 == [.tracking] }
        // Redis answers no one for 3 s: the connection stays open, but the PING goes unanswered.
        try ClientTests.client(server.url).command("CLIENT", "PAUSE", "3000", "ALL")
        try recorder.wait("stopped, then tracking") { $0 == [.tracking, .stopped, .tracking] }
    }

    @Test func aClusterIsNotTrackedSoTheSDKKeepsItsInterval() throws {
        let cluster = try RedisCluster()
        let node = cluster.nodes[0]
        let store = try MSALRedisTokenCacheEntryStore(client: try ClientTests.client(node.url))
        let recorder = Recorder()
        let stop = try #require(store.observeChanges(clientId: T.clientId, recorder.record))
        defer { stop() }
        // The tracker asked the node whether it is a cluster (a bound for a failure, not a measure)...
        let direct = try cluster.direct(node)
        var asked = false
        for _ in 0..<1000 where !asked {
            asked = (try direct.command("INFO", "commandstats").string ?? "").contains("cmdstat_info:")
            if !asked { usleep(10_000) }
        }
        try #require(asked, "the tracker never asked INFO")
        // ...and turned no tracking on: one node's invalidations would miss the others' keys.
        usleep(200_000)
        #expect(!((try direct.command("INFO", "commandstats").string ?? "").contains("cmdstat_client|tracking:")))
        #expect(recorder.changes.withLock { $0 }.isEmpty)
    }

    @Test func aSignOutOnOneWorkerEndsAnothersTokensWithNoIntervalToWaitFor() async throws {
        let shared = try SharedTokenCacheOnRedisTests()
        let first = try shared.worker(checkInterval: 3600)
        let second = try shared.worker(checkInterval: 3600)
        let parameters = MSALNativeAuthSignInParameters(username: EmulatorHarness.ada)
        parameters.password = EmulatorHarness.adaPassword
        guard case .completed(let signedIn) = try await first.app.signIn(parameters: parameters) else {
            throw RedisTestError("no sign-in")
        }
        let id = try #require(signedIn.account.identifier)
        let there = try await second.app.nativeAuthUserAccount(forIdentifier: id)
        _ = try await shared.token(there, SharedTokenCacheOnRedisTests.todo)
        signedIn.signOut()
        // Within the hour-long interval, only Redis's report can end it (a bound for a failure, not a measure).
        for _ in 0..<1000 {
            if (try? await second.app.nativeAuthUserAccount(forIdentifier: id)) == nil { return }
            usleep(10_000)
        }
        Issue.record("the second worker still serves the account signed out on the first")
    }
}
