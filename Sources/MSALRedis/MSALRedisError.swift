import Foundation

/// The domain of `MSALRedisError` as an `NSError`.
public let MSALRedisErrorDomain = "MSALRedisErrorDomain"

/// Why a Redis operation failed. The message says what happened and where, never a value, a
/// password, a token or a key's contents.
///
/// ```swift
/// // given: client: MSALRedisClient
/// do {
///     try client.ping()
/// } catch let error as MSALRedisError where error.code == .timeout {
///     // the server did not answer within commandTimeout; the next command reconnects
/// }
/// ```
public struct MSALRedisError: Error, CustomNSError, CustomStringConvertible, Sendable, Equatable {
    /// The kinds of failure, as `NSError` codes of `MSALRedisErrorDomain`.
    public enum Code: Int, Sendable {
        /// The configuration cannot be used: a malformed URL, a port out of range, an unreadable CA file.
        case invalidConfiguration = 1
        /// No connection could be made: refused, no route, no such socket, a name that does not resolve.
        case connectionFailed = 2
        /// Connecting or a command took longer than its timeout. The connection is dropped; the
        /// command may or may not have run on the server.
        case timeout = 3
        /// The server refused the user name or password (`WRONGPASS`), or wants one (`NOAUTH`).
        case authentication = 4
        /// The TLS handshake failed: the certificate does not verify against the CA, or does not
        /// name the host.
        case tlsCertificate = 5
        /// The server answered the command with an error reply (`ERR`, `WRONGTYPE`, `NOSCRIPT`, …).
        case serverError = 6
        /// The bytes on the connection are not RESP, or the connection closed in the middle of a reply.
        case protocolViolation = 7
        /// A reply longer than `maxReplyBytes` or an array with more than `maxArrayCount` elements:
        /// refused before anything that size is allocated.
        case tooLarge = 8
        /// Redis Cluster could not route the command: too many redirections, a slot no node serves,
        /// or the cluster is down.
        case cluster = 9
        /// A stored value is not one this library wrote: an unknown format, or encrypted data that
        /// does not authenticate under the key given (tampered with, or another key).
        case invalidValue = 10
        /// A saved sign-in id that is not there: never saved, expired, or already taken once.
        case notFound = 11
    }

    /// What kind of failure.
    public let code: Code
    /// What went wrong, for people and logs.
    public let message: String
    /// For `.serverError`, `.authentication` and `.cluster`: the first word of the server's
    /// error reply (`ERR`, `WRONGTYPE`, `WRONGPASS`, `CLUSTERDOWN`, …).
    public let serverCode: String?

    /// An error of kind `code` with `message` (and the server's error code, when it answered one).
    public init(_ code: Code, _ message: String, serverCode: String? = nil) {
        self.code = code
        self.message = message
        self.serverCode = serverCode
    }

    /// `MSALRedisErrorDomain`.
    public static var errorDomain: String { MSALRedisErrorDomain }
    /// `code`'s raw value.
    public var errorCode: Int { code.rawValue }
    /// The message as `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
    /// The code and the message.
    public var description: String { "MSALRedisError.\(code): \(message)" }
}

extension MSALRedisError {
    /// The error a server's error reply becomes. The text is the server's own, with every part in
    /// single quotes (where Redis echoes a command's arguments) replaced, so that no value reaches
    /// the message.
    static func fromServer(_ reply: String) -> MSALRedisError {
        let code = String(reply.prefix { $0 != " " })
        let text = redactingQuoted(reply)
        switch code {
        case "WRONGPASS", "NOAUTH", "NOPERM":
            return MSALRedisError(.authentication, "The server refused the credentials: \(text)", serverCode: code)
        case "CLUSTERDOWN", "CROSSSLOT", "TRYAGAIN", "MOVED", "ASK":
            return MSALRedisError(.cluster, "Redis Cluster: \(text)", serverCode: code)
        default:
            return MSALRedisError(.serverError, "The server answered an error: \(text)", serverCode: code)
        }
    }

    private static func redactingQuoted(_ text: String) -> String {
        var result = ""
        var quoted = false
        for character in text.prefix(300) {
            if character == "'" {
                result.append(quoted ? "'" : "'…")
                quoted.toggle()
            } else if !quoted {
                result.append(character)
            }
        }
        return quoted ? result + "'" : result
    }
}
