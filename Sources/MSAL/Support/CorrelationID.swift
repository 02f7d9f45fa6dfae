import Foundation
import Synchronization

/// Correlation ids, cheaply: one random UUID per process, with a counter mixed into its last
/// eight bytes, kept in the version-4 shape. Unique within the process and unpredictable across
/// processes, at a few nanoseconds each: `UUID()` costs about 3 µs here (a `getrandom` call),
/// which is a quarter of a cached `getAccessToken`.
package enum CorrelationID {
    private static let base = UUID().uuid
    private static let counter = Atomic<UInt64>(0)

    package static func next() -> UUID {
        let count = counter.add(1, ordering: .relaxed).newValue
        var bytes = base
        withUnsafeMutableBytes(of: &bytes) { raw in
            for index in 0..<8 {
                raw[8 + index] ^= UInt8(truncatingIfNeeded: count >> (8 * UInt64(7 - index)))
            }
            raw[6] = (raw[6] & 0x0F) | 0x40 // version 4
            raw[8] = (raw[8] & 0x3F) | 0x80 // RFC 4122 variant
        }
        return UUID(uuid: bytes)
    }
}
