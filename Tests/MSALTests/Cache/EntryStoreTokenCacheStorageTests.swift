import Foundation
import MSAL
import NativeAuthTesting
import Testing

@testable import MSAL

/// The token cache over an entry store, storage by storage (each one a process on its own
/// machine) sharing one `InMemoryTokenCacheEntryStore`: merge by entry, partitions kept apart, the
/// in-memory copy and when it asks the store, locks, failures.
@Suite struct EntryStoreTokenCacheStorageTests {
    typealias L = EntryStoreLayoutTests
    static let adaPartition = L.partition(L.ada)
    static let gracePartition = L.partition(L.grace)

    struct Clock: NativeAuthClock {
        func now() -> Date { L.now }
        func sleep(seconds: Double) async throws {}
    }

    static func storage(_ store: InMemoryTokenCacheEntryStore, checkInterval: TimeInterval = 60) -> EntryStoreTokenCacheStorage {
        EntryStoreTokenCacheStorage(store: store, clientId: L.client, checkInterval: checkInterval, lease: 30, clock: Clock())
    }

    /// Puts `home`'s entries (`scope`'s access token, refresh token `rt`) into the document.
    static func add(_ home: String, scope: String, rt: String, to document: inout TokenCacheDocument) {
        let one = L.document([home], atScopes: [scope], rt: rt)
        for section in TokenCacheDocument.Section.allCases {
            for (key, entry) in one[section] { document[section][key] = entry }
        }
    }

    /// Ada's and Grace's entries, `read` access tokens and refresh tokens `rt`.
    static func bothAccounts(_ document: inout TokenCacheDocument) {
        add(L.ada, scope: "read", rt: "rt", to: &document)
        add(L.grace, scope: "read", rt: "rt", to: &document)
    }

    static func secret(_ document: TokenCacheDocument, _ section: TokenCacheDocument.Section, _ key: String) -> String? {
        document[section][key]?.string("secret")
    }

    @Test func twoWritersOfOneAccountAtOnceBothKeepTheirAccessTokens() throws {
        let store = InMemoryTokenCacheEntryStore()
        let first = Self.storage(store)
        let second = Self.storage(store)
        _ = try first.load(ifChangedSince: nil)
        _ = try second.load(ifChangedSince: nil)
        // The second machine writes between the first one's read and its change.
        let once = Locked(true)
        store.beforeChange = { partition in
            guard partition == Self.adaPartition,
                once.withLock({
                    let go = $0
                    $0 = false
                    return go
                })
            else { return }
            _ = try? second.update { Self.add(L.ada, scope: "write", rt: "rt-second", to: &$0) }
        }
        _ = try first.update { Self.add(L.ada, scope: "read", rt: "rt-first", to: &$0) }
        store.beforeChange = nil

        let third = try #require(try Self.storage(store).load(ifChangedSince: nil)).document
        let at = "\(L.ada)-host-accesstoken-\(L.client)-realm-"
        #expect(Self.secret(third, .accessToken, at + "read") == "at-\(L.ada)-read")
        #expect(Self.secret(third, .accessToken, at + "write") == "at-\(L.ada)-write", "the other machine's token survives")
        #expect(Self.secret(third, .refreshToken, "\(L.ada)-host-refreshtoken-\(L.client)--") == "rt-first-\(L.ada)", "the later write")
        // The first machine's own copy learns of the other's token at its next check.
        let seen = try #require(try first.loadChecked(ifChangedSince: nil)).document
        #expect(seen[.accessToken].count == 2)
    }

    @Test func oneAccountsWritesNeverTouchAnothersPartition() throws {
        let store = InMemoryTokenCacheEntryStore()
        let first = Self.storage(store)
        let second = Self.storage(store)
        _ = try first.update { Self.add(L.ada, scope: "read", rt: "rt-1", to: &$0) }
        let adaBefore = store.storedEntries(of: Self.adaPartition)
        store.clearOperations()
        _ = try second.update { Self.add(L.grace, scope: "read", rt: "rt-1", to: &$0) }
        _ = try second.update { Self.add(L.grace, scope: "write", rt: "rt-2", to: &$0) }
        _ = try second.update { document in
            document[.refreshToken] = document[.refreshToken].filter { $0.value.string("home_account_id") != L.grace }
        }
        #expect(store.storedEntries(of: Self.adaPartition) == adaBefore, "byte for byte")
        for operation in store.operations {
            switch operation {
            case .write(let write): #expect(write.partition != Self.adaPartition)
            case .removePartition(let partition): #expect(partition != Self.adaPartition)
            default: break
            }
        }
        #expect(store.operations.contains { if case .write(let write) = $0 { write.partition == Self.gracePartition } else { false } })
    }

