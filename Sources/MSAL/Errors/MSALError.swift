/// An error from setting the SDK up (configuration, authority, parameters that are not about a
/// sign-in flow). Flow outcomes use the `MSALNativeAuthError` family instead.
public struct MSALError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// A configuration value or argument is missing or malformed.
        public static let invalidParameter = Code("invalidParameter")
        /// The authority URL cannot be used (wrong scheme, no host, not a CIAM authority).
        public static let invalidAuthority = Code("invalidAuthority")
        /// A JSON document (for example a claims request) could not be parsed.
        public static let invalidJSON = Code("invalidJSON")
        /// The token cache could not be read or written (permissions, a full disk, a lock).
        public static let cacheUnavailable = Code("cacheUnavailable")
        /// No cached account matches.
        public static let accountNotFound = Code("accountNotFound")

        public var description: String { name }
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
