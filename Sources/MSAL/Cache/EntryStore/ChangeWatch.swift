import Foundation

/// What a store has reported about changes (`MSALTokenCacheChange`), kept so that the in-memory
/// layer of `EntryStoreTokenCacheStorage` can tell in O(1) whether a partition it holds may have
/// changed since it was read (docs/decisions.md, "Freshness pushed by the store").
///
/// A partition is stamped with the watch as it was just before the store call that read or checked
/// it; a change reported after that moves the watch away from the stamp, whatever the order in which
/// the reply and the report arrive. Changes are counted in buckets by partition, so that a report
/// costs no memory per partition: a change in a partition sharing the bucket costs one version
/// check, never a stale copy.
struct ChangeWatch {
    /// Bumped when the store starts or stops tracking: a stamp of another epoch is not covered.
    private(set) var epoch: UInt64 = 0
    private(set) var tracking = false
    /// Bumped by every change reported: the whole cache's check.
    private(set) var any: UInt64 = 0
    /// Bumped by `.changedAll`.
    private var all: UInt64 = 0
    private var buckets = [UInt64](repeating: 0, count: ChangeWatch.bucketCount)

    static let bucketCount = 1 << 14

    /// Where `partition`'s changes are counted: FNV-1a of its names, the same in every process (so
    /// that a test can tell which partitions share a bucket).
    static func bucket(of partition: MSALTokenCachePartition) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in partition.clientId.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        hash = (hash ^ 0xff) &* 0x100_0000_01b3
        for byte in (partition.homeAccountId ?? "").utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32)) & (bucketCount - 1)
    }

    /// The watch as far as one partition is concerned.
    struct Stamp: Equatable {
        var epoch: UInt64
        var tracking: Bool
        var all: UInt64
        var changes: UInt64

        /// Whether no change was reported for the partition between this stamp and `current`.
        func unchanged(_ current: Stamp) -> Bool { all == current.all && changes == current.changes }

        /// Whether the store tracked changes without a break from this stamp to `current`: then
        /// `unchanged(_:)` alone says whether the partition changed, with no interval.
        func tracked(_ current: Stamp) -> Bool { tracking && current.tracking && epoch == current.epoch }
    }

    /// The watch now, for the partition counted in `bucket`.
    func stamp(bucket: Int) -> Stamp { Stamp(epoch: epoch, tracking: tracking, all: all, changes: buckets[bucket]) }

    mutating func apply(_ change: MSALTokenCacheChange) {
        switch change {
        case .tracking: (epoch, tracking) = (epoch &+ 1, true)
        case .stopped: (epoch, tracking) = (epoch &+ 1, false)
        case .changedAll: (all, any) = (all &+ 1, any &+ 1)
        case .changed(let partition): (buckets[Self.bucket(of: partition)], any) = (buckets[Self.bucket(of: partition)] &+ 1, any &+ 1)
        }
    }
}

extension ChangeWatch {
    /// The watch as far as the whole cache is concerned: any change of any partition.
    struct Whole: Equatable {
        var epoch: UInt64
        var tracking: Bool
        var any: UInt64

        /// Whether the store tracked changes without a break from this to `current`.
        func tracked(_ current: Whole) -> Bool { tracking && current.tracking && epoch == current.epoch }
    }

    var whole: Whole { Whole(epoch: epoch, tracking: tracking, any: any) }
}
