import Foundation

/// Where a Redis server is and how to talk to it: the address, TLS, the ACL user and password,
/// the database, a key prefix and the timeouts.
///
/// ```swift
/// var configuration = try MSALRedisConfiguration(url: "rediss://app:secret@redis.example.com:6380/2")
/// configuration.keyPrefix = "contoso-todo:"
/// configuration.commandTimeout = 0.5
/// let client = try MSALRedisClient(configuration: configuration)
/// try client.ping()
/// ```
///
/// URL forms (docs/redis.md#connections): `redis://[user:password@]host[:port][/db]`, `rediss://…`
/// (TLS, port 6379 unless given), `unix:///path/to/redis.sock[?db=N]`, and under Redis Sentinel
/// `redis-sentinel://[user:password@]host[:port],host[:port]…/primary-name[/db]` or
/// `rediss-sentinel://…` (sentinels on port 26379 unless given; docs/redis.md#redis-sentinel).
/// A user name without a
/// password (or a password alone, `redis://:password@host`) is allowed: `AUTH` is sent with what
/// is given. Percent-escapes in the user and password are decoded.
public struct MSALRedisConfiguration: Sendable, CustomStringConvertible {
    /// How the connection reaches the server.
    public enum Endpoint: Sendable, Equatable {
        /// A host name or an IP address, and a port.
        case tcp(host: String, port: Int)
        /// A unix domain socket's path.
        case unix(path: String)
        /// The primary that Redis Sentinel names (MSALRedisConfiguration+Sentinel.swift).
        case sentinel(Sentinel)
    }

    /// Where the server is (for Redis Cluster: any one node; the others are learnt from it).
    public var endpoint: Endpoint
    /// TLS on the connection, verifying the server's certificate and that it names the host.
    public var useTLS: Bool
    /// The PEM file of the CA (or CAs) that signed the server's certificate; `nil`: the system's store.
    public var caFile: String?
    /// The PEM file of the client certificate (optionally followed by its chain), for a server
    /// that asks for one (`tls-auth-clients yes`); `nil`: no certificate is sent.
    public var certificateFile: String?
    /// The PEM file of the client certificate's private key, not encrypted; `nil` with a
    /// certificate: the key is read from `certificateFile`.
    public var keyFile: String?
    /// The ACL user for `AUTH` (Redis 6 and later); `nil` with a password: the default user.
    public var username: String?
    /// The password for `AUTH`; `nil`: no `AUTH`.
    public var password: String?
    /// Credentials that change (an Entra token for Azure Managed Redis, a rotated password): asked
    /// for at the first connection and again `credentialRenewalMargin` before they expire, when
    /// every open connection sends `AUTH` again (docs/redis.md#credentials-that-change). Takes the
    /// place of `username` and `password`; `MSALRedisPasswordCommand` makes one from a program.
    public var credentialSource: (@Sendable () throws -> MSALRedisCredentials)?
    /// How long before the credentials expire they are asked for again (and at most half their
    /// lifetime): 300 s by default (Microsoft asks for at least 3 minutes before an Entra token
    /// expires).
    public var credentialRenewalMargin: TimeInterval
    /// The database `SELECT`ed after connecting (0 to 15 by default; Redis Cluster has only 0).
    public var database: Int
    /// Put before every key this library writes, so several apps can share one server.
    public var keyPrefix: String
    /// Seconds to make a connection (TCP, TLS handshake, `AUTH` and `SELECT` together).
    public var connectTimeout: TimeInterval
    /// Seconds for one command, from sending it to its whole reply.
    public var commandTimeout: TimeInterval
    /// The longest reply accepted, in bytes (a bulk string, or one line); longer is `.tooLarge`.
    public var maxReplyBytes: Int
    /// The most elements one array reply may have; more is `.tooLarge`.
    public var maxArrayCount: Int

    /// A configuration for `endpoint` with the defaults: no TLS, no `AUTH`, database 0, no
    /// prefix, 5 s to connect, 2 s per command, replies up to 64 MiB and 1,048,576 elements.
    public init(endpoint: Endpoint) {
        self.endpoint = endpoint
        self.useTLS = false
        self.caFile = nil
        self.certificateFile = nil
        self.keyFile = nil
        self.username = nil
        self.password = nil
        self.credentialSource = nil
        self.credentialRenewalMargin = 300
        self.database = 0
        self.keyPrefix = ""
        self.connectTimeout = 5
        self.commandTimeout = 2
        self.maxReplyBytes = 64 << 20
        self.maxArrayCount = 1 << 20
    }

    /// A configuration read from a `redis://`, `rediss://` or `unix://` URL (above); the rest
    /// keeps the defaults of `init(endpoint:)`. Throws `.invalidConfiguration`, never echoing the
    /// password.
    public init(url text: String) throws(MSALRedisError) {
        if let sentinel = try Self.sentinel(url: text) { // redis-sentinel://, rediss-sentinel:// (MSALRedisConfiguration+Sentinel.swift)
            self = sentinel
            return
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw MSALRedisError(
                .invalidConfiguration,
                "The Redis URL cannot be read (expected redis://, rediss://, unix://, redis-sentinel:// or rediss-sentinel://)")
        }
        switch scheme {
        case "redis", "rediss":
            guard let host = components.host, !host.isEmpty else {
                throw MSALRedisError(.invalidConfiguration, "The Redis URL has no host")
            }
            let port = components.port ?? 6379
            guard (1...65535).contains(port) else { throw MSALRedisError(.invalidConfiguration, "The Redis URL's port is out of range") }
            let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            self.init(endpoint: .tcp(host: bare, port: port))
            useTLS = scheme == "rediss"
            let path = components.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            if !path.isEmpty { database = try Self.database(path) }
        case "unix":
            guard components.host?.isEmpty ?? true, !components.path.isEmpty else {
                throw MSALRedisError(.invalidConfiguration, "A unix:// Redis URL needs an absolute path: unix:///path/to/redis.sock")
            }
            self.init(endpoint: .unix(path: components.path))
        default:
            throw MSALRedisError(
                .invalidConfiguration, "The Redis URL's scheme must be redis, rediss, unix, redis-sentinel or rediss-sentinel")
        }
        for item in components.queryItems ?? [] {
            switch item.name {
            case "db": database = try Self.database(item.value ?? "")
            default: throw MSALRedisError(.invalidConfiguration, "The Redis URL has an unknown parameter")
            }
        }
        if let user = components.percentEncodedUser, !user.isEmpty { username = user.removingPercentEncoding ?? user }
        if let secret = components.percentEncodedPassword { password = secret.removingPercentEncoding ?? secret }
    }

    private static func database(_ text: String) throws(MSALRedisError) -> Int {
        guard let number = Int(text), number >= 0, number <= 1 << 20 else {
            throw MSALRedisError(.invalidConfiguration, "The Redis database must be a number (0 to 15 on a default server)")
        }
        return number
    }

    /// The endpoint, TLS, user and database; the password as `***`.
    public var description: String {
        let place: String
        switch endpoint {
        case .tcp(let host, let port): place = "\(useTLS ? "rediss" : "redis")://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        case .unix(let path): place = "unix://\(path)"
        case .sentinel(let sentinel): place = Self.sentinelDescription(sentinel, tls: useTLS)
        }
        let user = username.map { " user \($0)" } ?? ""
        let secret = credentialSource != nil ? " credentials from a source" : password == nil ? "" : " password ***"
        return "\(place) db \(database)\(user)\(secret)"
    }
}
