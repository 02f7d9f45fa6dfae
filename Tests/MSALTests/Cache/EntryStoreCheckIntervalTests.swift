import Foundation
import MSAL
import NativeAuthTesting
import Testing

@testable import MSAL

/// The check interval of the token cache over an entry store lapses: a copy served from memory
/// while it is trusted is checked against the store once `checkInterval` has passed, so that
/// another machine's refresh or sign-out reaches a call that would otherwise be served from memory.
/// The interval's clock is the storage's `uptime`, advanced by the test.
@Suite struct EntryStoreCheckIntervalTests {
    typealias L = EntryStoreLayoutTests
    typealias S = EntryStoreTokenCacheStorageTests
    static let builder = AccountSliceBuilder(clientId: L.client, environment: "host", realm: "realm")
    static let refreshKey = "\(L.ada)-host-refreshtoken-\(L.client)--"

    /// Monotonic nanoseconds that only the test moves.
    final class Uptime: Sendable {
        let nanoseconds = Locked<UInt64>(1_000_000_000)
        func advance(_ seconds: Double) { nanoseconds.withLock { $0 += UInt64(seconds * 1e9) } }
    }

    static func storage(_ store: InMemoryTokenCacheEntryStore, _ uptime: Uptime) -> EntryStoreTokenCacheStorage {
        EntryStoreTokenCacheStorage(
            store: store, clientId: L.client, checkInterval: 60, lease: 30, clock: S.Clock(), uptime: { uptime.nanoseconds.withLock { $0 } }
        )
    }

    /// Ada's refresh token `rt` at this environment (what a slice reads), with her account record.
    static func refresh(_ rt: String, _ document: inout TokenCacheDocument) {
        document[.refreshToken][refreshKey] = [
            "home_account_id": .string(L.ada), "secret": .string(rt), "client_id": .string(L.client), "environment": .string("host"),
        ]
        document[.account]["\(L.ada)-host-realm"] = ["home_account_id": .string(L.ada), "environment": .string("host")]
    }

    static func signOut(_ document: inout TokenCacheDocument) {
        for section in TokenCacheDocument.Section.allCases {
            document[section] = document[section].filter { $0.value.string("home_account_id") != L.ada }
        }
    }

    @Test func anotherMachinesRefreshAndSignOutReachTheAccountOnceTheIntervalHasPassed() throws {
        let store = InMemoryTokenCacheEntryStore()
        let uptime = Uptime()
        let reader = Self.storage(store, uptime)
        let writer = Self.storage(store, Uptime())
        _ = try writer.update { Self.refresh("rt-1", &$0) }
        #expect(try reader.slice(of: L.ada, checked: false, builder: Self.builder).slice.refreshToken == "rt-1")

        // Another machine refreshes: within the interval the copy is served without asking.
        _ = try writer.update { Self.refresh("rt-2", &$0) }
        uptime.advance(59)
        store.clearOperations()
        #expect(try reader.slice(of: L.ada, checked: false, builder: Self.builder).slice.refreshToken == "rt-1")
        #expect(store.operations.isEmpty, "served from memory")
        // Once it has passed, the same call asks the store and sees the refresh.
        uptime.advance(2)
        #expect(try reader.slice(of: L.ada, checked: false, builder: Self.builder).slice.refreshToken == "rt-2")
        #expect(!store.operations.isEmpty)

        // Another machine signs the account out: the same, to no refresh token at all.
        _ = try writer.update(Self.signOut)
        uptime.advance(30)
        #expect(try reader.slice(of: L.ada, checked: false, builder: Self.builder).slice.refreshToken == "rt-2")
        uptime.advance(31)
        #expect(try reader.slice(of: L.ada, checked: false, builder: Self.builder).slice.refreshToken == nil)
    }

    @Test func theWholeCacheIsCheckedAgainOnceTheIntervalHasPassed() throws {
        let store = InMemoryTokenCacheEntryStore()
        let uptime = Uptime()
        let reader = Self.storage(store, uptime)
        let writer = Self.storage(store, Uptime())
        _ = try writer.update { Self.refresh("rt-1", &$0) }
        let first = try #require(try reader.load(ifChangedSince: nil))
        #expect(S.secret(first.document, .refreshToken, Self.refreshKey) == "rt-1")

        _ = try writer.update { Self.refresh("rt-2", &$0) }
        uptime.advance(59)
        #expect(try reader.load(ifChangedSince: first.stamp) == nil, "trusted within the interval")
        uptime.advance(2)
        let refreshed = try #require(try reader.load(ifChangedSince: first.stamp), "checked once it has passed")
        #expect(S.secret(refreshed.document, .refreshToken, Self.refreshKey) == "rt-2")

        _ = try writer.update(Self.signOut)
        uptime.advance(59)
        #expect(try reader.load(ifChangedSince: refreshed.stamp) == nil)
        uptime.advance(2)
        let signedOut = try #require(try reader.load(ifChangedSince: refreshed.stamp))
        #expect(signedOut.document[.refreshToken].isEmpty && signedOut.document[.account].isEmpty)
    }
}
