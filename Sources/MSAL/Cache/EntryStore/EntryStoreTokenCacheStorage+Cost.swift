import Foundation

/// What a partition held by `EntryStoreTokenCacheStorage` costs in memory: the figure its memory
/// limit counts (docs/scale-out.md). Measured with `msal-benchmarks held-cost`
/// (Benchmarks/msal-benchmarks/HeldCost.swift): users of two access tokens, a refresh token, an id
/// token and an account record, 4.6 KB as stored, take 14.6 KB each once held (their entries
/// decoded, 9.7 KB; the slice made of them, 3.2 KB; the partition's own record), 15.9 KB once an
/// application served them (the id token's claims, the account made of them), and about 17.3 KB
/// of a worker's RSS (`msal-benchmarks --only redis-scale`: the heap keeps some room besides).
/// Each entry's text is held once and its slice copies strings of about the same size again, so
/// the cost follows the bytes stored, plus a fixed part per entry (its key, its text's field
/// table, the slice's record of it) and per partition: 17.8 KB for those users.
extension EntryStoreTokenCacheStorage.Held {
    /// Bytes of memory per byte stored.
    static let costPerStoredByte = 2
    /// Bytes of memory per entry, beyond its bytes stored.
    static let costPerEntry = 1_100
    /// Bytes of memory per partition held, an empty one included.
    static let costPerPartition = 3_072

    /// The cost of holding `entries`, whose keys and values take `stored` bytes in the store.
    static func cost(of entries: EntryStoreTokenCacheStorage.Entries, stored: Int) -> Int {
        costPerPartition + costPerStoredByte * stored + costPerEntry * entries.count
    }
}
