import Foundation
import MSAL
import MSALRedis
import NativeAuthAppConfig

/// A session's `RedisBackend`, made once at its first use (Session.redis()).
final class LazyRedisBackend {
    var backend: RedisBackend?
}

/// The Redis server of a configuration's `redis` object (docs/cli.md#redis): one client for the
/// token cache and the saved sign-ins, with the password and the encryption key read from their
/// files. Nothing is connected until the first command.
struct RedisBackend {
    let client: MSALRedisClient
    let encryptionKey: Data?

    /// The client for `settings`; a URL, file or key that cannot be used is `.configuration`
    /// naming the field (never the URL, the password or the key).
    init(_ settings: AppConfiguration.Redis, source: String) throws(CLIError) {
        func problem(_ text: String) -> CLIError { CLIError(.configuration, "configuration \(source): \(text)") }
        var configuration: MSALRedisConfiguration
        do {
            configuration = try MSALRedisConfiguration(url: settings.url)
        } catch {
            throw problem("field 'redis.url': \(error.message)")
        }
        if let file = settings.passwordFile {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw problem("cannot read the file of 'redis.password_file' (\(file))")
            }
            let password = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
            guard !password.isEmpty else { throw problem("the file of 'redis.password_file' (\(file)) has no password on its first line") }
            configuration.password = String(password)
        }
        configuration.caFile = settings.caFile
        configuration.keyPrefix = settings.keyPrefix ?? ""
        if let file = settings.encryptionKeyFile {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw problem("cannot read the file of 'redis.encryption_key_file' (\(file))")
            }
            guard let key = Self.key(data) else {
                throw problem(
                    "the file of 'redis.encryption_key_file' (\(file)) must hold 32 bytes or 64 hex digits (head -c 32 /dev/urandom > FILE)"
                )
            }
            encryptionKey = key
        } else {
            encryptionKey = nil
        }
        do {
            client = try MSALRedisClient(configuration: configuration)
        } catch {
            throw problem("'redis': \(error.message)")
        }
    }

    /// 32 bytes as they are, or 64 hex digits (with or without a final newline).
    static func key(_ data: Data) -> Data? {
        if data.count == 32 { return data }
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        guard text.utf8.count == 64 else { return nil }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return Data(bytes)
    }

    /// The SDK's token cache on this server.
    func tokenCacheLocation() throws(CLIError) -> MSALNativeAuthTokenCacheLocation {
        do {
            return .entryStore(try MSALRedisTokenCacheEntryStore(client: client, encryptionKey: encryptionKey))
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
                .configuration, "the Redis server refused the credentials (\(doing)): check 'redis.url' and 'redis.password_file'")
        case .tlsCertificate, .invalidConfiguration:
            return CLIError(.configuration, "the Redis server cannot be used (\(doing)): \(text)")
        default:
            return CLIError(.failure, "Redis (\(doing)): \(text)")
        }
    }
}
