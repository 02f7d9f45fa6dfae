import Foundation
import TestSupport
import Testing

@testable import MSAL

#if canImport(Glibc)
    import Glibc
#endif

/// The look-up copy: a large cache is read with its access tokens' secrets left in the
/// file. Every case compares it with the whole document, the reference.
@Suite(.tags(.concurrency)) struct TokenCacheLookupCopyTests {
    static let authority = URL(string: "https://contoso.ciamlogin.com/contoso.onmicrosoft.com")!
    static let clientId = "11111111-1111-4111-8111-111111111111"

    /// A cache in MSAL for Python's layout (indented), with escapes in secrets and keys, unknown
    /// fields (nested too), other clients' tokens and an unknown section.
    static func cacheText(accounts: Int = 6, scopes: Int = 5) throws -> Data {
        var accessTokens: [String: Any] = [:]
        var refreshTokens: [String: Any] = [:]
        var accountsSection: [String: Any] = [:]
        for account in 0..<accounts {
            let home = "uid\(account).utid"
            for scope in 0..<scopes {
                let target = "api://contoso/api\(scope)/Data.Read openid profile"
                accessTokens["\(home)-contoso.ciamlogin.com-accesstoken-\(clientId)-contoso.onmicrosoft.com-\(target)"] = [
                    "credential_type": "AccessToken", "home_account_id": home, "environment": "contoso.ciamlogin.com",
                    "client_id": account == 5 ? "another-client" : clientId, "realm": "contoso.onmicrosoft.com", "target": target,
                    "secret": "secret/\(account)/\(scope) \"quoted\" é😀\n" + String(repeating: "x", count: 40 * scope),
                    "expires_on": "\(4_000_000_000 + scope)", "cached_at": "1700000000",
                    "extension": ["nested": [1, ["secret": "not this one"]], "secret": "nor this"],
                ]
            }
            refreshTokens["\(home)-contoso.ciamlogin.com-refreshtoken-\(clientId)--"] = [
                "credential_type": "RefreshToken", "home_account_id": home, "environment": "contoso.ciamlogin.com", "client_id": clientId,
                "secret": "rt-\(account)",
            ]
            accountsSection["\(home)-contoso.ciamlogin.com-contoso.onmicrosoft.com"] = [
                "home_account_id": home, "environment": "contoso.ciamlogin.com", "realm": "contoso.onmicrosoft.com",
                "username": "user\(account)@example.com",
            ]
        }
        let document: [String: Any] = [
            "AccessToken": accessTokens, "RefreshToken": refreshTokens, "Account": accountsSection, "IdToken": [:], "AppMetadata": [:],
            "FutureSection": ["k": ["secret": "kept"]],
        ]
        return try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
    }

    private func temporaryFile(_ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("msal-lookup-\(UUID().uuidString).json")
        try data.write(to: url)
        return url
    }

    private func cache(_ storage: any TokenCacheStorage) -> TokenCache {
        TokenCache(storage: storage, clientId: Self.clientId, authority: Self.authority, logger: MSALLoggerConfig())
    }

    @Test func theLookUpCopyServesWhatTheWholeDocumentServes() throws {
        let data = try Self.cacheText()
        let file = try temporaryFile(data)
        defer { try? FileManager.default.removeItem(at: file) }
        let storage = FileTokenCacheStorage(url: file, secretsInFileFrom: 0)
        let snapshot = try #require(try storage.load(ifChangedSince: nil))
        #expect(snapshot.lookupAccessTokens?.tokens.count == 30, "every access token, of any client")
        #expect(snapshot.document[.accessToken].isEmpty, "the document keeps no access token")
        #expect(snapshot.document[.refreshToken].count == 6)

        let copy = cache(storage)
        let whole = cache(InMemoryTokenCacheStorage(document: try TokenCacheDocument(json: data)))
        let valid = Date(timeIntervalSince1970: 1_800_000_000)
        for account in 0..<6 {
            for scope in 0..<5 {
                let scopes = ["api://contoso/api\(scope)/Data.Read"]
                let expected = whole.accessToken(homeAccountId: "uid\(account).utid", scopes: ScopeSet(scopes), validAt: valid)?.secret
                #expect(copy.accessToken(homeAccountId: "uid\(account).utid", scopes: ScopeSet(scopes), validAt: valid)?.secret == expected)
                #expect(
                    expected
                        == (account == 5 ? nil : "secret/\(account)/\(scope) \"quoted\" é😀\n" + String(repeating: "x", count: 40 * scope)))
            }
            #expect(copy.refreshToken(homeAccountId: "uid\(account).utid") == whole.refreshToken(homeAccountId: "uid\(account).utid"))
        }
        #expect(copy.accounts().map(\.homeAccountId) == whole.accounts().map(\.homeAccountId))
    }

    /// Chunk boundaries anywhere (inside escapes, keys, secrets) give the same copy.
    @Test func anyChunkingReadsTheSame() throws {
        let bytes = [UInt8](try Self.cacheText(accounts: 2, scopes: 3))
        func read(_ size: Int) -> ([UInt8], [LookupAccessToken], Bool) {
            let reader = LookupCopyReader.reading(bytes, chunksOf: size)
            return (reader.output, reader.tokens, reader.failed)
        }
        let whole = read(bytes.count)
        #expect(!whole.2 && whole.1.count == 6)
        for size in [1, 2, 3, 5, 7, 64, 1000] {
            let chunked = read(size)
            #expect(chunked.0 == whole.0, "chunks of \(size)")
            #expect(chunked.1.map(\.secret.offset) == whole.1.map(\.secret.offset), "chunks of \(size)")
            #expect(chunked.1.map(\.secret.escaped) == whole.1.map(\.secret.escaped), "chunks of \(size)")
            #expect(chunked.1.map(\.target) == whole.1.map(\.target), "chunks of \(size)")
        }
    }

    @Test func aSecretRewrittenInPlaceIsNotReadFromTheOldCopy() throws {
        let entry = #""home_account_id":"h","expires_on":"4000000000""#
        let file = try temporaryFile(Data(#"{"AccessToken":{"k":{\#(entry),"secret":"first-secret"}}}"#.utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        let storage = FileTokenCacheStorage(url: file, secretsInFileFrom: 0)
        let snapshot = try #require(try storage.load(ifChangedSince: nil))
        let lookup = try #require(snapshot.lookupAccessTokens)
        let location = try #require(lookup.tokens.first?.secret)
        #expect(lookup.file.read(location) == "first-secret")
        // Rewritten in place (truncate and write, no rename), as msal-extensions does.
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(#"{"AccessToken":{"k":{\#(entry),"secret":"a-longer-other-secret"}}}"#.utf8))
        try handle.close()
        #expect(lookup.file.read(location) == nil, "the file changed under the copy: no mixture is served")
    }

    /// A secret's own text is checked when it is read: a malformed one is not served (the file is
    /// set aside at the next write, which reads the whole of it).
    @Test func aMalformedSecretIsNotServed() throws {
        let entry =
            #""home_account_id":"h","expires_on":"4000000000","client_id":"\#(Self.clientId)","environment":"contoso.ciamlogin.com","realm":"contoso.onmicrosoft.com""#
        let file = try temporaryFile(Data(#"{"AccessToken":{"k":{\#(entry),"secret":"bad\q"}}}"#.utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        let copy = cache(FileTokenCacheStorage(url: file, secretsInFileFrom: 0))
        #expect(copy.accessToken(homeAccountId: "h", scopes: ScopeSet([]), validAt: Date(timeIntervalSince1970: 1_800_000_000)) == nil)
    }

    @Test func aLookUpCopyThatCannotReadItsSecretReadsTheFileAgain() throws {
        let file = try temporaryFile(try Self.cacheText(accounts: 1, scopes: 1))
        defer { try? FileManager.default.removeItem(at: file) }
        let storage = FileTokenCacheStorage(url: file, secretsInFileFrom: 0)
        let copy = cache(storage)
        #expect(copy.accounts().count == 1) // loaded
        // New contents written in place, one byte longer: the secret's bytes change under the copy.
        var text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(text.contains(#"secret\/0\/0"#), "Foundation escapes the slashes")
        text = text.replacingOccurrences(of: #"secret\/0\/0"#, with: #"SECRET\/0\/0+"#)
        let handle = try FileHandle(forWritingTo: file)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        let served = copy.accessToken(
            homeAccountId: "uid0.utid", scopes: ScopeSet(["api://contoso/api0/Data.Read"]),
            validAt: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(served?.secret.hasPrefix("SECRET/0/0+") == true, "\(String(describing: served?.secret))")
    }

    @Test(arguments: [
        #"{"AccessToken":{"k":"not an object"}}"#, #"{"AccessToken":{"k":{"secret":"a"},}}"#,
        #"{"AccessToken":{"k":{"secret":"a"}"x":{}}}"#,
        #"{"AccessToken":{"k"{"secret":"a"}}}"#, #"{"AccessToken":{"k":{"secret":"a"},"j"}}"#, #"{"AccessToken":{"k":{"n":01}}}"#,
    ])
    func aMalformedFileIsJudgedByTheWholeRead(_ text: String) throws {
        let file = try temporaryFile(Data(text.utf8))
        defer {
            let folder = file.deletingLastPathComponent().path
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(file.lastPathComponent) {
                try? FileManager.default.removeItem(atPath: folder + "/" + name)
            }
        }
        let snapshot = try #require(try FileTokenCacheStorage(url: file, secretsInFileFrom: 0).load(ifChangedSince: nil))
        #expect(snapshot.problem != nil, "set aside as corrupt, as the whole read does")
        #expect(snapshot.lookupAccessTokens == nil)
    }
}
