import Foundation
import MSAL
import Testing

@testable import MSAL

/// How a cache document is laid out in an entry store (docs/decisions.md#shared-token-cache):
/// partitions, keys, values, expiries, and the writes from one document to the next.
@Suite struct EntryStoreLayoutTests {
    static let client = "11111111-1111-4111-8111-111111111111"
    static let ada = "uid-ada.utid"
    static let grace = "uid-grace.utid"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func partition(_ home: String?) -> MSALTokenCachePartition {
        MSALTokenCachePartition(clientId: client, homeAccountId: home)
    }

    /// An account's entries, as `TokenCache.write` makes them (fields trimmed to what the layout reads).
    static func document(_ accounts: [String], atScopes: [String] = ["read"], rt: String = "rt-1", expiresOn: Double = 1_800_003_600)
        -> TokenCacheDocument
    {
        var document = TokenCacheDocument()
        for home in accounts {
            for scope in atScopes {
                document[.accessToken]["\(home)-host-accesstoken-\(client)-realm-\(scope)"] = [
                    "home_account_id": .string(home), "secret": .string("at-\(home)-\(scope)"), "target": .string(scope),
                    "expires_on": .string(String(Int(expiresOn))), "client_id": .string(client),
                ]
            }
            document[.refreshToken]["\(home)-host-refreshtoken-\(client)--"] = [
                "home_account_id": .string(home), "secret": .string("\(rt)-\(home)"), "client_id": .string(client),
            ]
            document[.idToken]["\(home)-host-idtoken-\(client)-realm-"] = ["home_account_id": .string(home), "secret": .string("id")]
            document[.account]["\(home)-host-realm"] = ["home_account_id": .string(home), "username": .string("\(home)@example.com")]
        }
        document[.appMetadata]["appmetadata-host-\(client)"] = ["client_id": .string(client)]
        return document
    }

    static func partitions(_ document: TokenCacheDocument) -> [MSALTokenCachePartition: EntryStoreLayout.Entries] {
        EntryStoreLayout.partitions(of: document, clientId: client)
    }

    @Test func keysNameTheSectionAndTheCacheKey() throws {
        let key = EntryStoreLayout.storeKey(.accessToken, "a-b-accesstoken-c-d-api://x/y.read openid")
        #expect(key == "AccessToken:a-b-accesstoken-c-d-api://x/y.read openid")
        let parsed = try #require(EntryStoreLayout.parseStoreKey(key))
        #expect(parsed.section == .accessToken && parsed.cacheKey == "a-b-accesstoken-c-d-api://x/y.read openid")
        #expect(EntryStoreLayout.parseStoreKey("Token:x") == nil)
        #expect(EntryStoreLayout.parseStoreKey("AccessToken") == nil)
    }

    @Test func eachAccountHasItsPartitionAndAppMetadataTheClients() {
        let split = Self.partitions(Self.document([Self.ada, "UID-Grace.UTID"]))
        #expect(Set(split.keys) == [Self.partition(Self.ada), Self.partition(Self.grace), Self.partition(nil)])
        #expect(split[Self.partition(Self.ada)]?.count == 4)
        #expect(split[Self.partition(nil)]?.keys.sorted() == ["AppMetadata:appmetadata-host-\(Self.client)"])
        // Back to the same document.
        #expect(EntryStoreLayout.document(of: split.values) == Self.document([Self.ada, "UID-Grace.UTID"]))
    }

    @Test func aNewAccessTokenIsTheOnlyEntryWritten() throws {
        let before = Self.partitions(Self.document([Self.ada, Self.grace]))
        let after = Self.partitions(Self.document([Self.ada, Self.grace], atScopes: ["read", "write"]))
        let plan = EntryStoreLayout.plan(from: before, to: after, now: Self.now)
        #expect(plan.removals.isEmpty)
        let write = try #require(plan.writes.first)
        #expect(plan.writes.count == 2)
        #expect(plan.writes.map(\.partition) == [Self.partition(Self.ada), Self.partition(Self.grace)])
        #expect(write.set.keys.sorted() == ["AccessToken:\(Self.ada)-host-accesstoken-\(Self.client)-realm-write"])
        #expect(write.remove.isEmpty)
    }

