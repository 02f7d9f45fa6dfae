import Foundation
import MSAL
import MSALRedis
import NativeAuthAppConfig

/// A session's `RedisBackend` (`Session.redisBackend`), made at its first use and the same for
/// every later one in the process.
final class LazyRedisBackend {
    private var made: RedisBackend?

    /// The backend of `settings` (nil without a `redis` object), made now if it was not yet.
    func backend(_ settings: AppConfiguration.Redis?, source: String) throws(CLIError) -> RedisBackend? {
        if let made { return made }
        guard let settings else { return nil }
        made = try RedisBackend(settings, source: source)
        return made
    }
}

/// The Redis server of a configuration's `redis` object (docs/cli.md#redis): one client for the
/// token cache and the saved sign-ins, with the password and the encryption key read from their
/// files. Nothing is connected until the first command.
struct RedisBackend {
    let settings: AppConfiguration.Redis
    let client: MSALRedisClient
    let encryptionKey: Data?

    /// The client for `settings` (MSALRedisSettings, the reader the C interface shares); a file,
    /// key or command that cannot be used is `.configuration` naming the field (never the URL, the
    /// password or the key).
    init(_ settings: AppConfiguration.Redis, source: String) throws(CLIError) {
        self.settings = settings
        let configuration: MSALRedisConfiguration
        do {
            configuration = try settings.configuration()
            encryptionKey = try settings.encryptionKey()
        } catch {
            throw CLIError(.configuration, "configuration \(source): \(error.message)")
        }
        do {
            client = try MSALRedisClient(configuration: configuration)
        } catch {
            throw CLIError(.configuration, "configuration \(source): 'redis': \(error.message)")
        }
        do {
            try client.awaitCredentials(timeout: MSALRedisSettings.credentialWait)
        } catch {
            throw Self.failure(error, doing: "getting the Redis password")
        }
    }

    /// The SDK's token cache on this server. Without change tracking: a command lives for one
    /// request, so a tracking connection would cost a connection and never serve a hit.
    func tokenCacheLocation() throws(CLIError) -> MSALNativeAuthTokenCacheLocation {
        do {
            let store = try MSALRedisTokenCacheEntryStore(client: client, encryptionKey: encryptionKey, tracksChanges: false)
            return .entryStore(store, checkInterval: settings.checkInterval ?? 1)
        } catch {
            throw CLIError(.configuration, "the Redis token cache cannot be used: \(error.message)")
        }
    }

    /// Saved sign-ins on this server, each taken once.
    func signInStore() throws(CLIError) -> MSALRedisSignInStore {
        do {
            return try MSALRedisSignInStore(client: client, encryptionKey: encryptionKey)
        } catch {
            throw CLIError(.configuration, "Redis cannot keep saved sign-ins: \(error.message)")
        }
    }

    /// A Redis failure as the tool reports it (docs/cli.md#redis): a server that cannot be reached
    /// or does not answer in time is `.network`, refused credentials, a certificate or a setting the
    /// server refuses `.configuration`, anything else `.failure`. `error` is an `MSALRedisError` or
    /// the `NSError` the SDK made of one; its message carries no password, value or id.
    static func failure(_ error: any Error, doing: String) -> CLIError {
        let error = error as NSError
        guard error.domain == MSALRedisErrorDomain, let code = MSALRedisError.Code(rawValue: error.code) else {
            return CLIError(.failure, "\(doing): \(error.localizedDescription)")
        }
        let text = error.localizedDescription
        switch code {
        case .connectionFailed, .timeout:
            return CLIError(.network, "the Redis server cannot be reached (\(doing)): \(text)")
        case .authentication:
            return CLIError(
                .configuration,
                "Redis authentication failed (\(doing)): \(text) (check 'redis.url' and 'redis.password_file' or 'redis.password_command')")
        case .tlsCertificate, .invalidConfiguration:
            return CLIError(.configuration, "the Redis server cannot be used (\(doing)): \(text)")
        default:
            return CLIError(.failure, "Redis (\(doing)): \(text)")
        }
    }
}
