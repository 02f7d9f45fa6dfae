import Foundation
import MSALRedis

/// The configuration file of an app of one External ID tenant, as the terminal demo
/// (`multi-api-demo --config FILE`) and the command-line tool (`native-auth --config FILE`) read it:
///
/// ```json
/// {
///   "client_id": "00001111-aaaa-2222-bbbb-3333cccc4444",
///   "tenant_subdomain": "contoso",                       // or "authority": "https://…"
///   "challenge_types": ["oob", "password"],
///   "capabilities": ["mfa_required", "registration_required"],   // optional, default both; [] for none
///   "api1": {"url": "https://api.contoso.com/todolist", "scopes": ["api://…/ToDoList.Read"]},
///   "api2": {"url": "https://api.contoso.com/profile", "scopes": ["api://…/Profile.Read"]},
///   "cache_file": "/optional/path/token_cache.json",
///   "token_cache": "file",                               // or "keyring" or "redis" (optional, default "file"; "cache" read too)
///   "saved_sign_ins": "file",                            // or "redis" (optional, default "file")
///   "redis": {"url": "rediss://cache.internal:6380", "password_file": "…", "ca_file": "…",
///             "key_prefix": "contoso:", "encryption_key_file": "…"}   // with a "redis" above (docs/redis.md#the-redis-object)
/// }
/// ```
///
/// Only parsing lives here (Foundation only); `nativeAuthConfiguration()` turns it into the SDK's
/// configuration. Where tokens go is each program's choice (docs/cli.md#files,
/// Examples/MultiAPIDemo/README.md).
public struct AppConfiguration: Equatable, Sendable {
    public var clientId: String
    public var tenantSubdomain: String?
    public var authority: String?
    public var challengeTypes: [String]
    /// What the app declares it can do natively: `mfa_required`, `registration_required` (default both).
    public var capabilities: [String]
    public var api1: API?
    public var api2: API?
    public var cacheFile: String?
    /// Where tokens live: `file` (default: `cache_file` or the program's default file), `keyring`
    /// (the desktop's Secret Service) or `redis` (the server of `redis`).
    public var tokenCache: TokenCache = .file
    /// Where a sign-in waiting for input is kept between two invocations: `file` (default) or `redis`.
    public var savedSignIns: SavedSignIns = .file
    /// The Redis server of `"token_cache": "redis"` and `"saved_sign_ins": "redis"` (docs/cli.md#redis).
    public var redis: Redis?

    /// The `token_cache` choice.
    public enum TokenCache: String, Sendable, Equatable {
        case file, keyring, redis
    }

    /// The `saved_sign_ins` choice.
    public enum SavedSignIns: String, Sendable, Equatable {
        case file, redis
    }

    /// The `redis` object: read by the reader `native-auth` shares with the C interface and
    /// Python (Sources/MSALRedis/Configuration/MSALRedisSettings.swift); files are named, not read.
    public typealias Redis = MSALRedisSettings

    /// A protected API the app calls: its address and the scopes its token needs.
    public struct API: Equatable, Sendable {
        public var url: String
        public var scopes: [String]
        public init(url: String, scopes: [String]) {
            self.url = url
            self.scopes = scopes
        }
    }

    /// A configuration problem, naming the field.
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    public init(
        clientId: String, tenantSubdomain: String? = nil, authority: String? = nil, challengeTypes: [String] = ["oob", "password"],
        capabilities: [String] = ["mfa_required", "registration_required"], api1: API? = nil, api2: API? = nil, cacheFile: String? = nil,
        tokenCache: TokenCache = .file, savedSignIns: SavedSignIns = .file, redis: Redis? = nil
    ) {
        self.clientId = clientId
        self.tenantSubdomain = tenantSubdomain
        self.authority = authority
        self.challengeTypes = challengeTypes
        self.capabilities = capabilities
        self.api1 = api1
        self.api2 = api2
        self.cacheFile = cacheFile
        self.tokenCache = tokenCache
        self.savedSignIns = savedSignIns
        self.redis = redis
    }

