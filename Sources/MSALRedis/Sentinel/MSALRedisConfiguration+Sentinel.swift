import Foundation

extension MSALRedisConfiguration {
    /// Redis Sentinel: one primary with replicas, watched by sentinels that name the primary and
    /// promote a replica when it fails. The client asks the sentinels for the primary, checks with
    /// `ROLE` that it is one, and asks again after a failure or a `READONLY` reply
    /// (Sources/MSALRedis/Sentinel/SentinelPrimary.swift).
    ///
    /// The configuration's user and password are the data servers' (primary and replicas). The
    /// sentinels are asked without `AUTH`: a sentinel's own password (`requirepass` in its
    /// configuration) is usually another secret than the data's, and a URL has room for one.
    /// TLS (`rediss-sentinel://`) is used for sentinels and servers alike, with the same CA.
    public struct Sentinel: Sendable, Equatable {
        /// A sentinel's host name or IP address, and its port.
        public struct Address: Sendable, Hashable {
            /// The host name or IP address.
            public var host: String
            /// The port.
            public var port: Int

            /// The sentinel at `host` and `port`.
            public init(host: String, port: Int) {
                self.host = host
                self.port = port
            }
        }

        /// The sentinels, in the order they are asked first (one that answers is asked first after).
        public var sentinels: [Address]
        /// The name the sentinels monitor the primary under (`sentinel monitor <name> …`).
        public var primaryName: String

        /// The primary monitored as `primaryName` by `sentinels`.
        public init(sentinels: [Address], primaryName: String) {
            self.sentinels = sentinels
            self.primaryName = primaryName
        }

        /// The port a sentinel listens on unless the URL says another.
        public static let defaultPort = 26379
    }

    /// The configuration of a `redis-sentinel://` or `rediss-sentinel://` URL, nil for another
    /// scheme:
    ///
    ///     redis-sentinel://[user[:password]@]host[:port][,host[:port]…]/<primary-name>[/db]
    ///
    /// (port 26379 unless given; an IPv6 address in brackets; percent-escapes decoded in the user,
    /// the password and the name). `URLComponents` cannot read a list of hosts, so it is read here.
    static func sentinel(url text: String) throws(MSALRedisError) -> MSALRedisConfiguration? {
        guard let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "redis-sentinel" || scheme == "rediss-sentinel" else { return nil }
        var rest = text[separator.upperBound...]
        guard !rest.contains("?"), !rest.contains("#") else {
            throw MSALRedisError(.invalidConfiguration, "A Redis Sentinel URL takes no parameters: the database is /<name>/<db>")
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<slash]
        rest = rest[slash...]
        var username: String?
        var password: String?
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            let colon = userInfo.firstIndex(of: ":")
            let user = userInfo[..<(colon ?? userInfo.endIndex)]
            if !user.isEmpty { username = decoded(user) }
            if let colon { password = decoded(userInfo[userInfo.index(after: colon)...]) }
        }
        let sentinels = try authority.split(separator: ",", omittingEmptySubsequences: false).map(address)
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard let name = parts.first.map(decoded), !name.isEmpty else {
            throw MSALRedisError(.invalidConfiguration, "A Redis Sentinel URL needs the primary's name: redis-sentinel://host/<name>")
        }
        guard parts.count <= 2 || (parts.count == 3 && parts.last!.isEmpty) else {
            throw MSALRedisError(.invalidConfiguration, "A Redis Sentinel URL's path is /<name> or /<name>/<db>")
        }
        var configuration = MSALRedisConfiguration(endpoint: .sentinel(Sentinel(sentinels: sentinels, primaryName: name)))
        configuration.useTLS = scheme == "rediss-sentinel"
        configuration.username = username
        configuration.password = password
        if parts.count >= 2, !parts[parts.startIndex + 1].isEmpty {
            guard let number = Int(parts[parts.startIndex + 1]), number >= 0, number <= 1 << 20 else {
                throw MSALRedisError(.invalidConfiguration, "The Redis database must be a number (0 to 15 on a default server)")
            }
            configuration.database = number
        }
        return configuration
    }

    /// `host[:port]` or `[v6]:port` of a sentinel.
    private static func address(_ text: Substring) throws(MSALRedisError) -> Sentinel.Address {
        var host = text
        var port: Substring?
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw MSALRedisError(.invalidConfiguration, "A Redis Sentinel URL's host is malformed") }
                port = after.dropFirst()
            }
        } else if let colon = text.firstIndex(of: ":") {
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains(where: { "[]@/ ".contains($0) }) else {
            throw MSALRedisError(
                .invalidConfiguration, "A Redis Sentinel URL needs sentinels: redis-sentinel://host[:port][,host[:port]…]/<name>")
        }
        guard let port else { return Sentinel.Address(host: String(host), port: Sentinel.defaultPort) }
        guard port.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(port), (1...65535).contains(number) else {
            throw MSALRedisError(.invalidConfiguration, "A Redis Sentinel URL's port is not a number from 1 to 65535")
        }
        return Sentinel.Address(host: String(host), port: number)
    }

    private static func decoded(_ text: Substring) -> String { text.removingPercentEncoding ?? String(text) }

    /// `redis-sentinel://host:port,…/name` for `description`.
    static func sentinelDescription(_ sentinel: Sentinel, tls: Bool) -> String {
        let hosts = sentinel.sentinels.map { "\($0.host.contains(":") ? "[\($0.host)]" : $0.host):\($0.port)" }
        return "\(tls ? "rediss" : "redis")-sentinel://\(hosts.joined(separator: ","))/\(sentinel.primaryName)"
    }
}
