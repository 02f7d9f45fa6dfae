import Foundation
import MSAL
import MSALRedis

/// The `redis` object of the configuration, with `"cache": "redis"` (docs/redis.md#from-c-and-python):
///
///     {"url": "rediss://worker@cache.internal:6380/2", "password_file": "/etc/contoso-todo/redis.password",
///      "ca_file": "/etc/ssl/private-ca.pem", "key_prefix": "contoso-todo:",
///      "encryption_key_file": "/etc/contoso-todo/redis.key", "check_interval_seconds": 1}
///
/// `url` is required (`redis://`, `rediss://`, `unix://`, as `MSALRedisConfiguration(url:)` reads
/// it) and carries no password: the password is the first line of `password_file`, so it is never
/// in the JSON. `encryption_key_file` holds 32 bytes or 64 hex digits, the AES-256-GCM key of the values at
/// rest. The files are read, and the server asked (`PING`), when the application is made: a server
/// that cannot be used then is `MSAL_NA_ERR_REDIS_UNAVAILABLE`, with a message that names the server
/// (its password as `***`).
struct RedisSettings: Sendable {
    var url: String
    var passwordFile: String?
    var caFile: String?
    var keyPrefix: String?
    var encryptionKeyFile: String?
    var checkInterval: TimeInterval = 1

    static let known: Set<String> = ["url", "password_file", "ca_file", "key_prefix", "encryption_key_file", "check_interval_seconds"]

    static func parse(_ raw: Any?, selected: Bool) throws(InterfaceError) -> RedisSettings? {
        guard let raw else {
            if selected { throw problem("\"cache\": \"redis\" needs a 'redis' object with 'url'") }
            return nil
        }
        guard selected else { throw problem("field 'redis' is used only with \"cache\": \"redis\"") }
        guard let object = raw as? [String: Any] else { throw problem("field 'redis' must be a JSON object") }
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw problem("unknown field 'redis.\(unknown)' (known: \(known.sorted().joined(separator: ", ")))")
        }
        guard let url = object["url"] as? String, !url.isEmpty, !url.contains("\0") else {
            throw problem("field 'redis.url' must be a redis://, rediss:// or unix:// URL")
        }
        // Read now, so that a bad URL is a configuration error; its text is never echoed (it may hold a password).
        let parsed: MSALRedisConfiguration
        do throws(MSALRedisError) { parsed = try MSALRedisConfiguration(url: url) } catch {
            throw problem("field 'redis.url': \(error.message)")
        }
        guard parsed.password == nil else {
            throw problem("field 'redis.url' must not carry a password: put it in the file 'redis.password_file' names")
        }
        var settings = RedisSettings(url: url)
        settings.passwordFile = try path(object, "password_file")
        settings.caFile = try path(object, "ca_file")
        settings.encryptionKeyFile = try path(object, "encryption_key_file")
        if settings.caFile != nil, !parsed.useTLS {
            throw problem("field 'redis.ca_file' is used only with a rediss:// URL")
        }
        if let raw = object["key_prefix"] {
            guard let prefix = raw as? String, !prefix.contains("\0") else { throw problem("field 'redis.key_prefix' must be a string") }
            settings.keyPrefix = prefix
        }
        if let raw = object["check_interval_seconds"] {
            guard let number = raw as? NSNumber, String(cString: number.objCType) != "c", number.doubleValue >= 0,
                number.doubleValue <= 3600
            else {
                throw problem("field 'redis.check_interval_seconds' must be a number of seconds in [0, 3600]")
            }
            settings.checkInterval = number.doubleValue
        }
        return settings
    }

    private static func path(_ object: [String: Any], _ field: String) throws(InterfaceError) -> String? {
        guard let raw = object[field] else { return nil }
        guard let path = raw as? String, path.hasPrefix("/"), !path.contains("\0") else {
            throw problem("field 'redis.\(field)' must be an absolute path")
        }
        return path
    }

    private static func problem(_ text: String) -> InterfaceError {
        InterfaceConfiguration.problem(text)
    }

    /// The Redis client these settings describe, its password and key read from their files.
    func client() throws(InterfaceError) -> (client: MSALRedisClient, encryptionKey: Data?) {
        var configuration: MSALRedisConfiguration
        do throws(MSALRedisError) { configuration = try MSALRedisConfiguration(url: url) } catch {
            throw Self.problem("field 'redis.url': \(error.message)")
        }
        do throws(MSALRedisError) {
            configuration.password = try passwordFile.map(MSALRedisConfiguration.password(fromFile:))
        } catch {
            throw Self.problem("field 'redis.password_file': \(error.message)")
        }
        let key: Data?
        do throws(MSALRedisError) {
            key = try encryptionKeyFile.map(MSALRedisConfiguration.encryptionKey(fromFile:))
        } catch {
            throw Self.problem("field 'redis.encryption_key_file': \(error.message)")
        }
        configuration.caFile = caFile
        if let keyPrefix { configuration.keyPrefix = keyPrefix }
        do throws(MSALRedisError) {
            return (try MSALRedisClient(configuration: configuration), key)
        } catch {
            throw Self.unusable(error, configuration)
        }
    }

    /// The token cache on the server, checked usable now (`PING`, which connects, sends `AUTH` and `SELECT`).
    func location() throws(InterfaceError) -> MSALNativeAuthTokenCacheLocation {
        let (client, key) = try client()
        let store: MSALRedisTokenCacheEntryStore
        do throws(MSALRedisError) {
            store = try MSALRedisTokenCacheEntryStore(client: client, encryptionKey: key)
            try client.command(["PING"])
        } catch {
            throw Self.unusable(error, client.configuration)
        }
        return .entryStore(store, checkInterval: checkInterval)
    }

    /// A Redis error at start as the C error it is: a configuration the client refuses is
    /// `MSAL_NA_ERR_INVALID_CONFIG`; anything else (down, credentials, TLS) `MSAL_NA_ERR_REDIS_UNAVAILABLE`.
    /// The server is named by its description, which shows a password as `***`.
    static func unusable(_ error: MSALRedisError, _ configuration: MSALRedisConfiguration) -> InterfaceError {
        let message = "Redis at \(configuration) cannot be used: \(error.message)"
        return InterfaceError(error.code == .invalidConfiguration ? .invalidConfig : .redisUnavailable, message)
    }
}

