import Foundation
import MSAL
import Testing

@testable import MSALRedis

/// The keys of the token cache on Redis, made and read back by one type (TokenCacheKeys.swift):
/// what a worker writes is what the change tracker recognises as the same partition.
struct TokenCacheKeysTests {
    static let partitions = [
        MSALTokenCachePartition(clientId: "odd{client}%", homeAccountId: nil),
        MSALTokenCachePartition(clientId: "odd{client}%", homeAccountId: "uid.utid"),
        MSALTokenCachePartition(clientId: "odd{client}%", homeAccountId: "{x}%7B-a"),
    ]

    @Test func everyKeyOfAPartitionNamesItsPartitionAndALockNamesNone() {
        let keys = TokenCacheKeys(keyPrefix: "app:", clientId: "odd{client}%")
        for partition in Self.partitions {
            let of = keys.of(partition)
            for key in [of.entries, of.expiries, of.version] {
                let text = String(decoding: key, as: UTF8.self)
                #expect(text.hasPrefix(keys.partitionPrefix))
                #expect(keys.partition(of: text) == .some(partition), "\(text)")
            }
            #expect(keys.partition(of: String(decoding: of.lock, as: UTF8.self)) == .some(nil))
            #expect(keys.partition(member: TokenCacheKeys.member(partition)) == partition)
        }
    }

    @Test func aPartitionsKeysShareOneTagThatNoOtherPartitionHas() {
        let keys = TokenCacheKeys(keyPrefix: "", clientId: "odd{client}%")
        let tags = Self.partitions.map { partition in
            let of = keys.of(partition)
            let tags = Set([of.entries, of.expiries, of.version, of.lock].map(Self.hashTag))
            #expect(tags.count == 1)
            return tags.first ?? ""
        }
        #expect(Set(tags).count == Self.partitions.count)
        #expect(Self.hashTag(keys.partitions) == Self.hashTag(keys.changed))
        #expect(!tags.contains(Self.hashTag(keys.partitions)))
    }

    @Test func keysOfAnotherClientOrPrefixAreNotTheClients() {
        let keys = TokenCacheKeys(keyPrefix: "app:", clientId: "client")
        let other = TokenCacheKeys(keyPrefix: "app:", clientId: "client2").of(Self.partitions[1])
        let unprefixed = TokenCacheKeys(keyPrefix: "", clientId: "client").of(Self.partitions[1])
        for key in [other.entries, unprefixed.entries, keys.partitions, keys.changed] {
            #expect(keys.partition(of: String(decoding: key, as: UTF8.self)) == nil)
        }
        #expect(keys.partition(member: "b-not-an-account") == nil)
    }

    /// What Redis Cluster hashes: the text inside the first `{…}`.
    static func hashTag(_ key: Data) -> String {
        let text = String(decoding: key, as: UTF8.self)
        guard let open = text.firstIndex(of: "{"), let close = text[open...].firstIndex(of: "}") else { return text }
        return String(text[text.index(after: open)..<close])
    }
}
