import Foundation
import MSAL

/// Every key of one client id's token cache on Redis, made and read back in one place
/// (docs/redis.md#the-token-cache):
///
/// | key | what it holds |
/// |---|---|
/// | `<prefix>tc:{<client id>\|<member>}:e` | a partition's entries (a hash) |
/// | `<prefix>tc:{<client id>\|<member>}:x` | their expiries (a hash) |
/// | `<prefix>tc:{<client id>\|<member>}:v` | the partition's version |
/// | `<prefix>tc:{<client id>\|<member>}:lock` | its refresh lock |
/// | `<prefix>tc:{<client id>}:partitions` | the client's index of partitions (a set of members) |
/// | `<prefix>tc:{<client id>}:changed` | the client's change version |
///
/// A partition's keys share one hash tag, so that a cluster keeps them in one slot; its member is
/// `-` for the client's own partition and `a<home account id>` for an account's. Braces and `%`
/// in the client id and the account id are escaped, so that neither ends a tag.
struct TokenCacheKeys: Sendable {
    let clientId: String
    /// `<prefix>tc:{<client id>|`: how every key of the client's partitions begins (what
    /// `CLIENT TRACKING` follows: ChangeTracker.swift).
    let partitionPrefix: String
    /// The client's index of partitions.
    let partitions: Data
    /// The client's change version.
    let changed: Data

    init(keyPrefix: String, clientId: String) {
        self.clientId = clientId
        let safeClientId = Self.tagSafe(clientId)
        partitionPrefix = "\(keyPrefix)tc:{\(safeClientId)|"
        let clientTag = "\(keyPrefix)tc:{\(safeClientId)}"
        partitions = Data("\(clientTag):partitions".utf8)
        changed = Data("\(clientTag):changed".utf8)
    }

    /// The keys of one partition of the client.
    struct Partition: Sendable {
        /// Its entries: a hash, field → sealed value (ValueSeal.swift, with the key and field as its name).
        let entries: Data
        /// Its entries' expiries: a hash, field → milliseconds since 1970.
        let expiries: Data
        /// Its version: a random value each write sets anew.
        let version: Data
        /// Its refresh lock: the owner's id, for a lease.
        let lock: Data
    }

    /// The keys of `partition`, which belongs to this client id.
    func of(_ partition: MSALTokenCachePartition) -> Partition {
        let tag = partitionPrefix + Self.tagSafe(Self.member(partition)) + "}:"
        return Partition(
            entries: Data((tag + "e").utf8), expiries: Data((tag + "x").utf8), version: Data((tag + "v").utf8),
            lock: Data((tag + "lock").utf8))
    }

    /// The partition's name in the client's index: `-` for the client's own, `a<home account id>` for an account's.
    static func member(_ partition: MSALTokenCachePartition) -> String { partition.homeAccountId.map { "a" + $0 } ?? "-" }

    /// The partition a member of the index names (`nil`: not a member this library writes).
    func partition(member: String) -> MSALTokenCachePartition? {
        if member == "-" { return MSALTokenCachePartition(clientId: clientId, homeAccountId: nil) }
        guard member.first == "a" else { return nil }
        return MSALTokenCachePartition(clientId: clientId, homeAccountId: String(member.dropFirst()))
    }

    /// The partition `key` belongs to; `.some(nil)` for a key that changes no entry (a refresh
    /// lock); `nil` for a key that this library does not make.
    func partition(of key: String) -> MSALTokenCachePartition?? {
        guard key.hasPrefix(partitionPrefix) else { return nil }
        let rest = key.dropFirst(partitionPrefix.count)
        guard let close = rest.firstIndex(of: "}"), rest[close...].hasPrefix("}:") else { return nil }
        if rest[close...] == "}:lock" { return .some(nil) }
        return partition(member: Self.tagUnsafe(String(rest[..<close])))
    }

    /// Braces would end or start a hash tag: they are escaped, as is the escape character.
    private static func tagSafe(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(
            of: "}", with: "%7D")
    }

    /// `tagSafe` undone.
    private static func tagUnsafe(_ text: String) -> String {
        text.replacingOccurrences(of: "%7B", with: "{").replacingOccurrences(of: "%7D", with: "}").replacingOccurrences(
            of: "%25", with: "%")
    }
}
