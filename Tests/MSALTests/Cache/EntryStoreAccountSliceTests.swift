import Foundation
import MSAL
import NativeAuthTesting
import Testing

@testable import MSAL

/// The entry-store cache one account at a time, as a backend's requests use it
/// (Sources/MSAL/Cache/EntryStore/EntryStoreTokenCacheStorage.swift): a request reads its own account's
/// partition alone, the partitions held stay under the memory limit with the least recently served
/// dropped, and a held copy is trusted only as long as it may be.
@Suite struct EntryStoreAccountSliceTests {
    typealias L = EntryStoreLayoutTests
    static let builder = AccountSliceBuilder(clientId: L.client, environment: "host", realm: "realm")

    struct Clock: NativeAuthClock {
        func now() -> Date { L.now }
        func sleep(seconds: Double) async throws {}
    }

    /// One machine's cache over `store`; `uptime` is its monotonic clock, in nanoseconds.
    static func storage(
        _ store: InMemoryTokenCacheEntryStore, memoryLimit: Int = EntryStoreTokenCacheStorage.defaultMemoryLimit,
        checkInterval: TimeInterval = 60, uptime: Locked<UInt64> = Locked(1)
    ) -> EntryStoreTokenCacheStorage {
        EntryStoreTokenCacheStorage(
            store: store, clientId: L.client, checkInterval: checkInterval, lease: 30, clock: Clock(), memoryLimit: memoryLimit,
            uptime: { uptime.withLock { $0 } })
    }

    static func home(_ number: Int) -> String { "uid\(number).utid" }

    /// Signs `home` in on `storage`: its account record, id token, refresh token `rt-HOME` and a
    /// `read` access token, as a sign-in writes them.
    static func signIn(_ home: String, rt: String = "rt", on storage: EntryStoreTokenCacheStorage) throws {
        let problem = try storage.update(account: home, builder: builder) { document in
            let common: TokenCacheEntry = [
                "home_account_id": .string(home), "environment": .string("host"), "client_id": .string(L.client),
                "realm": .string("realm"),
            ]
            var at = common
            (at["secret"], at["target"], at["expires_on"]) = (.string("at-\(home)"), .string("read"), .string("1800003600"))
            document[.accessToken]["\(home)-host-accesstoken-\(L.client)-realm-read"] = at
            var refresh = common
            (refresh["secret"], refresh["last_modification_time"]) = (.string("\(rt)-\(home)"), .string("1800000000"))
            document[.refreshToken]["\(home)-host-refreshtoken-\(L.client)--"] = refresh
            var id = common
            id["secret"] = .string("id-\(home)")
            document[.idToken]["\(home)-host-idtoken-\(L.client)-realm-"] = id
            document[.account]["\(home)-host-realm"] = [
                "home_account_id": .string(home), "environment": .string("host"), "username": .string("\(home)@example.com"),
            ]
        }
        #expect(problem == nil)
    }

    static func slice(_ number: Int, of storage: EntryStoreTokenCacheStorage) throws -> AccountSlice {
        try storage.slice(of: home(number), checked: false, builder: builder).slice
    }

    /// Reads of partitions, by account number.
    static func reads(_ store: InMemoryTokenCacheEntryStore) -> [String] {
        store.operations.map { operation in
            switch operation {
            case .read(let partition): return "read \(partition.homeAccountId ?? "client")"
            case .version(let partition): return "version \(partition.homeAccountId ?? "client")"
            default: return "\(operation)"
            }
        }
    }

    @Test func aRequestReadsItsOwnAccountAloneInOneCallThenServesItFromMemory() throws {
        let store = InMemoryTokenCacheEntryStore()
        let writer = Self.storage(store)
        for number in 0..<50 { try Self.signIn(Self.home(number), on: writer) }
        let worker = Self.storage(store)
        store.clearOperations()

        let seven = try Self.slice(7, of: worker)
        #expect(Self.reads(store) == ["read uid7.utid"])
        #expect(seven.accounts.map(\.username) == ["uid7.utid@example.com"])
        #expect(seven.refreshToken == "rt-uid7.utid")
        #expect(worker.heldPartitions == [L.partition("uid7.utid")])
        store.clearOperations()
        #expect(try Self.slice(7, of: worker).refreshToken == "rt-uid7.utid")
        #expect(store.operations.isEmpty, "trusted within the interval")
    }

    @Test func anAccountTheStoreDoesNotHoldIsEmptyNeverAnother() throws {
        let store = InMemoryTokenCacheEntryStore()
        let worker = Self.storage(store)
        for number in 0..<3 { try Self.signIn(Self.home(number), on: worker) }
        for unknown in ["uid9.utid", "uid1", "uid1.utid.", "UID1.UTID-other"] {
            let found = try worker.slice(of: unknown.lowercased(), checked: false, builder: Self.builder).slice
            #expect(found.accounts.isEmpty && found.refreshToken == nil, "\(unknown)")
        }
        #expect(try Self.slice(1, of: worker).accounts.map(\.homeAccountId) == ["uid1.utid"])
    }

    /// The bytes one account's partition takes in memory (all accounts here are the same size).
    static func partitionBytes() throws -> Int {
        let store = InMemoryTokenCacheEntryStore()
        try signIn(home(0), on: storage(store))
        let reader = storage(store)
        _ = try slice(0, of: reader)
        return reader.heldBytes
    }

