import Foundation

/// The whole cache of an `EntryStoreTokenCacheStorage`: the list of accounts and a sign-in that
/// signs the others out. It reads every partition whose version moved, through the client's change
/// version and the partition versions: linear in the accounts, as a listing is.
extension EntryStoreTokenCacheStorage {

    package func load(ifChangedSince stamp: TokenCacheStamp?) throws(SetupError) -> TokenCacheSnapshot? {
        try state.withLock { (state) throws(SetupError) -> TokenCacheSnapshot? in
            if needsCheck(state) { try store.operation { () throws(SetupError) in try check(&state) } }
            return snapshot(state, unless: stamp)
        }
    }

    /// Asks the store whatever the interval: the list of accounts.
    package func loadChecked(ifChangedSince stamp: TokenCacheStamp?) throws(SetupError) -> TokenCacheSnapshot? {
        try state.withLock { (state) throws(SetupError) -> TokenCacheSnapshot? in
            try store.operation { () throws(SetupError) in try check(&state) }
            return snapshot(state, unless: stamp)
        }
    }

    package var checksStore: Bool { true }

    private func snapshot(_ state: State, unless stamp: TokenCacheStamp?) -> TokenCacheSnapshot? {
        let current = TokenCacheStamp([state.generation])
        guard current != stamp else { return nil }
        let document = EntryStoreLayout.document(of: state.partitions.values.map(\.entries))
        return TokenCacheSnapshot(document: document, stamp: current, problem: state.problem)
    }

    private func needsCheck(_ state: State) -> Bool {
        if !state.complete || state.mustCheck || checkInterval <= 0 { return true }
        let current = watch.withLock { $0.whole }
        if current.any != state.checkedWatch.any { return true }
        if state.checkedWatch.tracked(current) { return false }
        return uptime() &- state.checkedAt >= UInt64(checkInterval * 1e9)
    }

    /// Reads every partition whose version moved since it was held, and forgets those the store no
    /// longer has. The copy changes only when every read succeeded; a failed check is not repeated
    /// before the interval (a store that is down is not asked on every look-up), unless a look-up
    /// demands it.
    private func check(_ state: inout State) throws(SetupError) {
        let now = uptime()
        (state.checkedAt, state.checkedWatch, state.mustCheck) = (now, watch.withLock { $0.whole }, false)
        let version: String?
        let versions: [MSALTokenCachePartition: String]
        var read: [MSALTokenCachePartition: Held] = [:]
        var rejected = 0
        do {
            version = try store.changeVersion(clientId: clientId)
            if state.complete, version == state.changeVersion { return }
            versions = try store.partitionVersions(clientId: clientId).filter { $0.key.clientId == clientId }
            for (partition, partitionVersion) in versions where state.partitions[partition]?.version != partitionVersion {
                let stamp = watch.withLock { $0.stamp(bucket: ChangeWatch.bucket(of: partition)) }
                let stored = try store.entries(in: partition)
                let decoded = EntryStoreLayout.decode(stored, of: partition)
                rejected += decoded.rejected
                read[partition] = Held(
                    version: partitionVersion, entries: decoded.entries,
                    bytes: Held.cost(of: decoded.entries, stored: stored.reduce(0) { $0 + $1.key.utf8.count + $1.value.count }),
                    checkedAt: now, stamp: stamp, writes: state.partitions[partition]?.writes ?? 0)
            }
        } catch {
            throw failure("read the token cache from", error)
        }
        for partition in state.partitions.keys where versions[partition] == nil {
            state.heldBytes -= state.partitions[partition]?.bytes ?? 0
            state.partitions[partition] = nil
        }
        for (partition, held) in read {
            state.heldBytes += held.bytes - (state.partitions[partition]?.bytes ?? 0)
            state.partitions[partition] = held
        }
        state.complete = true
        state.changeVersion = version
        state.problem = rejection(rejected)
        state.generation += 1
    }

    package func update(_ change: (inout TokenCacheDocument) -> Void) throws(SetupError) -> TokenCacheSnapshot {
        // The check and the writes are one operation for the store (one deadline).
        try state.withLock { (state) throws(SetupError) -> TokenCacheSnapshot in
            try store.operation { () throws(SetupError) -> TokenCacheSnapshot in try checkedUpdate(&state, change) }
        }
    }

    private func checkedUpdate(_ state: inout State, _ change: (inout TokenCacheDocument) -> Void) throws(SetupError) -> TokenCacheSnapshot
    {
        try check(&state)
        let original = EntryStoreLayout.document(of: state.partitions.values.map(\.entries))
        var document = original
        change(&document)
        let partitions = state.partitions
        let touched = EntryStoreLayout.changes(from: original, to: document, clientId: clientId) { partitions[$0]?.entries ?? [:] }
        let plan = EntryStoreLayout.plan(from: touched.before, to: touched.after, now: clock.now())
        do {
            for write in plan.writes { try store.write(write) }
            for partition in plan.removals { try store.removePartition(partition) }
        } catch {
            // Some partitions may be written: read them all again at the next look-up.
            state.complete = false
            for partition in plan.entries.keys { state.partitions[partition]?.mustCheck = true }
            throw failure("write the token cache to", error)
        }
        let now = uptime()
        for (partition, entries) in plan.entries {
            let writes = (state.partitions[partition]?.writes ?? 0) &+ 1
            state.heldBytes -= state.partitions[partition]?.bytes ?? 0
            guard !entries.isEmpty else {
                state.partitions[partition] = nil
                continue
            }
            let bytes = Held.cost(of: entries, stored: entries.reduce(0) { $0 + $1.key.utf8.count + $1.value.jsonBytes.count })
            state.heldBytes += bytes
            // Stamped as when the check read it, so that a change another writer made since is seen;
            // a partition new to this process is asked for again first.
            let previous = state.partitions[partition]
            var held = Held(
                version: nil, entries: entries, bytes: bytes, checkedAt: now,
                stamp: previous?.stamp ?? watch.withLock { $0.stamp(bucket: ChangeWatch.bucket(of: partition)) }, writes: writes)
            held.mustCheck = previous == nil
            state.partitions[partition] = held
        }
        if !plan.entries.isEmpty { state.generation += 1 }
        return snapshot(state, unless: nil)!
    }
}