    @Test func removingAnAccountRemovesItsPartitionOnly() throws {
        let store = InMemoryTokenCacheEntryStore()
        let storage = Self.storage(store)
        _ = try storage.update(Self.bothAccounts)
        _ = try storage.update { document in
            for section in [TokenCacheDocument.Section.accessToken, .refreshToken, .idToken, .account] {
                document[section] = document[section].filter { $0.value.string("home_account_id") != L.grace }
            }
        }
        #expect(store.partitions == [Self.adaPartition, L.partition(nil)])
        #expect(store.operations.contains(.removePartition(Self.gracePartition)))
    }

    @Test func aCopyIsServedWithoutAskingTheStoreUntilTheIntervalEnds() throws {
        let store = InMemoryTokenCacheEntryStore()
        let reader = Self.storage(store, checkInterval: 60)
        let writer = Self.storage(store)
        let stamp = try #require(try reader.load(ifChangedSince: nil)).stamp
        store.clearOperations()
        for _ in 0..<1000 { #expect(try reader.load(ifChangedSince: stamp) == nil) }
        #expect(store.operations.isEmpty, "no round trip on a hit")
        _ = try writer.update { Self.add(L.ada, scope: "read", rt: "rt", to: &$0) }
        #expect(try reader.load(ifChangedSince: stamp) == nil, "trusted until the interval ends")
        // A look-up that needs more (a miss, the list of accounts) asks at once.
        let seen = try #require(try reader.loadChecked(ifChangedSince: stamp))
        #expect(seen.document[.refreshToken].count == 1)
        // Nothing changed since: the store is asked for the change version only.
        store.clearOperations()
        #expect(try reader.loadChecked(ifChangedSince: seen.stamp) == nil)
        #expect(store.operations == [.changeVersion])
    }

    @Test func withNoIntervalEveryLoadAsks() throws {
        let store = InMemoryTokenCacheEntryStore()
        let reader = Self.storage(store, checkInterval: 0)
        let writer = Self.storage(store)
        let stamp = try #require(try reader.load(ifChangedSince: nil)).stamp
        _ = try writer.update { Self.add(L.ada, scope: "read", rt: "rt", to: &$0) }
        #expect(try reader.load(ifChangedSince: stamp)?.document[.refreshToken].count == 1)
    }

    @Test func aNotificationEndsTheTrustAtOnce() throws {
        let store = InMemoryTokenCacheEntryStore(notifies: true)
        let reader = Self.storage(store, checkInterval: 3600)
        let writer = Self.storage(store)
        let stamp = try #require(try reader.load(ifChangedSince: nil)).stamp
        _ = try writer.update { Self.add(L.ada, scope: "read", rt: "rt", to: &$0) }
        #expect(try reader.load(ifChangedSince: stamp)?.document[.refreshToken].count == 1)
    }

    @Test func onlyPartitionsThatChangedAreReadAgain() throws {
        let store = InMemoryTokenCacheEntryStore()
        let reader = Self.storage(store)
        let writer = Self.storage(store)
        _ = try writer.update(Self.bothAccounts)
        let stamp = try #require(try reader.load(ifChangedSince: nil)).stamp
        _ = try writer.update { Self.add(L.grace, scope: "write", rt: "rt-2", to: &$0) }
        store.clearOperations()
        _ = try reader.loadChecked(ifChangedSince: stamp)
        #expect(store.operations == [.changeVersion, .partitionVersions, .entries(Self.gracePartition)])
    }

    @Test func theRefreshLockExcludesOtherMachinesUntilReleasedOrItsLeaseEnds() throws {
        let now = Locked(L.now)
        let store = InMemoryTokenCacheEntryStore(now: { now.withLock { $0 } })
        let first = Self.storage(store)
        let second = Self.storage(store)
        let release = try #require(first.tryRefreshLock(L.ada))
        #expect(second.tryRefreshLock(L.ada) == nil)
        #expect(second.tryRefreshLock(L.grace) != nil, "one lock per account")
        release()
        let again = try #require(second.tryRefreshLock(L.ada))
        now.withLock { $0 += 31 } // the lease (30 s) ran out: a worker that died does not block the account
        #expect(first.tryRefreshLock(L.ada) != nil)
        again() // not the owner any more: releases nothing
        #expect(second.tryRefreshLock(L.ada) == nil)
    }

    @Test func takingTheRefreshLockMakesTheNextLoadAsk() throws {
        let store = InMemoryTokenCacheEntryStore()
        let reader = Self.storage(store, checkInterval: 3600)
        let writer = Self.storage(store)
        let stamp = try #require(try reader.load(ifChangedSince: nil)).stamp
        _ = try writer.update { Self.add(L.ada, scope: "read", rt: "rt-new", to: &$0) }
        let release = try #require(reader.tryRefreshLock(L.ada))
        defer { release() }
        let seen = try #require(try reader.load(ifChangedSince: stamp))
        #expect(Self.secret(seen.document, .refreshToken, "\(L.ada)-host-refreshtoken-\(L.client)--") == "rt-new-\(L.ada)")
    }

    @Test func aFailingStoreIsCacheUnavailableCarryingItsError() throws {
        let store = InMemoryTokenCacheEntryStore()
        let storage = Self.storage(store)
        store.failure = InMemoryTokenCacheEntryStore.Failure("connection refused")
        let readError = #expect(throws: SetupError.self) { try storage.load(ifChangedSince: nil) }
        #expect(readError?.code == .cacheUnavailable)
        #expect(readError?.message == "Cannot read the token cache from the in-memory test store: connection refused")
        #expect(readError?.underlying?.localizedDescription == "connection refused")
        let writeError = #expect(throws: SetupError.self) {
            try storage.update { Self.add(L.ada, scope: "read", rt: "rt-secret", to: &$0) }
        }
        #expect(writeError?.code == .cacheUnavailable)
        let writeMessage = writeError?.message ?? ""
        #expect(!writeMessage.contains("rt-secret"))
        // Back again: nothing was kept anywhere else meanwhile, and the next write goes to the store.
        store.failure = nil
        #expect(try storage.load(ifChangedSince: nil)?.document.isEmpty == true)
        _ = try storage.update { Self.add(L.ada, scope: "read", rt: "rt", to: &$0) }
        #expect(store.partitions.contains(Self.adaPartition))
    }

