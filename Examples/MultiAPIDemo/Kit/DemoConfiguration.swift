import Foundation

/// The `--config FILE` for a real tenant:
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
///   "token_cache": "file"                                // or "keyring" (optional, default "file")
/// }
/// ```
public struct DemoConfiguration: Equatable, Sendable {
    public var clientId: String
    public var tenantSubdomain: String?
    public var authority: String?
    public var challengeTypes: [String]
    /// What the app declares it can do natively: `mfa_required`, `registration_required` (default both).
    public var capabilities: [String]
    public var api1: DemoAPI?
    public var api2: DemoAPI?
    public var cacheFile: String?
    /// Where tokens live: `file` (default: `cache_file` or the SDK's default file) or `keyring`
    /// (the desktop's Secret Service, falling back to that file when there is none).
    public var tokenCache: TokenCache = .file

    /// The `token_cache` choice.
    public enum TokenCache: String, Sendable, Equatable {
        case file, keyring
    }

    /// A configuration problem, naming the field.
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public static func load(_ data: Data) throws(Problem) -> DemoConfiguration {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw Problem("the configuration is not a JSON object")
        }
        let known: Set<String> = [
            "client_id", "tenant_subdomain", "authority", "challenge_types", "capabilities", "api1", "api2", "cache_file", "token_cache",
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
                throw Problem("field 'token_cache' must be \"file\" or \"keyring\"")
            }
            tokenCache = choice
        }
        return DemoConfiguration(
            clientId: clientId, tenantSubdomain: subdomain, authority: authority, challengeTypes: types, capabilities: capabilities,
            api1: try api(object, "api1"), api2: try api(object, "api2"), cacheFile: try optionalString(object, "cache_file"),
            tokenCache: tokenCache)
    }

    private static func optionalString(_ object: [String: Any], _ field: String) throws(Problem) -> String? {
        guard let value = object[field] else { return nil }
        guard let text = value as? String, !text.isEmpty else { throw Problem("field '\(field)' must be a non-empty string") }
        return text
    }

    private static func api(_ object: [String: Any], _ field: String) throws(Problem) -> DemoAPI? {
        guard let value = object[field] else { return nil }
        guard let api = value as? [String: Any] else { throw Problem("field '\(field)' must be an object with 'url' and 'scopes'") }
        guard let url = api["url"] as? String, !url.isEmpty else { throw Problem("field '\(field).url' must be a non-empty string") }
        guard let scopes = api["scopes"] as? [String], !scopes.isEmpty else {
            throw Problem("field '\(field).scopes' must be a non-empty list of strings")
        }
        return DemoAPI(url: url, scopes: scopes)
    }
}

/// A protected API the screen calls.
public struct DemoAPI: Equatable, Sendable {
    public var url: String
    public var scopes: [String]
    public init(url: String, scopes: [String]) {
        self.url = url
        self.scopes = scopes
    }
}
