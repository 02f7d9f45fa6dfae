import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The token cache kept in an app's `MSALTokenCacheEntryStore` (a Redis server shared by several
/// machines), behind an in-memory layer of partitions (docs/decisions.md#shared-token-cache,
/// docs/scale-out.md):
///
/// - **A request reads its own account.** `slice(of:)` serves an account from the partition held in
///   memory while it is trusted: until the store reports a change of it (`observeChanges`), for as
///   long as the store tracks changes without a break (`ChangeWatch`), else for `checkInterval`
///   after it was last checked; and until a refresh lock on it is taken. Then it asks the store for
///   that partition's version alone, and reads the partition again only when the version moved. An account not held is read with its version in one call (`read(_:)`). No request
///   reads another account's partition or the client's list of partitions.
/// - **Bounded.** The partitions held add up to at most `memoryLimit` bytes of memory, each counted
///   at its measured cost (`Held.cost`); past it, the least recently served are dropped, and cost
///   one read when next served.
/// - **Never under the lock.** Store calls of the account path run outside the layer's lock, so a
///   cold account's read never holds up another account's hit.
/// - **Writes merge by entry.** `update(account:)` reads the account's partition (and the client's)
///   from the store, applies the change, and writes only the entries that differ
///   (`EntryStoreLayout.plan`).
/// - **The whole cache** (`load`, `update(_:)`: the list of accounts, a sign-in that signs the
///   others out) reads every partition whose version moved, through the client's change version
///   and the partition versions; it is linear in the accounts, as a listing is.
/// - A store error becomes `cacheUnavailable` carrying the store's own error; a partition held
///   keeps serving the tokens it holds until they expire, and every write fails.
/// - **One operation, one deadline.** What one look-up, write or listing asks of the store runs
///   inside `store.operation(_:)`, so that a store with a timeout bounds it as a whole.
package final class EntryStoreTokenCacheStorage: AccountScopedTokenCacheStorage {
    package let store: any MSALTokenCacheEntryStore
    package let clientId: String
    let checkInterval: TimeInterval
    private let lease: TimeInterval
    let clock: any NativeAuthClock
    /// Monotonic nanoseconds, for the check interval (tests pass their own).
    let uptime: @Sendable () -> UInt64
    /// The most bytes of memory the partitions held take (`Held.cost`).
    package let memoryLimit: Int
    let state = Locked(State())
    /// What the store reported about changes: a partition read before a change of it is no longer
    /// trusted. Its own lock, so that a report never waits for the store calls of the whole cache.
    let watch: Locked<ChangeWatch>
    private let stopObserving: (@Sendable () -> Void)?

    /// The memory held by default: about 7,500 accounts of 4.6 KB as stored (docs/scale-out.md).
    package static let defaultMemoryLimit = 128 << 20

    typealias Entries = EntryStoreLayout.Entries

    struct State {
        var partitions: [MSALTokenCachePartition: Held] = [:]
        var heldBytes = 0
        /// Counts look-ups, for the least recently served.
        var tick: UInt64 = 0
        /// Bumped whenever a partition held changes: the whole document's stamp.
        var generation: Int64 = 0
        /// The whole cache: every partition of the client is held, as of `changeVersion`.
        var complete = false
        var changeVersion: String?
        /// When the whole cache was last checked (monotonic nanoseconds), and the watch then.
        var checkedAt: UInt64 = 0
        var checkedWatch = ChangeWatch.Whole(epoch: 0, tracking: false, any: 0)
        /// The next whole load asks the store whatever the interval (a refresh lock was taken).
        var mustCheck = false
        var problem: SetupError?
    }

    struct Held {
        /// As last read; nil after this process wrote it (the next check reads it again).
        var version: String?
        var entries: Entries
        /// What holding it costs in memory (`Held.cost`, set by `hold`); given as the bytes stored.
        var bytes: Int
        /// When this partition was last checked, and the watch just before.
        var checkedAt: UInt64
        var stamp: ChangeWatch.Stamp
        /// The next look-up asks the store (a refresh lock was taken).
        var mustCheck = false
        var used: UInt64 = 0
        /// Writes this process made; a read that began before one is not installed over it.
        var writes: UInt64 = 0
        var slice: AccountSlice?
    }

    /// `checkInterval`: how long a partition is trusted without asking the store (0: never).
    /// `lease`: how long a refresh lock lasts unless released. `memoryLimit`: the most bytes of
    /// entries held in memory. `uptime`: monotonic nanoseconds, for the interval.
    package init(
        store: any MSALTokenCacheEntryStore, clientId: String, checkInterval: TimeInterval, lease: TimeInterval, clock: any NativeAuthClock,
        memoryLimit: Int = EntryStoreTokenCacheStorage.defaultMemoryLimit,
        uptime: @escaping @Sendable () -> UInt64 = EntryStoreTokenCacheStorage.monotonicNanoseconds
    ) {
        self.uptime = uptime
        self.store = store
        self.clientId = clientId
        self.checkInterval = checkInterval
        self.lease = lease
        self.clock = clock
        self.memoryLimit = max(0, memoryLimit)
        let watch = Locked(ChangeWatch())
        self.watch = watch
        stopObserving = store.observeChanges(clientId: clientId) { change in watch.withLock { $0.apply(change) } }
    }

    deinit { stopObserving?() }

    package var logDescription: LogMessage { "entries in \(store.storeDescription)" }

    /// The memory the partitions held take now, as counted against `memoryLimit` (tests, benchmarks).
    package var heldBytes: Int { state.withLock { $0.heldBytes } }

    /// The partitions held now (tests).
    package var heldPartitions: Set<MSALTokenCachePartition> { state.withLock { Set($0.partitions.keys) } }

    // MARK: One account

    package func slice(of account: String, checked: Bool, builder: AccountSliceBuilder) throws(SetupError) -> ScopedSlice {
        let partition = MSALTokenCachePartition(clientId: clientId, homeAccountId: account)
        let now = uptime()
        let stamp = watch.withLock { $0.stamp(bucket: ChangeWatch.bucket(of: partition)) }
        enum Found {
            case trusted(AccountSlice)
            case stale(version: String?, writes: UInt64)
            case absent
        }
        let found = state.withLock { state -> Found in
            state.tick += 1
            let tick = state.tick
            // In place: a look-up neither copies the partition held nor stores it back.
            return { (held: inout Held?) -> Found in
                guard held != nil else { return .absent }
                held!.used = tick
                guard !checked, trusts(held!, now: now, stamp: stamp) else {
                    // Reported changed: read at once, as its version would say so.
                    return .stale(version: held!.stamp.unchanged(stamp) ? held!.version : nil, writes: held!.writes)
                }
                return .trusted(Self.slice(of: &held!, account: account, builder: builder))
            }(&state.partitions[partition])
        }
        let writes: UInt64
        let version: String?
        switch found {
        case .trusted(let slice): return ScopedSlice(slice: slice, problem: nil, asked: false)
        case .absent: (writes, version) = (0, nil)
        case .stale(let held, let count): (writes, version) = (count, held)
        }
        // The version and the read below are one operation for the store (one deadline).
        return try store.operation { () throws(SetupError) -> ScopedSlice in
            try fromStore(partition, account, builder, now, stamp, held: version, writes: writes)
        }
    }

    /// `slice(of:)` when the copy held is not trusted: its version (`held`, when one is held)
    /// checked, or the partition read.
    private func fromStore(
        _ partition: MSALTokenCachePartition, _ account: String, _ builder: AccountSliceBuilder, _ now: UInt64,
        _ stamp: ChangeWatch.Stamp, held version: String?, writes: UInt64
    ) throws(SetupError) -> ScopedSlice {
        if let version {
            let current: String?
            do { current = try store.version(of: partition) } catch {
                return try heldAfterFailure(partition, account, builder, now, error)
            }
            if current == version {
                let slice = state.withLock { state -> AccountSlice? in
                    guard var held = state.partitions[partition] else { return nil }
                    defer { state.partitions[partition] = held }
                    (held.checkedAt, held.stamp, held.mustCheck) = (now, stamp, false)
                    return Self.slice(of: &held, account: account, builder: builder)
                }
                if let slice { return ScopedSlice(slice: slice, problem: nil, asked: true) }
            }
        }
        let read: (version: String?, entries: [String: Data])
        do { read = try store.read(partition) } catch { return try heldAfterFailure(partition, account, builder, now, error) }
        let decoded = EntryStoreLayout.decode(read.entries, of: partition)
        let slice = state.withLock { state -> AccountSlice in
            let bytes = read.entries.reduce(0) { $0 + $1.key.utf8.count + $1.value.count }
            if let held = state.partitions[partition], held.writes != writes {
                // This process wrote the partition while it was read: keep what it wrote.
                var kept = held
                defer { state.partitions[partition] = kept }
                return Self.slice(of: &kept, account: account, builder: builder)
            }
            var held = Held(
                version: read.version, entries: decoded.entries, bytes: bytes, checkedAt: now, stamp: stamp, used: state.tick,
                writes: writes)
            let slice = Self.slice(of: &held, account: account, builder: builder)
            hold(held, as: partition, in: &state)
            return slice
        }
        return ScopedSlice(slice: slice, problem: rejection(decoded.rejected), asked: true)
    }

    /// After a failed store call: the partition held, if any, keeps serving (checked again only
    /// after the interval, so that a store that is down is not asked on every look-up; never
    /// trusted past it, as nothing confirmed it).
    private func heldAfterFailure(
        _ partition: MSALTokenCachePartition, _ account: String, _ builder: AccountSliceBuilder, _ now: UInt64, _ error: any Error
    ) throws(SetupError) -> ScopedSlice {
        let failure = failure("read the token cache from", error)
        var stamp = watch.withLock { $0.stamp(bucket: ChangeWatch.bucket(of: partition)) }
        stamp.tracking = false
        let slice = state.withLock { state -> AccountSlice? in
            guard var held = state.partitions[partition] else { return nil }
            defer { state.partitions[partition] = held }
            (held.checkedAt, held.stamp) = (now, stamp)
            return Self.slice(of: &held, account: account, builder: builder)
        }
        guard let slice else { throw failure }
        return ScopedSlice(slice: slice, problem: failure, asked: false)
    }

    package func holdsTrusted(_ account: String) -> Bool {
        let partition = MSALTokenCachePartition(clientId: clientId, homeAccountId: account)
        let (now, stamp) = (uptime(), watch.withLock { $0.stamp(bucket: ChangeWatch.bucket(of: partition)) })
        return state.withLock { state in state.partitions[partition].map { trusts($0, now: now, stamp: stamp) } ?? false }
    }

    /// Whether `held` may be served without asking the store, `stamp` being the watch now: no
    /// change reported since it was checked, and either changes tracked without a break since, or
    /// checked within the interval. A check interval of 0 trusts nothing.
    private func trusts(_ held: Held, now: UInt64, stamp: ChangeWatch.Stamp) -> Bool {
        guard checkInterval > 0, !held.mustCheck, held.stamp.unchanged(stamp) else { return false }
        return held.stamp.tracked(stamp) || now &- held.checkedAt < UInt64(checkInterval * 1e9)
    }

    /// The held partition's slice, made once per change of the partition.
    private static func slice(of held: inout Held, account: String, builder: AccountSliceBuilder) -> AccountSlice {
        if let slice = held.slice { return slice }
        let slice = builder.slice(of: account, in: EntryStoreLayout.document(of: [held.entries]))
        held.slice = slice
        return slice
    }

    package func update(account: String, builder: AccountSliceBuilder, _ change: (inout TokenCacheDocument) -> Void) throws(SetupError)
        -> SetupError?
    {
        // The reads and the writes are one operation for the store (one deadline).
        try store.operation { () throws(SetupError) -> SetupError? in try updateInStore(account: account, change) }
    }

    private func updateInStore(account: String, _ change: (inout TokenCacheDocument) -> Void) throws(SetupError) -> SetupError? {
        let partition = MSALTokenCachePartition(clientId: clientId, homeAccountId: account)
        let own = MSALTokenCachePartition(clientId: clientId, homeAccountId: nil)
        let now = uptime()
        let stamps = watch.withLock { watch in
            (watch.stamp(bucket: ChangeWatch.bucket(of: partition)), watch.stamp(bucket: ChangeWatch.bucket(of: own)))
        }
        // What the store holds now: a write merges onto it.
        var before: [MSALTokenCachePartition: (version: String?, entries: Entries, bytes: Int)] = [:]
        var rejected = 0
        let writes = state.withLock { state in (state.partitions[partition]?.writes ?? 0, state.partitions[own]?.writes ?? 0) }
        do {
            for target in [partition, own] {
                let read = try store.read(target)
                let decoded = EntryStoreLayout.decode(read.entries, of: target)
                rejected += decoded.rejected
                before[target] = (read.version, decoded.entries, read.entries.reduce(0) { $0 + $1.key.utf8.count + $1.value.count })
            }
        } catch {
            throw failure("read the token cache from", error)
        }
        let original = EntryStoreLayout.document(of: before.values.map(\.entries))
        var document = original
        change(&document)
        let touched = EntryStoreLayout.changes(from: original, to: document, clientId: clientId) { before[$0]?.entries ?? [:] }
        let plan = EntryStoreLayout.plan(from: touched.before, to: touched.after, now: clock.now())
        do {
            for write in plan.writes { try store.write(write) }
            for removal in plan.removals { try store.removePartition(removal) }
        } catch {
            // Some partitions may be written: read them again at the next look-up.
            state.withLock { state in
                for target in Set(plan.entries.keys).union([partition]) { state.partitions[target]?.mustCheck = true }
                state.complete = false
            }
            throw failure("write the token cache to", error)
        }
        state.withLock { state in
            for (target, read) in before where plan.entries[target] == nil {
                // Read and unchanged: held as read, unless this process wrote it meanwhile.
                let wrote = target == partition ? writes.0 : writes.1
                guard (state.partitions[target]?.writes ?? 0) == wrote else { continue }
                hold(
                    Held(
                        version: read.version, entries: read.entries, bytes: read.bytes, checkedAt: now,
                        stamp: target == partition ? stamps.0 : stamps.1, used: state.tick, writes: wrote), as: target, in: &state)
            }
            for (target, entries) in plan.entries {
                let count = (state.partitions[target]?.writes ?? 0) &+ 1
                let bytes = entries.reduce(0) { $0 + $1.key.utf8.count + $1.value.jsonBytes.count }
                hold(
                    Held(
                        version: nil, entries: entries, bytes: bytes, checkedAt: now, stamp: target == own ? stamps.1 : stamps.0,
                        used: state.tick, writes: count), as: target, in: &state)
                // A partition this update did not read holds only what it wrote: asked again first.
                if before[target] == nil { state.partitions[target]?.mustCheck = true }
            }
        }
        return rejection(rejected)
    }

    /// Holds `held` as `partition` (an empty partition is held too: an account the store does not
    /// have is not asked for again before the interval), then drops the least recently served
    /// partitions while over the limit.
    func hold(_ held: Held, as partition: MSALTokenCachePartition, in state: inout State) {
        var held = held
        held.bytes = Held.cost(of: held.entries, stored: held.bytes)
        state.heldBytes += held.bytes - (state.partitions[partition]?.bytes ?? 0)
        state.partitions[partition] = held
        state.generation += 1
        guard state.heldBytes > memoryLimit else { return }
        // Down to 7/8 of the limit at once, so that the sort is paid once per many reads.
        let target = memoryLimit - memoryLimit / 8
        for (victim, dropped) in state.partitions.sorted(by: { $0.value.used < $1.value.used }) {
            guard state.heldBytes > target, victim != partition else { continue }
            state.partitions[victim] = nil
            state.heldBytes -= dropped.bytes
        }
        state.complete = false
    }

    func rejection(_ rejected: Int) -> SetupError? {
        guard rejected > 0 else { return nil }
        return SetupError(
            .invalidJSON,
            "The token cache in \(store.storeDescription) holds \(rejected) entries that are not this SDK's (not a cache entry, too large, or in another account's partition); they are ignored"
        )
    }

    // MARK: Locks

    /// A lock per account partition with a lease; taking it makes the next look-up of the account
    /// ask the store, so that the refresh finds what another machine wrote before it let go. When
    /// the store cannot be asked, the refresh goes on without it (its write then reports the failure).
    package func tryRefreshLock(_ name: String) -> (() -> Void)? {
        let partition = MSALTokenCachePartition(clientId: clientId, homeAccountId: name)
        let owner = UUID().uuidString
        let taken: Bool
        do {
            taken = try store.tryLock(partition, owner: owner, lease: lease)
        } catch {
            mustCheck(partition)
            return {}
        }
        guard taken else { return nil }
        mustCheck(partition)
        return { [store] in try? store.unlock(partition, owner: owner) }
    }

    private func mustCheck(_ partition: MSALTokenCachePartition) {
        state.withLock { state in
            state.mustCheck = true
            state.partitions[partition]?.mustCheck = true
        }
    }

    func failure(_ action: String, _ error: any Error) -> SetupError {
        let underlying = error as NSError
        return SetupError(
            .cacheUnavailable, "Cannot \(action) \(store.storeDescription): \(underlying.localizedDescription)", underlying: underlying)
    }

    package static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