    /// The limit counts what a held partition costs in memory, never less than what it is known to
    /// hold: its entries' texts (at least their bytes as stored) and the strings its slice copied out.
    @Test func aHeldPartitionCountsAtLeastWhatItHolds() throws {
        let store = InMemoryTokenCacheEntryStore()
        try Self.signIn(Self.home(0), on: Self.storage(store))
        let reader = Self.storage(store)
        let slice = try Self.slice(0, of: reader)
        let partition = L.partition(Self.home(0))
        let stored = store.storedEntries(of: partition)
        let raw = stored.reduce(0) { $0 + $1.key.utf8.count + $1.value.data.count }
        let entries = EntryStoreLayout.decode(stored.mapValues(\.data), of: partition).entries
        let texts = entries.reduce(0) { $0 + $1.key.utf8.count + $1.value.textHeapBytes }
        #expect(texts >= raw)
        let copied =
            slice.accounts.reduce(0) { $0 + $1.homeAccountId.utf8.count + ($1.username?.utf8.count ?? 0) + ($1.idToken?.utf8.count ?? 0) }
            + (slice.refreshToken?.utf8.count ?? 0)
            + slice.accessTokens.reduce(0) { $0 + $1.account.utf8.count + $1.scopeSet.key.utf8.count }
        #expect(copied > 0)
        #expect(reader.heldBytes >= texts + copied, "held \(reader.heldBytes) B, its texts \(texts) B, its slice's strings \(copied) B")
    }

    @Test func pastTheLimitTheLeastRecentlyServedGoAndCostOneReadWhenServedAgain() throws {
        let bytes = try Self.partitionBytes()
        #expect(bytes > 0)
        let store = InMemoryTokenCacheEntryStore()
        let writer = Self.storage(store)
        for number in 0..<5 { try Self.signIn(Self.home(number), on: writer) }
        // Room for three partitions and a half.
        let worker = Self.storage(store, memoryLimit: bytes * 7 / 2)
        for number in [0, 1, 2, 0, 3] { _ = try Self.slice(number, of: worker) }
        // 1 was served least recently: it went when 3 came.
        #expect(worker.heldPartitions == Set([0, 2, 3].map { L.partition(Self.home($0)) }))
        #expect(worker.heldBytes <= bytes * 7 / 2)
        store.clearOperations()
        #expect(try Self.slice(1, of: worker).refreshToken == "rt-uid1.utid")
        #expect(Self.reads(store) == ["read uid1.utid"], "one read for the dropped account")
        store.clearOperations()
        #expect(try Self.slice(0, of: worker).refreshToken == "rt-uid0.utid")
        #expect(store.operations.isEmpty, "the recently served stay")
        #expect(worker.heldBytes <= bytes * 7 / 2)
    }

    @Test func aDroppedAccountWrittenMeanwhileIsServedAsWritten() throws {
        let bytes = try Self.partitionBytes()
        let store = InMemoryTokenCacheEntryStore()
        let worker = Self.storage(store, memoryLimit: bytes * 2)
        let other = Self.storage(store)
        for number in 0..<4 { try Self.signIn(Self.home(number), on: other) }
        try Self.signIn(Self.home(0), rt: "mine", on: worker)
        for number in 1..<4 { _ = try Self.slice(number, of: worker) }
        #expect(!worker.heldPartitions.contains(L.partition(Self.home(0))))
        try Self.signIn(Self.home(0), rt: "other", on: other)
        #expect(try Self.slice(0, of: worker).refreshToken == "other-uid0.utid")
        // This worker's own write after it is dropped again is what it then serves.
        try Self.signIn(Self.home(0), rt: "again", on: worker)
        for number in 1..<4 { _ = try Self.slice(number, of: worker) }
        #expect(try Self.slice(0, of: worker).refreshToken == "again-uid0.utid")
    }

    @Test func aHeldCopyIsTrustedForTheIntervalThenCheckedAndReadIfItMoved() throws {
        let store = InMemoryTokenCacheEntryStore()
        let clock = Locked<UInt64>(1)
        let worker = Self.storage(store, checkInterval: 2, uptime: clock)
        let other = Self.storage(store)
        try Self.signIn(Self.home(0), on: other)
        try Self.signIn(Self.home(1), on: other)
        _ = try Self.slice(0, of: worker)
        _ = try Self.slice(1, of: worker)
        try Self.signIn(Self.home(0), rt: "refreshed", on: other)
        store.clearOperations()
        clock.withLock { $0 += 1_900_000_000 }
        #expect(try Self.slice(0, of: worker).refreshToken == "rt-uid0.utid", "within the interval")
        #expect(store.operations.isEmpty)
        clock.withLock { $0 += 200_000_000 }
        #expect(try Self.slice(0, of: worker).refreshToken == "refreshed-uid0.utid", "the interval is over")
        #expect(Self.reads(store) == ["version uid0.utid", "read uid0.utid"])
        // The other account did not move: its version alone is asked.
        store.clearOperations()
        #expect(try Self.slice(1, of: worker).refreshToken == "rt-uid1.utid")
        #expect(Self.reads(store) == ["version uid1.utid"])
        // Signed out elsewhere: gone here once checked.
        _ = try other.update(account: Self.home(1), builder: Self.builder) { document in
            for section in TokenCacheDocument.Section.allCases { document[section] = [:] }
        }
        clock.withLock { $0 += 2_100_000_000 }
        #expect(try Self.slice(1, of: worker).accounts.isEmpty)
    }

    @Test func aNotificationFromTheStoreEndsTheTrustInEveryHeldAccount() throws {
        let store = InMemoryTokenCacheEntryStore(notifies: true)
        let worker = Self.storage(store)
        let other = Self.storage(store)
        try Self.signIn(Self.home(0), on: other)
        _ = try Self.slice(0, of: worker)
        try Self.signIn(Self.home(0), rt: "refreshed", on: other)
        #expect(try Self.slice(0, of: worker).refreshToken == "refreshed-uid0.utid")
    }
}
