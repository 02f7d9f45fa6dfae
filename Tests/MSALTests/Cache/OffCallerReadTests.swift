import Dispatch
import Foundation
import MSAL
import NativeAuthTesting
import Testing

@testable import MSAL

/// A shared store's reads stay off the caller's thread (Sources/MSAL/Cache/TokenCache+OffCaller.swift):
/// cold users whose reads hang do not hold up a warm user's token, however many there are.
@Suite(.tags(.concurrency)) struct OffCallerReadTests {
    static let todo = "api://contoso/todolist/ToDoList.Read"

    /// The in-memory store, whose `read` of the partitions in `held` waits until they are let go.
    final class GatedStore: MSALTokenCacheEntryStore {
        let inner = InMemoryTokenCacheEntryStore()
        let gate = DispatchSemaphore(value: 0)
        let state = Locked((held: Set<String>(), waiting: 0))

        var storeDescription: String { "a gated in-memory store" }
        func changeVersion(clientId: String) throws -> String? { try inner.changeVersion(clientId: clientId) }
        func partitionVersions(clientId: String) throws -> [MSALTokenCachePartition: String] {
            try inner.partitionVersions(clientId: clientId)
        }
        func entries(in partition: MSALTokenCachePartition) throws -> [String: Data] { try inner.entries(in: partition) }
        func version(of partition: MSALTokenCachePartition) throws -> String? { try inner.version(of: partition) }
        func read(_ partition: MSALTokenCachePartition) throws -> (version: String?, entries: [String: Data]) {
            let gated = state.withLock { state in
                guard state.held.contains(partition.homeAccountId ?? "") else { return false }
                state.waiting += 1
                return true
            }
            if gated { gate.wait() }
            return try inner.read(partition)
        }
        func write(_ write: MSALTokenCacheEntryWrite) throws { try inner.write(write) }
        func removePartition(_ partition: MSALTokenCachePartition) throws { try inner.removePartition(partition) }
        func tryLock(_ partition: MSALTokenCachePartition, owner: String, lease: TimeInterval) throws -> Bool {
            try inner.tryLock(partition, owner: owner, lease: lease)
        }
        func unlock(_ partition: MSALTokenCachePartition, owner: String) throws { try inner.unlock(partition, owner: owner) }
    }

    static func uid(_ number: Int) -> String { "00000000-0000-0000-0000-\(String(format: "%012d", number))" }

    @Test func coldUsersWhoseReadsHangDoNotHoldUpAWarmUsersToken() async throws {
        let store = GatedStore()
        let configure: (MSALNativeAuthPublicClientApplicationConfig) -> Void = {
            $0.tokenCacheLocation = .entryStore(store, checkInterval: 600)
            $0.allowsMultipleAccounts = true
        }
        // One machine signs nine users in; another serves them.
        let signer = try Harness(configure: configure)
        var ids: [String] = []
        for number in 0..<9 {
            ids.append(
                try #require(
                    try await signer.signIn(uid: Self.uid(number), username: "u\(number)@contoso.com", scope: Self.todo).account.identifier)
            )
        }
        let worker = try Harness(configure: configure)
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = [Self.todo]
        let warm = try await worker.app.nativeAuthUserAccount(forIdentifier: ids[0])
        _ = try await warm.getAccessToken(parameters: parameters)

        // Eight cold users, more than the threads that run Swift concurrency here: their reads hang.
        // Half are looked up by id first; half are handles that have not read the store yet (as
        // after a restart), whose first read is their token's.
        let cold = Array(ids.dropFirst())
        let app = worker.app
        store.state.withLock { $0.held = Set(cold.map { $0.lowercased() }) }
        // Everything from here runs on one thread of its own, as if Swift concurrency had a single
        // thread: a read that blocked it would stop every other request (and the rest of the suite
        // cannot take it away).
        try await withTaskExecutorPreference(OneThreadExecutor()) {
            async let coldTokens = withThrowingTaskGroup(of: String.self) { group in
                for (index, id) in cold.enumerated() {
                    group.addTask {
                        let user =
                            index.isMultiple(of: 2)
                            ? try await app.nativeAuthUserAccount(forIdentifier: id)
                            : app.accountResult(
                                for: CachedAccount(
                                    homeAccountId: id, environment: "contoso.ciamlogin.com", username: nil, idToken: nil, lastUsed: 0))
                        let parameters = MSALNativeAuthGetAccessTokenParameters()
                        parameters.scopes = [Self.todo]
                        return try await user.getAccessToken(parameters: parameters).accessToken
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // Should the warm request be held up, this lets the cold reads go after a while, so that
            // the test fails rather than hangs; the order of events, not the time, is what it asserts.
            let order = Locked<[String]>([])
            DispatchQueue.global().async {
                for _ in 0..<30_000 where store.state.withLock({ $0.waiting }) < cold.count { usleep(1000) }
                for _ in 0..<600 where !order.withLock({ $0.contains("warm") }) { usleep(50_000) }
                order.withLock { $0.append("cold let go") }
                for _ in cold { store.gate.signal() }
            }
            for _ in 0..<30_000 where store.state.withLock({ $0.waiting }) < cold.count { try await Task.sleep(nanoseconds: 1_000_000) }
            #expect(store.state.withLock { $0.waiting } == cold.count, "every cold read started")
            _ = try await warm.getAccessToken(parameters: parameters)
            order.withLock { $0.append("warm") }
            #expect(try await coldTokens.count == cold.count)
            #expect(order.withLock { $0 } == ["warm", "cold let go"], "the warm user's token came while every cold read hung")
        }
    }
}

extension OffCallerReadTests {
    /// Two users signed in on one store; a worker application over it that asks the store on every
    /// look-up (checkInterval 0), and its cache.
    static func twoUsers(_ store: InMemoryTokenCacheEntryStore) async throws -> (ids: [String], cache: TokenCache) {
        let configure: (MSALNativeAuthPublicClientApplicationConfig) -> Void = {
            $0.tokenCacheLocation = .entryStore(store, checkInterval: 0)
            $0.allowsMultipleAccounts = true
        }
        let signer = try Harness(configure: configure)
        var ids: [String] = []
        for number in 0..<2 {
            let user = try await signer.signIn(uid: uid(number), username: "u\(number)@contoso.com", scope: todo)
            ids.append(try #require(user.account.identifier))
        }
        return (ids, try Harness(configure: configure).app.environment.cache)
    }

    @Test func aRequestsReadServesOnlyThatAccountOfThatCache() async throws {
        let store = InMemoryTokenCacheEntryStore()
        let (ids, cache) = try await Self.twoUsers(store)
        let other = try Harness { $0.tokenCacheLocation = .entryStore(InMemoryTokenCacheEntryStore(), checkInterval: 0) }.app.environment
            .cache
        let seen = await cache.withAccountRead(ids[0]) {
            (cache.account(homeAccountId: ids[1])?.homeAccountId, other.account(homeAccountId: ids[0])?.homeAccountId)
        }
        #expect(seen.0 == ids[1], "another account of the same cache is its own")
        #expect(seen.1 == nil, "another cache (whose store is empty) is not served this read")
    }

    @Test func aTaskTheRequestStartsAsksTheStoreItself() async throws {
        let store = InMemoryTokenCacheEntryStore()
        let (ids, cache) = try await Self.twoUsers(store)
        let partition = MSALTokenCachePartition(clientId: Fixture.clientId, homeAccountId: ids[0].lowercased())
        store.clearOperations()
        let background = await cache.withAccountRead(ids[0]) {
            // Within the step: the read made for it, no store call.
            _ = cache.refreshToken(homeAccountId: ids[0])
            return Task { cache.refreshToken(homeAccountId: ids[0]) }
        }
        #expect(await background.value != nil)
        let asked = store.operations.filter { $0 == .read(partition) || $0 == .version(partition) }
        #expect(asked == [.read(partition), .version(partition)], "the request's read, then the task's own check")
    }
}

/// A task executor with one thread of its own.
final class OneThreadExecutor: TaskExecutor, @unchecked Sendable {
    // `jobs` is guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    init() {
        Thread { [self] in
            while true {
                condition.lock()
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst()
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }
}
