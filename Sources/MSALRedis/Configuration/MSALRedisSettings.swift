import Foundation

/// The `redis` object of a configuration file: the one reading of it that `native-auth`, the C
/// interface and the Python package share (docs/redis.md#the-redis-object), and the one place a
/// client is made from it.
///
/// ```json
/// {"url": "rediss://worker@cache.internal:6380/2", "password_file": "/etc/contoso/redis.password",
///  "ca_file": "/etc/ssl/private-ca.pem", "key_prefix": "contoso:", "encryption_key_file": "/etc/contoso/redis.key"}
/// ```
///
/// `url` is required and never holds a password: the password is the first line of
/// `password_file`, or what `password_command` prints (`MSALRedisPasswordCommand`), so it is never
/// in the file. Paths are absolute. Reading checks the object only; the files are read, and the
/// command run, by `configuration()`. Errors are `.invalidConfiguration` and name the field
/// (`field 'redis.ca_file' …`), never the URL or what a file holds.
public struct MSALRedisSettings: Sendable, Equatable {
    /// `redis://[user@]host[:port][/db]`, `rediss://…`, `unix:///path`, `redis-sentinel://…` or
    /// `rediss-sentinel://…` (as `MSALRedisConfiguration(url:)` reads it), without a password.
    public var url: String
    /// A file whose first line is the password.
    public var passwordFile: String?
    /// A program and its arguments that print the password (`MSALRedisPasswordCommand`), run again
    /// before it expires; the user is the URL's, or the token's `oid`.
    public var passwordCommand: [String]?
    /// How long a password the command prints holds when it is not a token (seconds; 3600 by default).
    public var passwordCommandRefresh: TimeInterval?
    /// The PEM file of the CA that signed the server's certificate (TLS only).
    public var caFile: String?
    /// The client certificate (PEM, maybe followed by its chain) for servers that ask for one (TLS only).
    public var certificateFile: String?
    /// The client certificate's unencrypted private key (PEM); without it, read from `certificateFile`.
    public var certificateKeyFile: String?
    /// Put before every key written.
    public var keyPrefix: String?
    /// A file of 32 bytes or 64 hex digits: the AES-256-GCM key that seals values at rest.
    public var encryptionKeyFile: String?
    /// How long the SDK trusts a copy it holds without asking Redis, when changes are not pushed
    /// (seconds, 0 to 3600; 1 by default).
    public var checkInterval: TimeInterval?

    /// The members of the object, as the file spells them.
    public static let fields = [
        "url", "password_file", "password_command", "password_command_refresh_seconds", "ca_file", "certificate_file",
        "certificate_key_file", "key_prefix", "encryption_key_file", "check_interval_seconds",
    ]

    /// How long a program waits at its start for `password_command` (its time limit, and a second).
    package static let credentialWait: TimeInterval = 31

    /// Settings for `url` and nothing else.
    public init(url: String) {
        self.url = url
    }

    /// Reads a `redis` object parsed from JSON (`JSONSerialization`), checking every member.
    public init(json raw: Any) throws(MSALRedisError) {
        guard let object = raw as? [String: Any] else { throw Self.problem("field 'redis' must be an object with 'url'") }
        if let unknown = object.keys.sorted().first(where: { !Self.fields.contains($0) }) {
            throw Self.problem("unknown field 'redis.\(unknown)' (known: \(Self.fields.sorted().joined(separator: ", ")))")
        }
        guard let url = object["url"] as? String, !url.isEmpty, !url.contains("\0") else {
            throw Self.problem(object["url"] == nil ? "field 'redis.url' is missing" : "field 'redis.url' must be a non-empty string")
        }
        let parsed: MSALRedisConfiguration
        do {
            parsed = try MSALRedisConfiguration(url: url)
        } catch {
            throw Self.problem("field 'redis.url': \(error.message)")
        }
        guard parsed.password == nil else {
            throw Self.problem("field 'redis.url' must not hold a password: put it in 'redis.password_file' or 'redis.password_command'")
        }
        self.init(url: url)
        passwordFile = try Self.path(object, "password_file")
        caFile = try Self.path(object, "ca_file")
        certificateFile = try Self.path(object, "certificate_file")
        certificateKeyFile = try Self.path(object, "certificate_key_file")
        encryptionKeyFile = try Self.path(object, "encryption_key_file")
        if let raw = object["password_command"] {
            guard let words = raw as? [String], let program = words.first, !program.isEmpty, !words.contains(where: { $0.contains("\0") })
            else {
                throw Self.problem("field 'redis.password_command' must be a list: the program, then its arguments")
            }
            guard passwordFile == nil else { throw Self.problem("set at most one of 'redis.password_file' and 'redis.password_command'") }
            passwordCommand = words
        }
        passwordCommandRefresh = try Self.seconds(object, "password_command_refresh_seconds", 1...86_400)
        if passwordCommandRefresh != nil, passwordCommand == nil {
            throw Self.problem("field 'redis.password_command_refresh_seconds' applies to 'redis.password_command' only")
        }
        checkInterval = try Self.seconds(object, "check_interval_seconds", 0...3600)
        if let raw = object["key_prefix"] {
            guard let prefix = raw as? String, !prefix.contains("\0") else {
                throw Self.problem("field 'redis.key_prefix' must be a string")
            }
            keyPrefix = prefix
        }
        for (field, value) in [("ca_file", caFile), ("certificate_file", certificateFile), ("certificate_key_file", certificateKeyFile)]
        where value != nil && !parsed.useTLS {
            throw Self.problem("field 'redis.\(field)' applies to TLS only: a rediss:// or rediss-sentinel:// URL")
        }
        if certificateKeyFile != nil, certificateFile == nil {
            throw Self.problem("field 'redis.certificate_key_file' needs 'redis.certificate_file'")
        }
    }

