import Foundation
import MSAL
import NativeAuthEmulator

#if canImport(Glibc)
    import Glibc
#endif

/// `msal-benchmarks held-cost USERS [SCOPE_SETS]`: what a partition held by the entry-store cache
/// costs in the heap (Sources/MSAL/Cache/EntryStore/EntryStoreTokenCacheStorage.swift), against the bytes
/// of entries it counts. USERS users as the Redis scale figure seeds them (CacheFixture), in a store
/// in memory that hands out copies as a network store does; then every user is served once, by the
/// storage alone and by an application (account by id + acquireTokenSilent), with no memory limit
/// in the way. Prints the resident bytes (RSS) per user after each, and the bytes counted.
func heldCost(_ arguments: [String]) async -> Int32 {
    guard let users = arguments.first.flatMap({ Int($0) }), users > 0 else { return 2 }
    let sets = arguments.dropFirst().first.flatMap { Int($0) } ?? 2
    do {
        let store = CopyingEntryStore()
        for first in stride(from: 0, to: users, by: 1_000) {
            let document = try TokenCacheDocument(
                json: try CacheFixture.document(accounts: first..<min(first + 1_000, users), scopeSets: sets))
            let partitions = EntryStoreLayout.partitions(of: document, clientId: CacheFixture.clientId)
            for write in EntryStoreLayout.plan(from: [:], to: partitions, now: Date()).writes { try store.write(write) }
        }
        let environment = URL(string: CacheFixture.authority)!.host!
        let builder = AccountSliceBuilder(clientId: CacheFixture.clientId, environment: environment, realm: "contoso.onmicrosoft.com")
        let unlimited = Int.max / 2
        var rows: [String] = []

        // Its parts: the decoded entries, then the slices made of them.
        do {
            let partitions = (0..<users).map {
                MSALTokenCachePartition(clientId: CacheFixture.clientId, homeAccountId: ScaleWorker.identifier($0))
            }
            var start = heapAllocated()
            var read: [[String: Data]] = []
            for partition in partitions { read.append(try store.read(partition).entries) }
            rows.append("parts: as read (Data) \((heapAllocated() - start) / users) B/user")
            start = heapAllocated()
            var decoded: [EntryStoreLayout.Entries] = []
            for (index, partition) in partitions.enumerated() {
                decoded.append(EntryStoreLayout.decode(read[index], of: partition).entries)
            }
            rows.append("parts: decoded entries \((heapAllocated() - start) / users) B/user")
            start = heapAllocated()
            var slices: [AccountSlice] = []
            for (index, entries) in decoded.enumerated() {
                slices.append(builder.slice(of: ScaleWorker.identifier(index).lowercased(), in: EntryStoreLayout.document(of: [entries])))
            }
            rows.append("parts: slices \((heapAllocated() - start) / users) B/user")
            start = heapAllocated()
            decoded = []
            rows.append("parts: slices without the entries \((heapAllocated() - start) / users) B/user (freed)")
            withExtendedLifetime((read, slices)) {}
        }

        // The storage alone: one look-up per user.
        var before = heapInUse()
        let allocatedBefore = heapAllocated()
        let storage = EntryStoreTokenCacheStorage(
            store: store, clientId: CacheFixture.clientId, checkInterval: 3600, lease: 30, clock: SystemClock(), memoryLimit: unlimited)
        for user in 0..<users {
            let slice = try storage.slice(of: ScaleWorker.identifier(user).lowercased(), checked: false, builder: builder).slice
            guard slice.refreshToken != nil else { throw EmulatorError("user \(user) not found") }
        }
        var heap = heapInUse() - before
        let allocated = heapAllocated() - allocatedBefore
        let counted = storage.heldBytes
        let raw = store.rawBytes
        rows.append(
            "storage alone: RSS \(heap / users) B/user, allocated \(allocated / users) B/user, counted \(counted / users) B/user, raw entries \(raw / users) B/user"
                + " (heap/counted \(format(Double(heap) / Double(max(1, counted)), 2)))")

        // An application serving each user once, as the worker's round robin does.
        before = heapInUse()
        let config = MSALPublicClientApplicationConfig(
            clientId: CacheFixture.clientId, redirectUri: nil, authority: try MSALCIAMAuthority(url: URL(string: CacheFixture.authority)!))
        config.tokenCacheLocation = .entryStore(store, checkInterval: 3600)
        config.tokenCacheMemoryLimit = unlimited
        let app = try MSALPublicClientApplication(configuration: config)
        for user in 0..<users {
            let account = try app.account(forIdentifier: ScaleWorker.identifier(user))
            let set = user % sets
            let result = try await app.acquireTokenSilent(
                with: MSALSilentTokenParameters(scopes: [CacheFixture.scope(set)], account: account))
            guard result.accessToken == CacheFixture.secret(account: user, scopeSet: set) else { throw EmulatorError("wrong token") }
        }
        heap = heapInUse() - before
        rows.append("application: RSS \(heap / users) B/user (heap/counted \(format(Double(heap) / Double(max(1, counted)), 2)))")
        withExtendedLifetime((storage, app)) { print(rows.joined(separator: "\n")) }
        return 0
    } catch {
        FileHandle.standardError.write(Data("held-cost: \(error)\n".utf8))
        return 1
    }
}