    @Test func entriesThatAreNotOursAreIgnoredAndReported() throws {
        let store = InMemoryTokenCacheEntryStore()
        _ = try Self.storage(store).update { Self.add(L.ada, scope: "read", rt: "rt", to: &$0) }
        store.inject(Data("not json".utf8), key: "RefreshToken:garbage", into: Self.adaPartition)
        let snapshot = try #require(try Self.storage(store).load(ifChangedSince: nil))
        #expect(snapshot.document[.refreshToken].count == 1)
        let problem = try #require(snapshot.problem)
        #expect(problem.message.contains("1 entries that are not this SDK's"))
        #expect(!problem.message.contains("not json"))
    }

    // MARK: The copy, changed partition by partition

    /// What a machine that never read before makes of the store now.
    static func fresh(_ store: InMemoryTokenCacheEntryStore) throws -> TokenCacheDocument {
        try #require(try Self.storage(store).load(ifChangedSince: nil)).document
    }

    @Test func anotherMachinesSignOutLeavesTheCopyAndTheOtherAccountStays() throws {
        let store = InMemoryTokenCacheEntryStore()
        let reader = Self.storage(store)
        let writer = Self.storage(store)
        _ = try writer.update(Self.bothAccounts)
        let stamp = try #require(try reader.load(ifChangedSince: nil)).stamp
        _ = try writer.update { document in
            for section in [TokenCacheDocument.Section.accessToken, .refreshToken, .idToken, .account] {
                document[section] = document[section].filter { $0.value.string("home_account_id") != L.grace }
            }
        }
        let seen = try #require(try reader.loadChecked(ifChangedSince: stamp)).document
        #expect(seen == L.document([L.ada], rt: "rt"), "grace's entries gone, ada's and the app metadata intact")
        #expect(seen == (try Self.fresh(store)))
    }

