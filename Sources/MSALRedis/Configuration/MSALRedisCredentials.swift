import Foundation

/// What a connection sends with `AUTH`, and until when it holds: what an
/// `MSALRedisConfiguration.credentialSource` returns.
///
/// ```swift
/// // given: fetchRedisToken: @Sendable () throws -> (objectId: String, value: String, expiresOn: Date)
/// // Azure Managed Redis with Microsoft Entra: the user is the identity's object id, the password
/// // an access token for https://redis.azure.com (docs/redis.md#azure-managed-redis).
/// var configuration = try MSALRedisConfiguration(url: "rediss://contoso.eastus.redis.azure.net:10000")
/// configuration.credentialSource = {
///     let token = try fetchRedisToken()  // the app's own: a managed identity, a workload identity…
///     return MSALRedisCredentials(username: token.objectId, password: token.value, expiresOn: token.expiresOn)
/// }
/// ```
///
/// Its description shows the user and the expiry, never the password.
public struct MSALRedisCredentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The ACL user; `nil`: the default user.
    public var username: String?
    /// The password (or token) for `AUTH`.
    public var password: String
    /// When the server stops accepting them; `nil`: they do not expire (they are asked for again
    /// only when a new connection is refused).
    public var expiresOn: Date?

    /// Credentials for `username` (the default user when `nil`), holding until `expiresOn` (for ever when `nil`).
    public init(username: String? = nil, password: String, expiresOn: Date? = nil) {
        self.username = username
        self.password = password
        self.expiresOn = expiresOn
    }

    /// The user and the expiry; the password as `***`.
    public var description: String {
        let user = username.map { "user \($0)" } ?? "the default user"
        return "Redis credentials for \(user), password ***\(expiresOn.map { ", expiring \($0)" } ?? "")"
    }

    /// As `description`.
    public var debugDescription: String { description }

    /// The description alone, so that `dump` shows no password either.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    /// The `AUTH` command that presents them.
    var command: RedisCommand {
        RedisCommand("AUTH", arguments: (username.map { [$0] } ?? []) + [password])
    }
}