/// An application's saved sign-ins on its Redis (`msal_na_app_redis_save_state`, `_take_state`):
/// an `MSALRedisSignInStore` made from the `redis` settings at the first use, on a connection of its
/// own (so a saved sign-in does not wait behind the token cache's commands), with the same key
/// prefix and encryption key.
final class RedisSignIns: @unchecked Sendable {
    private let settings: RedisSettings?
    private let lock = NSLock()
    private var opened: (store: MSALRedisSignInStore, server: MSALRedisConfiguration)?

    init(_ settings: RedisSettings?) {
        self.settings = settings
    }

    /// Runs `body` on the store; a Redis failure becomes the C error it is (`failure`).
    func with<T>(_ body: (MSALRedisSignInStore) throws(MSALRedisError) -> T) throws(InterfaceError) -> T {
        let (store, server) = try made()
        do throws(MSALRedisError) {
            return try body(store)
        } catch {
            throw Self.failure(error, server)
        }
    }

    private func made() throws(InterfaceError) -> (store: MSALRedisSignInStore, server: MSALRedisConfiguration) {
        lock.lock()
        defer { lock.unlock() }
        if let opened { return opened }
        guard let settings else {
            throw InterfaceError(.invalidArgument, "the application has no \"cache\": \"redis\" (its 'redis' settings name the server)")
        }
        let (client, key) = try settings.client()
        do throws(MSALRedisError) {
            let store = try MSALRedisSignInStore(client: client, encryptionKey: key)
            opened = (store, client.configuration)
            return (store, client.configuration)
        } catch {
            throw RedisSettings.unusable(error, client.configuration)
        }
    }

    /// An id that is not there is `MSAL_NA_ERR_STATE_NOT_FOUND`, a value this library did not write
    /// `_STATE_MALFORMED`, the rest the server's (`_REDIS_UNAVAILABLE`). Neither the id nor the state
    /// reaches the message.
    private static func failure(_ error: MSALRedisError, _ server: MSALRedisConfiguration) -> InterfaceError {
        switch error.code {
        case .notFound:
            InterfaceError(.stateNotFound, "no saved sign-in under this id: never saved, expired (10 minutes) or already taken")
        case .invalidValue: InterfaceError(.stateMalformed, "the saved sign-in in Redis is not one this library saved: \(error.message)")
        default: RedisSettings.unusable(error, server)
        }
    }
}