    @Test func anotherMachinesChangeToOneAccountLeavesTheOthersEntriesIntact() throws {
        let store = InMemoryTokenCacheEntryStore()
        let reader = Self.storage(store)
        let writer = Self.storage(store)
        _ = try writer.update(Self.bothAccounts)
        let stamp = try #require(try reader.load(ifChangedSince: nil)).stamp
        _ = try writer.update { Self.add(L.ada, scope: "write", rt: "rt-2", to: &$0) }
        let seen = try #require(try reader.loadChecked(ifChangedSince: stamp)).document
        var expected = L.document([L.grace], rt: "rt")
        Self.add(L.ada, scope: "read", rt: "rt", to: &expected)
        Self.add(L.ada, scope: "write", rt: "rt-2", to: &expected)
        #expect(seen == expected)
        #expect(seen == (try Self.fresh(store)))
    }

    @Test func aWriteThatMovesAnEntryToAnotherAccountChangesBothPartitions() throws {
        let store = InMemoryTokenCacheEntryStore()
        let storage = Self.storage(store)
        _ = try storage.update(Self.bothAccounts)
        let key = "\(L.ada)-host-accesstoken-\(L.client)-realm-read"
        let written = try storage.update { $0[.accessToken][key]?["home_account_id"] = .string(L.grace) }
        #expect(store.storedEntries(of: Self.adaPartition)["AccessToken:" + key] == nil)
        #expect(store.storedEntries(of: Self.gracePartition)["AccessToken:" + key] != nil)
        #expect(written.document == (try Self.fresh(store)))
    }

    /// A small seeded generator, so that a failure replays.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Three machines write, refresh, move and sign out six accounts at random; after every step
    /// each machine's copy (patched partition by partition) is what a fresh read of the store gives.
    @Test(arguments: [1, 2, 3] as [UInt64]) func everyCopyEqualsAFreshReadAfterAnyChange(seed: UInt64) throws {
        var random = SplitMix(state: seed)
        let store = InMemoryTokenCacheEntryStore()
        let machines = (0..<3).map { _ in Self.storage(store) }
        let accounts = (0..<6).map { "uid-\($0).utid" }
        for step in 0..<150 {
            let machine = machines.randomElement(using: &random)!
            let home = accounts.randomElement(using: &random)!
            let scope = ["read", "write", "mail"].randomElement(using: &random)!
            let written = try machine.update { document in
                switch Int.random(in: 0..<6, using: &random) {
                case 0, 1: Self.add(home, scope: scope, rt: "rt-\(step)", to: &document)
                case 2:
                    for section in [TokenCacheDocument.Section.accessToken, .refreshToken, .idToken, .account] {
                        document[section] = document[section].filter { $0.value.string("home_account_id") != home }
                    }
                case 3:
                    // An access token already expired: dropped from the partition it was written to.
                    var one = L.document([home], atScopes: [scope], expiresOn: L.now.timeIntervalSince1970 - 1)
                    Self.add(home, scope: "read", rt: "rt-\(step)", to: &one)
                    for (key, entry) in one[.accessToken] { document[.accessToken][key] = entry }
                case 4:
                    // An entry moved to another account's partition.
                    if let key = document[.accessToken].keys.sorted().first {
                        document[.accessToken][key]?["home_account_id"] = .string(accounts.randomElement(using: &random)!)
                    }
                default:
                    if let key = document[.accessToken].keys.sorted().last { document[.accessToken][key] = nil }
                }
            }
            let expected = try Self.fresh(store)
            #expect(written.document == expected, "the writer's copy, step \(step)")
            for (index, other) in machines.enumerated() {
                let seen = try #require(try other.loadChecked(ifChangedSince: nil)).document
                #expect(seen == expected, "machine \(index), step \(step)")
            }
        }
    }
}
