import Foundation

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
///   "token_cache": "file",                               // or "keyring" or "redis" (optional, default "file")
///   "saved_sign_ins": "file",                            // or "redis" (optional, default "file")
///   "redis": {"url": "rediss://cache.internal:6380", "password_file": "…", "ca_file": "…",
///             "key_prefix": "contoso:", "encryption_key_file": "…"}   // with a "redis" above
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

    /// The `redis` object: where the server is and how values are kept there. Files are named, not
    /// read: the program reads them when it connects (Sources/NativeAuthCLI/RedisBackend.swift).
    public struct Redis: Equatable, Sendable {
        /// `redis://[user@]host[:port][/db]`, `rediss://…` (TLS) or `unix:///path/to/redis.sock`;
        /// never with a password in it (that is `passwordFile`'s).
        public var url: String
        /// A file whose first line is the password for `AUTH`.
        public var passwordFile: String?
        /// The PEM file of the CA that signed the server's certificate (`rediss://` only).
        public var caFile: String?
        /// Put before every key the program writes.
        public var keyPrefix: String?
        /// A file of 32 bytes (or 64 hex digits): the AES-256-GCM key values are sealed with at rest.
        public var encryptionKeyFile: String?

        public init(
            url: String, passwordFile: String? = nil, caFile: String? = nil, keyPrefix: String? = nil, encryptionKeyFile: String? = nil
        ) {
            self.url = url
            self.passwordFile = passwordFile
            self.caFile = caFile
            self.keyPrefix = keyPrefix
            self.encryptionKeyFile = encryptionKeyFile
        }

        static let fields = ["url", "password_file", "ca_file", "key_prefix", "encryption_key_file"]
    }

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
            "saved_sign_ins", "redis",
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
        var tokenCache = TokenCache.file
        if let raw = object["token_cache"] {
            guard let text = raw as? String, let choice = TokenCache(rawValue: text) else {
                throw Problem("field 'token_cache' must be \"file\", \"keyring\" or \"redis\"")
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

    /// The `redis` object: known fields only, a `url` of a Redis scheme without a password in it.
    /// The URL is never echoed (it may hold a user name; a password in it is refused, not shown).
    private static func redis(_ raw: Any?) throws(Problem) -> Redis? {
        guard let raw else { return nil }
        guard let object = raw as? [String: Any] else { throw Problem("field 'redis' must be an object with 'url'") }
        if let unknown = object.keys.sorted().first(where: { !Redis.fields.contains($0) }) {
            throw Problem("unknown field 'redis.\(unknown)' (known: \(Redis.fields.sorted().joined(separator: ", ")))")
        }
        guard let url = object["url"] as? String, !url.isEmpty else {
            throw Problem(object["url"] == nil ? "field 'redis.url' is missing" : "field 'redis.url' must be a non-empty string")
        }
        let scheme = url.prefix { $0 != ":" }.lowercased()
        guard ["redis", "rediss", "unix"].contains(scheme), url.dropFirst(scheme.count).hasPrefix("://") else {
            throw Problem("field 'redis.url' must start with redis://, rediss:// or unix://")
        }
        if let components = URLComponents(string: url), components.percentEncodedPassword != nil {
            throw Problem("field 'redis.url' must not hold a password: put it in a file named by 'redis.password_file'")
        }
        let settings = Redis(
            url: url, passwordFile: try optionalString(object, "password_file", in: "redis."),
            caFile: try optionalString(object, "ca_file", in: "redis."), keyPrefix: try optionalString(object, "key_prefix", in: "redis."),
            encryptionKeyFile: try optionalString(object, "encryption_key_file", in: "redis."))
        if settings.caFile != nil, scheme != "rediss" {
            throw Problem("field 'redis.ca_file' applies to TLS only: a rediss:// URL")
        }
        return settings
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
        if let redis {
            var settings: [String: Any] = ["url": redis.url]
            settings["password_file"] = redis.passwordFile
            settings["ca_file"] = redis.caFile
            settings["key_prefix"] = redis.keyPrefix
            settings["encryption_key_file"] = redis.encryptionKeyFile
            object["redis"] = settings
        }
        // Strings, lists of strings and objects of them: always serialisable.
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