/// Bytes allocated and not freed (glibc's `mallinfo2().uordblks`), 0 where it cannot be asked. Looked
/// up by name (the Glibc module lacks malloc.h); its ten `size_t` come back through a pointer.
func heapAllocated() -> Int {
    #if arch(x86_64)
        typealias Info = @convention(c) (UnsafeMutablePointer<Int>) -> Void
        guard let function = dlsym(dlopen(nil, RTLD_NOW), "mallinfo2") else { return 0 }
        var fields = [Int](repeating: 0, count: 10)
        fields.withUnsafeMutableBufferPointer { unsafeBitCast(function, to: Info.self)($0.baseAddress!) }
        return fields[7]
    #else
        return 0
    #endif
}

/// Resident bytes now, after the allocator gave back what it could (`malloc_trim`): what holding costs the process.
func heapInUse() -> Int {
    typealias Trim = @convention(c) (Int) -> Int32
    if let trim = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") { _ = unsafeBitCast(trim, to: Trim.self)(0) }
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
        let pages = Int(statm.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// A store in memory that copies what it hands out (as a store across a network does), so that
/// what the cache holds is its own. Not thread-safe beyond its lock; no versions move after seeding.
private final class CopyingEntryStore: MSALTokenCacheEntryStore, @unchecked Sendable {
    private var partitions: [MSALTokenCachePartition: [String: Data]] = [:]
    private let lock = NSLock()

    var storeDescription: String { "a copying store in memory" }
    var rawBytes: Int {
        lock.withLock { partitions.values.reduce(0) { $0 + $1.reduce(0) { $0 + $1.key.utf8.count + $1.value.count } } }
    }

    func changeVersion(clientId: String) throws -> String? { "1" }
    func partitionVersions(clientId: String) throws -> [MSALTokenCachePartition: String] {
        lock.withLock { partitions.mapValues { _ in "1" } }
    }
    func entries(in partition: MSALTokenCachePartition) throws -> [String: Data] {
        lock.withLock {
            (partitions[partition] ?? [:]).reduce(into: [:]) {
                $0[String(decoding: Array($1.key.utf8), as: UTF8.self)] = Data(Array($1.value))
            }
        }
    }
    func version(of partition: MSALTokenCachePartition) throws -> String? { "1" }
    func read(_ partition: MSALTokenCachePartition) throws -> (version: String?, entries: [String: Data]) {
        ("1", try entries(in: partition))
    }
    func write(_ write: MSALTokenCacheEntryWrite) throws {
        lock.withLock {
            for key in write.remove { partitions[write.partition]?[key] = nil }
            for (key, value) in write.set { partitions[write.partition, default: [:]][key] = value.data }
        }
    }
    func removePartition(_ partition: MSALTokenCachePartition) throws { lock.withLock { partitions[partition] = nil } }
    func tryLock(_ partition: MSALTokenCachePartition, owner: String, lease: TimeInterval) throws -> Bool { true }
    func unlock(_ partition: MSALTokenCachePartition, owner: String) throws {}
}

/// `msal-benchmarks warm-loop USERS SECONDS`: the Redis scale figure's warm request (account by id +
/// acquireTokenSilent, a cached token) in a loop over 1,000 users held, against a store in memory
/// that is never asked while the users are trusted: for a profiler. Prints the p50 and p90 (µs).
func warmLoop(_ arguments: [String]) async -> Int32 {
    guard arguments.count == 2, let users = Int(arguments[0]), let seconds = Double(arguments[1]), users > 1 else { return 2 }
    do {
        let store = CopyingEntryStore()
        for first in stride(from: 0, to: users, by: 1_000) {
            let document = try TokenCacheDocument(
                json: try CacheFixture.document(accounts: first..<min(first + 1_000, users), scopeSets: 2))
            let partitions = EntryStoreLayout.partitions(of: document, clientId: CacheFixture.clientId)
            for write in EntryStoreLayout.plan(from: [:], to: partitions, now: Date()).writes { try store.write(write) }
        }
        let worker = ScaleWorker(url: "", users: users, seconds: seconds, memoryLimit: 128 << 20, interval: 3600, scopeSets: 2)
        let config = MSALPublicClientApplicationConfig(
            clientId: CacheFixture.clientId, redirectUri: nil, authority: try MSALCIAMAuthority(url: URL(string: CacheFixture.authority)!))
        config.tokenCacheLocation = .entryStore(store, checkInterval: 3600)
        let app = try MSALPublicClientApplication(configuration: config)
        let warmSet = Array((0..<users).shuffled().prefix(1_000))
        for user in warmSet { _ = try await worker.request(app, user) }
        // The request as the worker times it, its check against tokens made beforehand (making one
        // per request would be most of a profile).
        let identifiers = warmSet.map(ScaleWorker.identifier)
        let scopes = warmSet.map { [CacheFixture.scope($0 % 2)] }
        let secrets = warmSet.map { CacheFixture.secret(account: $0, scopeSet: $0 % 2) }
        var samples: [UInt64] = []
        try await worker.stage { _ in
            let index = Int.random(in: 0..<warmSet.count)
            let start = now()
            let account = try app.account(forIdentifier: identifiers[index])
            let result = try await app.acquireTokenSilent(with: MSALSilentTokenParameters(scopes: scopes[index], account: account))
            samples.append(now() - start)
            guard result.accessToken == secrets[index] else { throw EmulatorError("another user's token") }
        }
        print("warm: p50 \(format(quantile(samples, 0.5), 2)) µs, p90 \(format(quantile(samples, 0.9), 2)) µs (\(samples.count) requests)")
        return 0
    } catch {
        FileHandle.standardError.write(Data("warm-loop: \(error)\n".utf8))
        return 1
    }
}
