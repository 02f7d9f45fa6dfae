import Foundation
import MSAL

/// Writes a unified-schema cache file with `accounts` × `scopeSets` access tokens (plus one refresh
/// token, id token and account record per account), valid for a year.
enum CacheFixture {
    static let clientId = "11111111-1111-4111-8111-111111111111"
    static let authority = "https://contoso.ciamlogin.com/contoso.onmicrosoft.com"
    static let utid = "5c3b1c2e-8a4f-4f5e-9d7a-0e6b2a9c1d00"

    static func uid(_ account: Int) -> String { String(format: "a1a1a1a1-0000-4000-8000-%012d", account) }
    static func username(_ account: Int) -> String { "user\(account)@example.com" }
    static func scope(_ set: Int) -> String { "api://bench/resource\(set)/Data.Read" }
    /// The access token of `account` for scope set `scopeSet` (about 1 KB, as real ones).
    static func secret(account: Int, scopeSet: Int) -> String { "at-\(account)-\(scopeSet)-" + String(repeating: "x", count: 900) }

    static func write(to url: URL, accounts: Int, scopeSets: Int) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try document(accounts: 0..<accounts, scopeSets: scopeSets).write(to: url)
    }

    /// The cache document of the accounts numbered `accounts` (a range, so that many accounts are
    /// made in batches: Benchmarks/msal-benchmarks/RedisScale.swift). Written as text: every value
    /// is a plain ASCII string, and JSONSerialization made seeding 100,000 users take minutes.
    static func document(accounts: Range<Int>, scopeSets: Int) throws -> Data {
        let environment = "contoso.ciamlogin.com"
        let realm = "contoso.onmicrosoft.com"
        let now = Int(Date().timeIntervalSince1970)
        var accessTokens: [String] = []
        var refreshTokens: [String] = []
        var idTokens: [String] = []
        var accountEntries: [String] = []
        for account in accounts {
            let home = "\(uid(account)).\(utid)"
            for set in 0..<scopeSets {
                let target = scope(set)
                accessTokens.append(
                    entry(
                        "\(home)-\(environment)-accesstoken-\(clientId)-\(realm)-\(target)".lowercased(),
                        [
                            ("credential_type", "AccessToken"), ("secret", secret(account: account, scopeSet: set)),
                            ("home_account_id", home),
                            ("environment", environment), ("client_id", clientId), ("realm", realm), ("target", target),
                            ("token_type", "Bearer"), ("cached_at", String(now)), ("expires_on", String(now + 31_536_000)),
                            ("extended_expires_on", String(now + 31_536_000)),
                        ]))
            }
            refreshTokens.append(
                entry(
                    "\(home)-\(environment)-refreshtoken-\(clientId)--".lowercased(),
                    [
                        ("credential_type", "RefreshToken"), ("secret", "rt-\(account)"), ("home_account_id", home),
                        ("environment", environment), ("client_id", clientId), ("last_modification_time", String(now + account)),
                    ]))
            let claims = object([
                ("preferred_username", username(account)), ("oid", uid(account)), ("tid", utid), ("sub", uid(account)), ("ver", "2.0"),
            ])
            let idToken = "eyJhbGciOiJub25lIn0." + base64URL(Data(claims.utf8)) + "."
            idTokens.append(
                entry(
                    "\(home)-\(environment)-idtoken-\(clientId)-\(realm)-".lowercased(),
                    [
                        ("credential_type", "IdToken"), ("secret", idToken), ("home_account_id", home), ("environment", environment),
                        ("realm", realm), ("client_id", clientId),
                    ]))
            accountEntries.append(
                entry(
                    "\(home)-\(environment)-\(realm)".lowercased(),
                    [
                        ("home_account_id", home), ("environment", environment), ("realm", realm), ("local_account_id", uid(account)),
                        ("username", username(account)), ("authority_type", "MSSTS"),
                    ]))
        }
        let metadata = entry("appmetadata-\(environment)-\(clientId)", [("client_id", clientId), ("environment", environment)])
        let sections = [
            ("AccessToken", accessTokens), ("RefreshToken", refreshTokens), ("IdToken", idTokens), ("Account", accountEntries),
            ("AppMetadata", [metadata]),
        ]
        return Data(("{" + sections.map { "\"\($0.0)\":{" + $0.1.joined(separator: ",") + "}" }.joined(separator: ",") + "}").utf8)
    }

    /// `{"k":"v",…}` of plain ASCII strings (nothing to escape).
    private static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\"\($0.0)\":\"\($0.1)\"" }.joined(separator: ",") + "}"
    }

    private static func entry(_ key: String, _ fields: [(String, String)]) -> String { "\"\(key)\":" + object(fields) }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(
            of: "=", with: "")
    }

    /// An application over the file, all accounts kept.
    static func application(cache url: URL) throws -> MSALNativeAuthPublicClientApplication {
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: clientId, authority: try MSALCIAMAuthority(url: URL(string: authority)!), challengeTypes: [.OOB, .password])
        config.tokenCacheLocation = .file(url)
        config.allowsMultipleAccounts = true
        return try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
    }
}
