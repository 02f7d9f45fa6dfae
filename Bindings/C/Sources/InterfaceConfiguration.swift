import Foundation
import MSAL

/// The JSON configuration of `msal_na_app_create`: the terminal demo's `--config` format
/// (`client_id`, `tenant_subdomain` or `authority`, `challenge_types`, `capabilities`, `cache_file`;
/// its `api1`/`api2` are accepted and left to the program) plus `token_cache` (`"default"` or `"file"`,
/// `"memory"`, `"keyring"`, `"redis"`; `cache` is its first spelling, still read), `saved_sign_ins`
/// and `request_timeout_seconds`.
///
/// Parsed here rather than shared with the demo kit, which the SDK-facing library must not depend
/// on; the field names and messages are the demo's.
struct InterfaceConfiguration: Sendable {
    var clientId: String
    var tenantSubdomain: String?
    var authority: String?
    var challengeTypes: [String] = ["oob", "password"]
    var capabilities: [String] = ["mfa_required", "registration_required"]
    var cacheFile: String?
    var inMemoryCache = false
    var requestTimeout: Double?
    /// `allows_multiple_accounts`: a native sign-in keeps the other accounts (default false, as MSAL).
    var allowsMultipleAccounts = false
    /// `"cache": "keyring"` with its `keyring` object (InterfaceConfiguration+Keyring.swift).
    var keyring: KeyringSettings?
    /// `"token_cache": "redis"` or `"saved_sign_ins": "redis"` with its `redis` object (InterfaceConfiguration+Redis.swift).
    var redis: RedisSettings?

    static let known: Set<String> = [
        "client_id", "tenant_subdomain", "authority", "challenge_types", "capabilities", "cache_file", "token_cache", "cache", "api1",
        "api2", "request_timeout_seconds", "allows_multiple_accounts", "keyring", "redis", "saved_sign_ins",
    ]

