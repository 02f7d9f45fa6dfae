import Foundation
import MSAL
import NativeAuthTesting
import Testing

@testable import MSAL

/// The entry-store cache over a store that reports changes (Sources/MSAL/Cache/EntryStore/ChangeWatch.swift):
/// while the store tracks, a held account is served without asking the store until the store names
/// it; a change reported while a read is on its way is not lost; a gap in the tracking falls back to
/// the check interval, for what was read before it and during it.
@Suite struct EntryStoreTrackingTests {
    typealias S = EntryStoreAccountSliceTests
    typealias L = EntryStoreLayoutTests

    /// Accounts 0 and 1 count their changes apart, so that one's change costs the other nothing.
    static func requireDistinctBuckets() throws {
        try #require(ChangeWatch.bucket(of: L.partition(S.home(0))) != ChangeWatch.bucket(of: L.partition(S.home(1))))
    }

    /// A store that tracks; a worker over it with a 2 s interval on `clock`, and another machine.
    static func machines() -> (
        store: InMemoryTokenCacheEntryStore, clock: Locked<UInt64>, worker: EntryStoreTokenCacheStorage, other: EntryStoreTokenCacheStorage
    ) {
        let store = InMemoryTokenCacheEntryStore(notifies: true)
        let clock = Locked<UInt64>(1)
        return (store, clock, S.storage(store, checkInterval: 2, uptime: clock), S.storage(store))
    }

    @Test func whileTheStoreTracksAHeldAccountIsServedPastTheIntervalUntilItChanges() throws {
        try Self.requireDistinctBuckets()
        let (store, clock, worker, other) = Self.machines()
        try S.signIn(S.home(0), on: other)
        try S.signIn(S.home(1), on: other)
        _ = try S.slice(0, of: worker)
        _ = try S.slice(1, of: worker)
        clock.withLock { $0 += 3_600_000_000_000 }
        store.clearOperations()
        #expect(try S.slice(0, of: worker).refreshToken == "rt-uid0.utid")
        #expect(store.operations.isEmpty, "tracked: trusted past the interval")

        try S.signIn(S.home(1), rt: "refreshed", on: other)
        store.clearOperations()
        #expect(try S.slice(0, of: worker).refreshToken == "rt-uid0.utid")
        #expect(store.operations.isEmpty, "another account's change costs nothing")
        #expect(try S.slice(1, of: worker).refreshToken == "refreshed-uid1.utid")
        #expect(S.reads(store) == ["read uid1.utid"], "a reported change: one read, no version first")
        store.clearOperations()
        _ = try S.slice(1, of: worker)
        #expect(store.operations.isEmpty, "trusted again once read")

        _ = try other.update(account: S.home(0), builder: S.builder) { document in
            for section in TokenCacheDocument.Section.allCases { document[section] = [:] }
        }
        #expect(try S.slice(0, of: worker).accounts.isEmpty, "signed out elsewhere: not served here")
    }

    @Test func aChangeOfEverythingEndsTheTrustInEveryHeldAccountAndTheList() {
        var watch = ChangeWatch()
        watch.apply(.tracking)
        let buckets = [0, 1].map { ChangeWatch.bucket(of: L.partition(S.home($0))) }
        let before = buckets.map { watch.stamp(bucket: $0) }
        let whole = watch.whole
        watch.apply(.changedAll)
        for (bucket, stamp) in zip(buckets, before) { #expect(!stamp.unchanged(watch.stamp(bucket: bucket))) }
        #expect(whole.any != watch.whole.any)
    }

    @Test func aChangeReportedWhileTheReadIsOnItsWayIsNotLost() throws {
        let store = InMemoryTokenCacheEntryStore(notifies: true)
        let worker = S.storage(store, checkInterval: 3600)
        let other = S.storage(store)
        try S.signIn(S.home(0), on: other)
        let once = Locked(true)
        store.afterRead = { _ in
            let first = once.withLock { first in
                defer { first = false }
                return first
            }
            guard first else { return }
            try? S.signIn(S.home(0), rt: "meanwhile", on: other)
        }
        #expect(try S.slice(0, of: worker).refreshToken == "rt-uid0.utid", "as read, before the change")
        #expect(try S.slice(0, of: worker).refreshToken == "meanwhile-uid0.utid")
    }

    @Test func aGapInTheTrackingFallsBackToTheIntervalForWhatWasReadBeforeAndDuringIt() throws {
        let (store, clock, worker, other) = Self.machines()
        try S.signIn(S.home(0), on: other)
        try S.signIn(S.home(1), on: other)
        _ = try S.slice(0, of: worker)
        clock.withLock { $0 += 3_600_000_000_000 }

        // Read long ago under tracking, changed during a gap: checked at once, during the gap or after.
        store.interruptTracking()
        try S.signIn(S.home(0), rt: "unreported", on: other)
        store.resumeTracking()
        #expect(try S.slice(0, of: worker).refreshToken == "unreported-uid0.utid")
        store.interruptTracking()

        // Read during the gap, changed unreported, tracking back: trusted for the interval only.
        _ = try S.slice(1, of: worker)
        try S.signIn(S.home(1), rt: "unreported", on: other)
        store.resumeTracking()
        clock.withLock { $0 += 2_100_000_000 }
        #expect(try S.slice(1, of: worker).refreshToken == "unreported-uid1.utid")
    }

    @Test func aCopyKeptThroughAFailedReadIsTrustedForTheIntervalOnlyThoughTheStoreTracks() throws {
        let (store, clock, worker, other) = Self.machines()
        try S.signIn(S.home(0), on: other)
        _ = try S.slice(0, of: worker)
        try S.signIn(S.home(0), rt: "refreshed", on: other)
        store.failure = InMemoryTokenCacheEntryStore.Failure("down")
        let kept = try worker.slice(of: S.home(0), checked: false, builder: S.builder)
        #expect(kept.slice.refreshToken == "rt-uid0.utid" && kept.problem != nil, "the copy held keeps serving, with the failure")
        store.failure = nil
        clock.withLock { $0 += 2_100_000_000 }
        #expect(try S.slice(0, of: worker).refreshToken == "refreshed-uid0.utid")
    }

    @Test func whileTheStoreTracksTheListOfAccountsIsAskedForOnlyAfterAChange() throws {
        let store = InMemoryTokenCacheEntryStore(notifies: true)
        let clock = Locked<UInt64>(1)
        let reader = S.storage(store, checkInterval: 2, uptime: clock)
        let writer = S.storage(store)
        try S.signIn(S.home(0), on: writer)
        let stamp = try #require(try reader.load(ifChangedSince: nil)).stamp
        clock.withLock { $0 += 3_600_000_000_000 }
        store.clearOperations()
        #expect(try reader.load(ifChangedSince: stamp) == nil)
        #expect(store.operations.isEmpty, "tracked: no check after the interval")
        store.interruptTracking()
        try S.signIn(S.home(1), on: writer)
        store.resumeTracking()
        #expect(try reader.load(ifChangedSince: stamp)?.document[.refreshToken].count == 2, "a gap: checked after the interval")
    }
}
