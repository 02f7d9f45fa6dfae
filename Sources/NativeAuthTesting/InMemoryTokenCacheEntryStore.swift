import Foundation
import MSAL

/// A reference `MSALTokenCacheEntryStore` in memory, for tests: several application objects given
/// the same store behave as processes on several machines sharing one server (a Redis store in
/// production). It keeps every guarantee the protocol asks for (atomic writes per partition,
/// versions, expiry, leased locks, change notifications) and records what it was asked, so that a
/// test can check which partitions a write touched. It can be made to fail.
///
/// ```swift
/// // given: config: MSALNativeAuthPublicClientApplicationConfig
/// let shared = InMemoryTokenCacheEntryStore()
/// config.tokenCacheLocation = .entryStore(shared)
/// ```
public final class InMemoryTokenCacheEntryStore: MSALTokenCacheEntryStore {
    /// One operation the store was asked to do, in order.
    public enum Operation: Sendable, Equatable {
        /// `changeVersion(clientId:)`.
        case changeVersion
        /// `partitionVersions(clientId:)`.
        case partitionVersions
        /// `entries(in:)` of the partition.
        case entries(MSALTokenCachePartition)
        /// `version(of:)` of the partition.
        case version(MSALTokenCachePartition)
        /// `read(_:)` of the partition: its version and entries at once.
        case read(MSALTokenCachePartition)
        /// `write(_:)`, as given.
        case write(MSALTokenCacheEntryWrite)
        /// `removePartition(_:)`.
        case removePartition(MSALTokenCachePartition)
        /// `tryLock` of the partition; whether it was taken.
        case lock(MSALTokenCachePartition, taken: Bool)
        /// `unlock` of the partition.
        case unlock(MSALTokenCachePartition)
    }

    /// The error every call throws while `failure` is set.
    public struct Failure: Error, LocalizedError, Sendable {
        /// What the test says went wrong.
        public var reason: String
        /// `reason`.
        public var errorDescription: String? { reason }
        /// A failure saying `reason`.
        public init(_ reason: String) { self.reason = reason }
    }

    private struct Stored {
        var entries: [String: MSALTokenCacheEntryValue] = [:]
        var version = 0
    }

    private struct State {
        var partitions: [MSALTokenCachePartition: Stored] = [:]
        var clientVersions: [String: Int] = [:]
        var locks: [MSALTokenCachePartition: (owner: String, until: Date)] = [:]
        var operations: [Operation] = []
        var observers: [UUID: (clientId: String, onChange: @Sendable (MSALTokenCacheChange) -> Void)] = [:]
        /// While false, changes are not reported (`interruptTracking()`).
        var reporting = true
        var failure: Failure?
        var beforeChange: (@Sendable (MSALTokenCachePartition) -> Void)?
        var afterRead: (@Sendable (MSALTokenCachePartition) -> Void)?
    }

    private let state = Locked(State())
    private let now: @Sendable () -> Date
    private let notifies: Bool
    /// Versions go up by one from a random start, as a store that restarts would not repeat them.
    private let base = Int.random(in: 1...1_000_000)

    /// `notifies`: whether `observeChanges` is offered, tracking every change as Redis's
    /// `CLIENT TRACKING` does; `now`: the clock that decides expiry and leases.
    public init(notifies: Bool = false, now: @escaping @Sendable () -> Date = { Date() }) {
        self.notifies = notifies
        self.now = now
    }

    /// `in-memory test store`.
    public var storeDescription: String { "the in-memory test store" }

    /// While set, every call throws it (and changes nothing).
    public var failure: Failure? {
        get { state.withLock { $0.failure } }
        set { state.withLock { $0.failure = newValue } }
    }

    /// Called with the partition of each write and removal before it is applied, outside the
    /// store's lock: a test can let another writer in between a writer's read and its change.
    public var beforeChange: (@Sendable (MSALTokenCachePartition) -> Void)? {
        get { state.withLock { $0.beforeChange } }
        set { state.withLock { $0.beforeChange = newValue } }
    }

    /// Called with the partition of each `read(_:)` after it took the partition's data and before
    /// it returns, outside the store's lock: a test can let another writer in while a reply is on
    /// its way.
    public var afterRead: (@Sendable (MSALTokenCachePartition) -> Void)? {
        get { state.withLock { $0.afterRead } }
        set { state.withLock { $0.afterRead = newValue } }
    }

    /// Everything the store was asked, in order.
    public var operations: [Operation] { state.withLock { $0.operations } }

    /// Forgets the recorded operations.
    public func clearOperations() { state.withLock { $0.operations.removeAll() } }

    /// The partitions that hold entries.
    public var partitions: Set<MSALTokenCachePartition> { state.withLock { Set($0.partitions.keys) } }

    /// The stored values of `partition` as they were written, expired ones included until the
    /// partition's next write drops them.
    public func storedEntries(of partition: MSALTokenCachePartition) -> [String: MSALTokenCacheEntryValue] {
        state.withLock { $0.partitions[partition]?.entries ?? [:] }
    }

    /// Puts `data` under `key` in `partition` as another program could (garbage, a foreign value),
    /// bumping the versions.
    public func inject(_ data: Data, key: String, into partition: MSALTokenCachePartition) {
        notify(
            state.withLock { state in
                state.partitions[partition, default: Stored()].entries[key] = MSALTokenCacheEntryValue(data: data, expiresOn: nil)
                return bump(partition, &state)
            })
    }

    // MARK: MSALTokenCacheEntryStore

    /// A counter per client.
    public func changeVersion(clientId: String) throws -> String? {
        try record(.changeVersion) { state in state.clientVersions[clientId].map { String(base + $0) } }
    }