    @Test func aChangeToOneAccountWritesOnlyItsPartition() throws {
        let before = Self.partitions(Self.document([Self.ada, Self.grace]))
        var document = Self.document([Self.ada, Self.grace])
        document[.refreshToken]["\(Self.grace)-host-refreshtoken-\(Self.client)--"]?["secret"] = .string("rt-2")
        let plan = EntryStoreLayout.plan(from: before, to: Self.partitions(document), now: Self.now)
        #expect(plan.writes.map(\.partition) == [Self.partition(Self.grace)])
        #expect(Set(plan.entries.keys) == [Self.partition(Self.grace)])
        // A long-lived entry changed: the refresh token, id token and account are set together, with
        // the same expiry; the access token that did not change is not.
        let write = try #require(plan.writes.first)
        #expect(
            write.set.keys.sorted() == [
                "Account:\(Self.grace)-host-realm", "IdToken:\(Self.grace)-host-idtoken-\(Self.client)-realm-",
                "RefreshToken:\(Self.grace)-host-refreshtoken-\(Self.client)--",
            ])
        #expect(Set(write.set.values.map(\.expiresOn)) == [Self.now.addingTimeInterval(EntryStoreLayout.longLivedLifetime)])
        // The value is the entry's JSON object.
        let value = try #require(write.set["RefreshToken:\(Self.grace)-host-refreshtoken-\(Self.client)--"])
        let object = try #require(try JSONSerialization.jsonObject(with: value.data) as? [String: String])
        #expect(object["secret"] == "rt-2")
    }

    @Test func anAccessTokenExpiresWithItsToken() throws {
        let before = Self.partitions(TokenCacheDocument())
        let plan = EntryStoreLayout.plan(from: before, to: Self.partitions(Self.document([Self.ada])), now: Self.now)
        let ada = try #require(plan.writes.first { $0.partition == Self.partition(Self.ada) })
        let token = try #require(ada.set["AccessToken:\(Self.ada)-host-accesstoken-\(Self.client)-realm-read"])
        #expect(token.expiresOn == Date(timeIntervalSince1970: 1_800_003_600))
        let metadata = try #require(plan.writes.first { $0.partition == Self.partition(nil) })
        #expect(metadata.set.values.allSatisfy { $0.expiresOn == nil }, "app metadata is kept until removed")
    }

    @Test func removingAnAccountsEntriesRemovesItsPartition() {
        let before = Self.partitions(Self.document([Self.ada, Self.grace]))
        let plan = EntryStoreLayout.plan(from: before, to: Self.partitions(Self.document([Self.grace])), now: Self.now)
        #expect(plan.removals == [Self.partition(Self.ada)])
        #expect(plan.writes.isEmpty)
    }

    @Test func aWrittenPartitionLosesItsExpiredAccessTokens() throws {
        let before = Self.partitions(Self.document([Self.ada], expiresOn: Self.now.timeIntervalSince1970 - 1))
        var document = Self.document([Self.ada], atScopes: ["read", "write"], expiresOn: Self.now.timeIntervalSince1970 - 1)
        document[.accessToken]["\(Self.ada)-host-accesstoken-\(Self.client)-realm-write"]?["expires_on"] = .string("1800009999")
        let plan = EntryStoreLayout.plan(from: before, to: Self.partitions(document), now: Self.now)
        let write = try #require(plan.writes.first)
        #expect(write.remove == ["AccessToken:\(Self.ada)-host-accesstoken-\(Self.client)-realm-read"])
        #expect(write.set.keys.sorted() == ["AccessToken:\(Self.ada)-host-accesstoken-\(Self.client)-realm-write"])
    }

    @Test func storedValuesThatAreNotTheSDKsAreRejected() {
        let ada = Self.partition(Self.ada)
        let good = Data(#"{"home_account_id":"UID-ADA.utid","secret":"x"}"#.utf8)
        let stored: [String: Data] = [
            "RefreshToken:good": good,
            "RefreshToken:garbage": Data([0xFF, 0x00, 0x7B]),
            "RefreshToken:array": Data("[1,2]".utf8),
            "RefreshToken:injected": Data(#"{"home_account_id":"uid-ada.utid"},"other":{"#.utf8),
            "RefreshToken:two": Data(#"{"home_account_id":"uid-ada.utid"}},"IdToken":{"x":{}"#.utf8),
            "RefreshToken:crossed": Data(#"{"home_account_id":"uid-grace.utid","secret":"x"}"#.utf8),
            "RefreshToken:huge": Data(#"{"home_account_id":"uid-ada.utid","pad":""#.utf8) + Data(repeating: 0x61, count: 1 << 20)
                + Data(#""}"#.utf8),
            "Unknown:key": good,
        ]
        let decoded = EntryStoreLayout.decode(stored, of: ada)
        #expect(decoded.entries.keys.sorted() == ["RefreshToken:good"])
        #expect(decoded.rejected == 7)
    }
}