    /// The object as the file holds it, for programs that write one.
    public var json: [String: Any] {
        var object: [String: Any] = ["url": url]
        object["password_file"] = passwordFile
        object["password_command"] = passwordCommand
        object["password_command_refresh_seconds"] = passwordCommandRefresh
        object["ca_file"] = caFile
        object["certificate_file"] = certificateFile
        object["certificate_key_file"] = certificateKeyFile
        object["key_prefix"] = keyPrefix
        object["encryption_key_file"] = encryptionKeyFile
        object["check_interval_seconds"] = checkInterval
        return object
    }

    /// The client configuration: the URL read, the password file read or the command set as the
    /// credential source, the TLS files and the prefix set. Errors name the field.
    public func configuration() throws(MSALRedisError) -> MSALRedisConfiguration {
        var configuration: MSALRedisConfiguration
        do {
            configuration = try MSALRedisConfiguration(url: url)
        } catch {
            throw Self.problem("field 'redis.url': \(error.message)")
        }
        do {
            configuration.password = try passwordFile.map(MSALRedisConfiguration.password(fromFile:))
        } catch {
            throw Self.problem("field 'redis.password_file': \(error.message)")
        }
        if let passwordCommand {
            configuration.credentialSource =
                MSALRedisPasswordCommand(passwordCommand, username: configuration.username, refreshInterval: passwordCommandRefresh ?? 3600)
                .source
        }
        configuration.caFile = caFile
        configuration.certificateFile = certificateFile
        configuration.keyFile = certificateKeyFile
        configuration.keyPrefix = keyPrefix ?? ""
        return configuration
    }

    /// The AES-256-GCM key in `encryption_key_file`, or `nil` without one.
    public func encryptionKey() throws(MSALRedisError) -> Data? {
        do {
            return try encryptionKeyFile.map(MSALRedisConfiguration.encryptionKey(fromFile:))
        } catch {
            throw Self.problem("field 'redis.encryption_key_file': \(error.message) (head -c 32 /dev/urandom > FILE)")
        }
    }

    private static func problem(_ text: String) -> MSALRedisError {
        MSALRedisError(.invalidConfiguration, text)
    }

    private static func path(_ object: [String: Any], _ field: String) throws(MSALRedisError) -> String? {
        guard let raw = object[field] else { return nil }
        guard let path = raw as? String, path.hasPrefix("/"), !path.contains("\0") else {
            throw problem("field 'redis.\(field)' must be an absolute path")
        }
        return path
    }

    private static func seconds(_ object: [String: Any], _ field: String, _ range: ClosedRange<Double>) throws(MSALRedisError) -> Double? {
        guard let raw = object[field] else { return nil }
        // A JSON true or false is an NSNumber too: its type is "c".
        guard let number = raw as? NSNumber, String(cString: number.objCType) != "c", range.contains(number.doubleValue) else {
            throw problem("field 'redis.\(field)' must be a number of seconds in [\(Int(range.lowerBound)), \(Int(range.upperBound))]")
        }
        return number.doubleValue
    }
}