    /// A counter per partition.
    public func partitionVersions(clientId: String) throws -> [MSALTokenCachePartition: String] {
        try record(.partitionVersions) { state in
            var versions: [MSALTokenCachePartition: String] = [:]
            for (partition, stored) in state.partitions where partition.clientId == clientId {
                versions[partition] = String(base + stored.version)
            }
            return versions
        }
    }

    /// The entries not yet expired.
    public func entries(in partition: MSALTokenCachePartition) throws -> [String: Data] {
        let now = now()
        return try record(.entries(partition)) { state in Self.live(state.partitions[partition], now) }
    }

    /// The partition's counter.
    public func version(of partition: MSALTokenCachePartition) throws -> String? {
        try record(.version(partition)) { state in state.partitions[partition].map { String(base + $0.version) } }
    }

    /// The partition's counter and its entries not yet expired, in one step.
    public func read(_ partition: MSALTokenCachePartition) throws -> (version: String?, entries: [String: Data]) {
        let now = now()
        let read = try record(.read(partition)) { state in
            (version: state.partitions[partition].map { String(base + $0.version) }, entries: Self.live(state.partitions[partition], now))
        }
        afterRead?(partition)
        return read
    }

    private static func live(_ stored: Stored?, _ now: Date) -> [String: Data] {
        (stored?.entries ?? [:]).compactMapValues { value in (value.expiresOn.map { $0 > now } ?? true) ? value.data : nil }
    }

    /// Sets and removes in one step under the store's lock, and drops the partition's entries past
    /// their expiry, as a Redis store's write does: a partition left with no entries is removed
    /// (out of `partitions` and `partitionVersions`).
    public func write(_ write: MSALTokenCacheEntryWrite) throws {
        if let failure = self.failure { throw failure }
        beforeChange?(write.partition)
        let now = now()
        let observers = try record(.write(write)) { state in
            var stored = state.partitions[write.partition] ?? Stored()
            for key in write.remove { stored.entries[key] = nil }
            for (key, value) in write.set { stored.entries[key] = value }
            stored.entries = stored.entries.filter { $0.value.expiresOn.map { $0 > now } ?? true }
            state.partitions[write.partition] = stored
            let observers = bump(write.partition, &state)
            if stored.entries.isEmpty { state.partitions[write.partition] = nil }
            return observers
        }
        notify(observers)
    }

    /// Drops the partition.
    public func removePartition(_ partition: MSALTokenCachePartition) throws {
        if let failure = self.failure { throw failure }
        beforeChange?(partition)
        let observers = try record(.removePartition(partition)) { state in
            let observers = bump(partition, &state)
            state.partitions[partition] = nil
            return observers
        }
        notify(observers)
    }

    /// Taken when free or when the holder's lease ran out.
    public func tryLock(_ partition: MSALTokenCachePartition, owner: String, lease: TimeInterval) throws -> Bool {
        let now = now()
        if let failure = self.failure { throw failure }
        return state.withLock { state in
            let free = state.locks[partition].map { $0.until <= now } ?? true
            if free { state.locks[partition] = (owner, now.addingTimeInterval(lease)) }
            state.operations.append(.lock(partition, taken: free))
            return free
        }
    }

    /// Released only by its owner.
    public func unlock(_ partition: MSALTokenCachePartition, owner: String) throws {
        try record(.unlock(partition)) { state in
            if state.locks[partition]?.owner == owner { state.locks[partition] = nil }
        }
    }

    /// Offered when the store was made with `notifies: true`: `.tracking` at once (unless
    /// interrupted), then each partition as it changes.
    public func observeChanges(clientId: String, _ onChange: @escaping @Sendable (MSALTokenCacheChange) -> Void) -> (@Sendable () -> Void)?
    {
        guard notifies else { return nil }
        let id = UUID()
        let reporting = state.withLock { state in
            state.observers[id] = (clientId, onChange)
            return state.reporting
        }
        if reporting { onChange(.tracking) }
        return { [state] in _ = state.withLock { $0.observers.removeValue(forKey: id) } }
    }

    /// As a store whose tracking connection dropped: observers are told `.stopped`, and changes
    /// made until `resumeTracking()` are not reported.
    public func interruptTracking() {
        let observers = state.withLock { state in
            state.reporting = false
            return state.observers.values.map(\.onChange)
        }
        for observer in observers { observer(.stopped) }
    }

    /// As a store whose tracking connection is back: observers are told `.tracking`.
    public func resumeTracking() {
        let observers = state.withLock { state in
            state.reporting = true
            return state.observers.values.map(\.onChange)
        }
        for observer in observers { observer(.tracking) }
    }

    // MARK: Helpers

    private func record<R>(_ operation: Operation, _ body: (inout State) -> R) throws -> R {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            state.operations.append(operation)
            return body(&state)
        }
    }

    /// Bumps the partition's and its client's versions; returns the reports to make.
    private func bump(_ partition: MSALTokenCachePartition, _ state: inout State) -> [@Sendable () -> Void] {
        // A partition's version is its client's counter: a partition removed and written again
        // never repeats a version a reader saw before.
        state.clientVersions[partition.clientId, default: 0] += 1
        state.partitions[partition, default: Stored()].version = state.clientVersions[partition.clientId]!
        guard state.reporting else { return [] }
        return state.observers.values.filter { $0.clientId == partition.clientId }.map { observer in
            { observer.onChange(.changed(partition)) }
        }
    }

    private func notify(_ observers: [@Sendable () -> Void]) {
        for observer in observers { observer() }
    }
}
