import Foundation
import MSAL
import MSALRedis

/// The `redis` object of the configuration, with `"token_cache": "redis"` or `"saved_sign_ins":
/// "redis"` (docs/redis.md#the-redis-object): read by `MSALRedisSettings`, the reader `native-auth`
/// shares, so one file serves both. The files are read, the command run and the server asked
/// (`PING`) when the application is made: a server that cannot be used then is
/// `MSAL_NA_ERR_REDIS_UNAVAILABLE`, with a message that names the server (its password as `***`).
struct RedisSettings: Sendable {
    let settings: MSALRedisSettings
    /// Whether the token cache is on Redis (not only the saved sign-ins).
    let holdsTokens: Bool

    static func parse(_ raw: Any?, tokens: Bool, signIns: Bool) throws(InterfaceError) -> RedisSettings? {
        guard let raw else {
            if tokens || signIns { throw problem("\"redis\" in 'token_cache' or 'saved_sign_ins' needs a 'redis' object with 'url'") }
            return nil
        }
        guard tokens || signIns else {
            throw problem("field 'redis' is used only with \"token_cache\": \"redis\" or \"saved_sign_ins\": \"redis\"")
        }
        do throws(MSALRedisError) {
            return RedisSettings(settings: try MSALRedisSettings(json: raw), holdsTokens: tokens)
        } catch {
            throw problem(error.message)
        }
    }

    private static func problem(_ text: String) -> InterfaceError {
        InterfaceConfiguration.problem(text)
    }

    /// The Redis client these settings describe, its password and key read from their files.
    func client() throws(InterfaceError) -> (client: MSALRedisClient, encryptionKey: Data?) {
        let configuration: MSALRedisConfiguration
        let key: Data?
        do throws(MSALRedisError) {
            configuration = try settings.configuration()
            key = try settings.encryptionKey()
        } catch {
            throw Self.problem(error.message)
        }
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
            try client.awaitCredentials(timeout: MSALRedisSettings.credentialWait)
            try client.ping()
        } catch {
            throw Self.unusable(error, client.configuration)
        }
        return .entryStore(store, checkInterval: settings.checkInterval ?? 1)
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
            throw InterfaceError(
                .invalidArgument,
                "the application has no \"saved_sign_ins\": \"redis\" or \"token_cache\": \"redis\" (its 'redis' settings name the server)")
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
