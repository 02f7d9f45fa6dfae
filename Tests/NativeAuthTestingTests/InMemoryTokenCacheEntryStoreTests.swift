import Foundation
import MSAL
import NativeAuthTesting
import Testing

/// `InMemoryTokenCacheEntryStore` keeps the rules a Redis store keeps, so that tests over it show
/// what production does: here, a partition a write leaves empty is no longer listed.
@Suite struct InMemoryTokenCacheEntryStoreTests {
    static let client = "11111111-1111-4111-8111-111111111111"
    static let ada = MSALTokenCachePartition(clientId: client, homeAccountId: "uid-ada.utid")
    static let grace = MSALTokenCachePartition(clientId: client, homeAccountId: "uid-grace.utid")
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func value(_ text: String, expiresOn: Date?) -> MSALTokenCacheEntryValue {
        MSALTokenCacheEntryValue(data: Data(text.utf8), expiresOn: expiresOn)
    }

    @Test func aPartitionEmptiedByAWriteIsNoLongerListed() throws {
        let store = InMemoryTokenCacheEntryStore(now: { Self.now })
        let later = Self.now.addingTimeInterval(3600)
        try store.write(
            MSALTokenCacheEntryWrite(partition: Self.ada, set: ["AccessToken:a": Self.value("a", expiresOn: later)], remove: []))
        try store.write(
            MSALTokenCacheEntryWrite(partition: Self.grace, set: ["RefreshToken:r": Self.value("r", expiresOn: nil)], remove: []))
        #expect(Set(try store.partitionVersions(clientId: Self.client).keys) == [Self.ada, Self.grace])
        let before = try store.changeVersion(clientId: Self.client)
        // Its last access token, expired, written again: dropped, and the partition with it.
        let expired = Self.now.addingTimeInterval(-5)
        try store.write(
            MSALTokenCacheEntryWrite(partition: Self.ada, set: ["AccessToken:a": Self.value("a", expiresOn: expired)], remove: []))
        #expect(Set(try store.partitionVersions(clientId: Self.client).keys) == [Self.grace], "the emptied partition is not listed")
        #expect(store.partitions == [Self.grace])
        #expect(try store.version(of: Self.ada) == nil)
        #expect(try store.changeVersion(clientId: Self.client) != before)
        // A write that removes the last entry empties it too.
        try store.write(MSALTokenCacheEntryWrite(partition: Self.grace, set: [:], remove: ["RefreshToken:r"]))
        #expect(try store.partitionVersions(clientId: Self.client).isEmpty)
    }
}
