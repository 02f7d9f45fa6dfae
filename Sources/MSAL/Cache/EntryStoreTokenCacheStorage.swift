import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The token cache kept in an app's `MSALTokenCacheEntryStore` (a Redis server shared by several
/// machines), behind an in-memory copy (docs/decisions.md#shared-token-cache, docs/scale-out.md):
///
/// - the copy holds every partition of the client as last read, with its version; a look-up is
///   served from it without asking the store, unless `checkInterval` has passed since the last
///   check, the store reported a change (`observeChanges`), or a refresh lock was just taken;
/// - a check reads the client's change version; when it moved, the partition versions, and then
///   only the partitions whose version moved;
/// - `update` checks first, applies the change to the copy, and writes only the entries that
///   differ, partition by partition (`EntryStoreLayout.plan`): a write never names a partition
///   whose entries did not change;
/// - both find and install only what changed (`EntryStoreLayout.changes`, `replace`), so that a
///   write or another machine's change costs what the partitions it touched hold, whatever the
///   number of accounts in the cache;
/// - a store error becomes `cacheUnavailable` carrying the store's own error; the copy keeps serving
///   the tokens it holds until they expire, and every write fails.
package final class EntryStoreTokenCacheStorage: TokenCacheStorage {
    package let store: any MSALTokenCacheEntryStore
    package let clientId: String
    private let checkInterval: TimeInterval
    private let lease: TimeInterval
    private let clock: any NativeAuthClock
    private let state = Locked(State())
    private let notified: Locked<Bool>
    private let stopObserving: (@Sendable () -> Void)?

    private struct State {
        var loaded = false
        var changeVersion: String?
        var partitions: [MSALTokenCachePartition: Partition] = [:]
        var document = TokenCacheDocument()
        var generation: Int64 = 0
        /// When the store was last asked (monotonic nanoseconds).
        var checkedAt: UInt64 = 0
        /// The next load asks the store whatever the interval (a refresh lock was taken).
        var mustCheck = false
        var problem: SetupError?
    }

    private struct Partition {
        /// As last read; nil after this process wrote it (the next check reads it again).
        var version: String?
        var entries: EntryStoreLayout.Entries
    }

    /// `checkInterval`: how long the copy is trusted without asking the store (0: never).
    /// `lease`: how long a refresh lock lasts unless released.
    package init(
        store: any MSALTokenCacheEntryStore, clientId: String, checkInterval: TimeInterval, lease: TimeInterval, clock: any NativeAuthClock
    ) {
        self.store = store
        self.clientId = clientId
        self.checkInterval = checkInterval
        self.lease = lease
        self.clock = clock
        let notified = Locked(false)
        self.notified = notified
        stopObserving = store.observeChanges(clientId: clientId) { notified.withLock { $0 = true } }
    }

    deinit { stopObserving?() }

    // MARK: Reading

    package func load(ifChangedSince stamp: TokenCacheStamp?) throws(SetupError) -> TokenCacheSnapshot? {
        try state.withLock { (state) throws(SetupError) -> TokenCacheSnapshot? in
            if needsCheck(state) { try check(&state) }
            return snapshot(state, unless: stamp)
        }
    }

    /// Asks the store whatever the interval: a look-up that found nothing, or the list of accounts.
    package func loadChecked(ifChangedSince stamp: TokenCacheStamp?) throws(SetupError) -> TokenCacheSnapshot? {
        try state.withLock { (state) throws(SetupError) -> TokenCacheSnapshot? in
            try check(&state)
            return snapshot(state, unless: stamp)
        }
    }

    package var checksStore: Bool { true }

    private func snapshot(_ state: State, unless stamp: TokenCacheStamp?) -> TokenCacheSnapshot? {
        let current = TokenCacheStamp([state.generation])
        return current == stamp ? nil : TokenCacheSnapshot(document: state.document, stamp: current, problem: state.problem)
    }

    private func needsCheck(_ state: State) -> Bool {
        if !state.loaded || state.mustCheck || checkInterval <= 0 { return true }
        if notified.withLock({ $0 }) { return true }
        return Self.monotonicNanoseconds() &- state.checkedAt >= UInt64(checkInterval * 1e9)
    }

    /// Reads what changed since the last check into the copy. The copy changes only when every read
    /// succeeded; a failed check is not repeated before the interval (a store that is down is not
    /// asked on every look-up), unless a look-up demands it.
    private func check(_ state: inout State) throws(SetupError) {
        notified.withLock { $0 = false }
        state.checkedAt = Self.monotonicNanoseconds()
        state.mustCheck = false
        let version: String?
        let versions: [MSALTokenCachePartition: String]
        var read: [MSALTokenCachePartition: Partition] = [:]
        var rejected = 0
        do {
            version = try store.changeVersion(clientId: clientId)
            if state.loaded, version == state.changeVersion { return }
            versions = try store.partitionVersions(clientId: clientId).filter { $0.key.clientId == clientId }
            for (partition, partitionVersion) in versions where state.partitions[partition]?.version != partitionVersion {
                let decoded = EntryStoreLayout.decode(try store.entries(in: partition), of: partition)
                rejected += decoded.rejected
                read[partition] = Partition(version: partitionVersion, entries: decoded.entries)
            }
        } catch {
            throw failure("read the token cache from", error)
        }
        var changed: [MSALTokenCachePartition: Partition?] = read
        for partition in state.partitions.keys where versions[partition] == nil { changed[partition] = .some(nil) }
        state.loaded = true
        state.changeVersion = version
        install(changed, into: &state)
        state.problem =
            rejected == 0
            ? nil
            : SetupError(
                .invalidJSON,
                "The token cache in \(store.storeDescription) holds \(rejected) entries that are not this SDK's (not a cache entry, too large, or in another account's partition); they are ignored"
            )
        state.generation += 1
    }

    /// Puts `changed` partitions (nil: gone) into the copy and patches the document with their
    /// entries alone: the cost follows the partitions that changed, not the size of the cache.
    private func install(_ changed: [MSALTokenCachePartition: Partition?], into state: inout State) {
        for (partition, new) in changed {
            let old = state.partitions[partition]?.entries ?? [:]
            EntryStoreLayout.replace(partition, old, with: new?.entries ?? [:], in: &state.document)
            state.partitions[partition] = new
        }
    }

    // MARK: Writing

    package func update(_ change: (inout TokenCacheDocument) -> Void) throws(SetupError) -> TokenCacheSnapshot {
        try state.withLock { (state) throws(SetupError) -> TokenCacheSnapshot in
            try check(&state)
            var document = state.document
            change(&document)
            let partitions = state.partitions
            let touched = EntryStoreLayout.changes(from: state.document, to: document, clientId: clientId) {
                partitions[$0]?.entries ?? [:]
            }
            let plan = EntryStoreLayout.plan(from: touched.before, to: touched.after, now: clock.now())
            do {
                for write in plan.writes { try store.write(write) }
                for partition in plan.removals { try store.removePartition(partition) }
            } catch {
                // Some partitions may be written: read them all again at the next look-up.
                state.loaded = false
                throw failure("write the token cache to", error)
            }
            if !plan.entries.isEmpty {
                // The changed document becomes the copy, less what the plan dropped (expired access
                // tokens) and what a store does not keep (members that are not sections).
                for (partition, entries) in plan.entries {
                    EntryStoreLayout.replace(partition, touched.after[partition] ?? [:], with: entries, in: &document)
                    state.partitions[partition] = entries.isEmpty ? nil : Partition(version: nil, entries: entries)
                }
                document.otherMembers = [:]
                state.document = document
                state.generation += 1
            }
            return TokenCacheSnapshot(document: state.document, stamp: TokenCacheStamp([state.generation]))
        }
    }

    /// A lock per account partition with a lease; taking it makes the next look-up ask the store,
    /// so that the refresh finds what another machine wrote before it let go. When the store
    /// cannot be asked, the refresh goes on without it (its write then reports the failure).
    package func tryRefreshLock(_ name: String) -> (() -> Void)? {
        let partition = MSALTokenCachePartition(clientId: clientId, homeAccountId: name)
        let owner = UUID().uuidString
        let taken: Bool
        do {
            taken = try store.tryLock(partition, owner: owner, lease: lease)
        } catch {
            state.withLock { $0.mustCheck = true }
            return {}
        }
        guard taken else { return nil }
        state.withLock { $0.mustCheck = true }
        return { [store] in try? store.unlock(partition, owner: owner) }
    }

    private func failure(_ action: String, _ error: any Error) -> SetupError {
        let underlying = error as NSError
        return SetupError(
            .cacheUnavailable, "Cannot \(action) \(store.storeDescription): \(underlying.localizedDescription)", underlying: underlying)
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