    public static func load(_ data: Data) throws(Problem) -> AppConfiguration {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw Problem("the configuration is not a JSON object")
        }
        let known: Set<String> = [
            "client_id", "tenant_subdomain", "authority", "challenge_types", "capabilities", "api1", "api2", "cache_file", "token_cache",
            "saved_sign_ins", "redis", "cache",
        ]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw Problem("unknown field '\(unknown)' (known: \(known.sorted().joined(separator: ", ")))")
        }
        guard let clientId = object["client_id"] as? String, !clientId.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw Problem(object["client_id"] == nil ? "field 'client_id' is missing" : "field 'client_id' must be a non-empty string")
        }
        let subdomain = try optionalString(object, "tenant_subdomain")
        let authority = try optionalString(object, "authority")
        guard (subdomain == nil) != (authority == nil) else {
            throw Problem("set exactly one of 'tenant_subdomain' and 'authority'")
        }
        var types = ["oob", "password"]
        if let raw = object["challenge_types"] {
            guard let list = raw as? [String], !list.isEmpty, list.allSatisfy({ $0 == "oob" || $0 == "password" }) else {
                throw Problem("field 'challenge_types' must be a non-empty list of \"oob\" and \"password\"")
            }
            types = list
        }
        var capabilities = ["mfa_required", "registration_required"]
        if let raw = object["capabilities"] {
            guard let list = raw as? [String], list.allSatisfy({ $0 == "mfa_required" || $0 == "registration_required" }) else {
                throw Problem("field 'capabilities' must be a list of \"mfa_required\" and \"registration_required\" (may be empty)")
            }
            capabilities = list
        }
        // "cache" is the C interface's first spelling; "default" its name for the file.
        if object["token_cache"] != nil, object["cache"] != nil { throw Problem("set at most one of 'token_cache' and 'cache'") }
        let cacheField = object["cache"] != nil ? "cache" : "token_cache"
        var tokenCache = TokenCache.file
        if let raw = object[cacheField] {
            guard let text = raw as? String, let choice = TokenCache(rawValue: text == "default" ? "file" : text) else {
                throw Problem("field '\(cacheField)' must be \"file\", \"keyring\" or \"redis\"")
            }
            tokenCache = choice
        }
        var savedSignIns = SavedSignIns.file
        if let raw = object["saved_sign_ins"] {
            guard let text = raw as? String, let choice = SavedSignIns(rawValue: text) else {
                throw Problem("field 'saved_sign_ins' must be \"file\" or \"redis\"")
            }
            savedSignIns = choice
        }
        let redis = try redis(object["redis"])
        let usesRedis = tokenCache == .redis || savedSignIns == .redis
        if usesRedis, redis == nil {
            throw Problem("field 'redis' is missing: \"redis\" in 'token_cache' or 'saved_sign_ins' needs a 'redis' object with 'url'")
        }
        if !usesRedis, redis != nil {
            throw Problem("field 'redis' is set, but neither 'token_cache' nor 'saved_sign_ins' is \"redis\"")
        }
        return AppConfiguration(
            clientId: clientId, tenantSubdomain: subdomain, authority: authority, challengeTypes: types, capabilities: capabilities,
            api1: try api(object, "api1"), api2: try api(object, "api2"), cacheFile: try optionalString(object, "cache_file"),
            tokenCache: tokenCache, savedSignIns: savedSignIns, redis: redis)
    }

    /// The `redis` object, read as the C interface reads it; its URL is never echoed.
    private static func redis(_ raw: Any?) throws(Problem) -> Redis? {
        guard let raw else { return nil }
        do {
            return try Redis(json: raw)
        } catch {
            throw Problem(error.message)
        }
    }

    /// The configuration as a file `load` reads back (keys sorted), for programs that write one.
    public func encoded() -> Data {
        var object: [String: Any] = ["client_id": clientId, "challenge_types": challengeTypes, "capabilities": capabilities]
        object["tenant_subdomain"] = tenantSubdomain
        object["authority"] = authority
        object["api1"] = api1.map { ["url": $0.url, "scopes": $0.scopes] }
        object["api2"] = api2.map { ["url": $0.url, "scopes": $0.scopes] }
        object["cache_file"] = cacheFile
        if tokenCache != .file { object["token_cache"] = tokenCache.rawValue }
        if savedSignIns != .file { object["saved_sign_ins"] = savedSignIns.rawValue }
        object["redis"] = redis?.json
        // Strings, numbers, lists of strings and objects of them: always serialisable.
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])) ?? Data()
    }

    private static func optionalString(_ object: [String: Any], _ field: String, in parent: String = "") throws(Problem) -> String? {
        guard let value = object[field] else { return nil }
        guard let text = value as? String, !text.isEmpty else { throw Problem("field '\(parent)\(field)' must be a non-empty string") }
        return text
    }

    private static func api(_ object: [String: Any], _ field: String) throws(Problem) -> API? {
        guard let value = object[field] else { return nil }
        guard let api = value as? [String: Any] else { throw Problem("field '\(field)' must be an object with 'url' and 'scopes'") }
        guard let url = api["url"] as? String, !url.isEmpty else { throw Problem("field '\(field).url' must be a non-empty string") }
        guard let scopes = api["scopes"] as? [String], !scopes.isEmpty else {
            throw Problem("field '\(field).scopes' must be a non-empty list of strings")
        }
        return API(url: url, scopes: scopes)
    }
}