    static func parse(_ text: String) throws(InterfaceError) -> InterfaceConfiguration {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            throw problem("the configuration is not a JSON object")
        }
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw problem("unknown field '\(unknown)' (known: \(known.sorted().joined(separator: ", ")))")
        }
        guard let clientId = object["client_id"] as? String, !clientId.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw problem(object["client_id"] == nil ? "field 'client_id' is missing" : "field 'client_id' must be a non-empty string")
        }
        var configuration = InterfaceConfiguration(clientId: clientId)
        configuration.tenantSubdomain = try optionalString(object, "tenant_subdomain")
        configuration.authority = try optionalString(object, "authority")
        guard (configuration.tenantSubdomain == nil) != (configuration.authority == nil) else {
            throw problem("set exactly one of 'tenant_subdomain' and 'authority'")
        }
        // URL(string:) on Linux takes "https://…\n" and the requests then go to a path ending in %0A.
        if let authority = configuration.authority,
            authority.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 })
        {
            throw problem("field 'authority' contains white space or control characters")
        }
        if let raw = object["challenge_types"] {
            guard let list = raw as? [String], !list.isEmpty, list.allSatisfy({ $0 == "oob" || $0 == "password" }) else {
                throw problem("field 'challenge_types' must be a non-empty list of \"oob\" and \"password\"")
            }
            configuration.challengeTypes = list
        }
        if let raw = object["capabilities"] {
            guard let list = raw as? [String], list.allSatisfy({ $0 == "mfa_required" || $0 == "registration_required" }) else {
                throw problem("field 'capabilities' must be a list of \"mfa_required\" and \"registration_required\" (may be empty)")
            }
            configuration.capabilities = list
        }
        configuration.cacheFile = try optionalString(object, "cache_file")
        // One spelling with native-auth's configuration (token_cache), the first one (cache) still read.
        if object["token_cache"] != nil, object["cache"] != nil { throw problem("set at most one of 'token_cache' and 'cache'") }
        let cacheField = object["cache"] != nil ? "cache" : "token_cache"
        let cache = try optionalString(object, cacheField)
        if let cache {
            guard ["default", "file", "memory", "keyring", "redis"].contains(cache) else {
                throw problem("field '\(cacheField)' must be \"default\" (or \"file\"), \"memory\", \"keyring\" or \"redis\"")
            }
            guard (cache != "memory" && cache != "redis") || configuration.cacheFile == nil else {
                throw problem("set at most one of 'cache_file' and \"\(cacheField)\": \"\(cache)\"")
            }
            configuration.inMemoryCache = cache == "memory"
        }
        let signIns = try optionalString(object, "saved_sign_ins")
        guard signIns == nil || signIns == "file" || signIns == "redis" else {
            throw problem("field 'saved_sign_ins' must be \"file\" or \"redis\"")
        }
        configuration.keyring = try KeyringSettings.parse(object["keyring"], selected: cache == "keyring")
        configuration.redis = try RedisSettings.parse(object["redis"], tokens: cache == "redis", signIns: signIns == "redis")
        if let raw = object["allows_multiple_accounts"] {
            guard let flag = raw as? NSNumber, String(cString: flag.objCType) == "c" else {
                throw problem("field 'allows_multiple_accounts' must be true or false")
            }
            configuration.allowsMultipleAccounts = flag.boolValue
        }
        if let raw = object["request_timeout_seconds"] {
            guard let seconds = raw as? Double, seconds > 0, seconds <= 600 else {
                throw problem("field 'request_timeout_seconds' must be a number of seconds in (0, 600]")
            }
            configuration.requestTimeout = seconds
        }
        return configuration
    }

    /// The SDK application this configuration describes.
    func makeApplication(interceptor: RequestInterceptorBridge? = nil) throws(InterfaceError) -> MSALNativeAuthPublicClientApplication {
        var types: MSALNativeAuthChallengeTypes = []
        if challengeTypes.contains("oob") { types.insert(.OOB) }
        if challengeTypes.contains("password") { types.insert(.password) }
        do {
            let config: MSALNativeAuthPublicClientApplicationConfig
            if let tenantSubdomain {
                config = try MSALNativeAuthPublicClientApplicationConfig(
                    clientId: clientId, tenantSubdomain: tenantSubdomain, challengeTypes: types)
            } else {
                guard let raw = authority, let url = URL(string: raw) else { throw Self.problem("field 'authority' is not a URL") }
                config = MSALNativeAuthPublicClientApplicationConfig(
                    clientId: clientId, authority: try MSALCIAMAuthority(url: url), challengeTypes: types)
            }
            config.capabilities = []
            if capabilities.contains("mfa_required") { config.capabilities.insert(.mfaRequired) }
            if capabilities.contains("registration_required") { config.capabilities.insert(.registrationRequired) }
            if inMemoryCache {
                config.tokenCacheLocation = .inMemory
            } else if let cacheFile {
                config.tokenCacheLocation = .file(URL(fileURLWithPath: cacheFile))
            }
            if let requestTimeout { config.requestTimeout = requestTimeout }
            config.allowsMultipleAccounts = allowsMultipleAccounts
            config.requestInterceptor = interceptor
            if let keyring { config.tokenCacheLocation = try keyring.location(fallback: config.tokenCacheLocation) }
            if let redis, redis.holdsTokens { config.tokenCacheLocation = try redis.location() }
            return try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
        } catch let error as InterfaceError {
            throw error
        } catch {
            throw Self.problem((error as NSError).localizedDescription)
        }
    }

    static func problem(_ text: String) -> InterfaceError {
        InterfaceError(.invalidConfig, "invalid configuration: \(text)")
    }

    private static func optionalString(_ object: [String: Any], _ field: String) throws(InterfaceError) -> String? {
        guard let value = object[field] else { return nil }
        guard let text = value as? String, !text.isEmpty else { throw problem("field '\(field)' must be a non-empty string") }
        return text
    }
}
