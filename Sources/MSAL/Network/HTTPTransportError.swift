import Foundation

/// A request that did not produce a complete HTTP response.
///
/// `underlyingError` keeps what the platform reported (for URLSession a `URLError`; `as NSError`
/// gives its `NSURLErrorDomain` code), so an app can tell "offline" from "refused".
public struct HTTPTransportError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in terms the retry policy and the app can act on.
    public enum Kind: String, Sendable {
        case timedOut
        case cannotConnect
        case connectionLost
        case notConnectedToInternet
        case badServerResponse
        case responseTooLarge
        case cancelled
        case other
    }

    /// What went wrong; `isTransient` follows from it.
    public let kind: Kind
    /// What went wrong, in words, for logs.
    public let message: String
    /// The platform's own error, when there was one.
    public let underlyingError: (any Error)?

    /// An error of `kind`, as a transport of the app's own throws it; `underlyingError` keeps the cause.
    public init(kind: Kind, message: String, underlyingError: (any Error)? = nil) {
        self.kind = kind
        self.message = message
        self.underlyingError = underlyingError
    }

    /// Whether sending the same request again may succeed.
    public var isTransient: Bool {
        switch kind {
        case .timedOut, .cannotConnect, .connectionLost, .notConnectedToInternet, .badServerResponse: return true
        case .responseTooLarge, .cancelled, .other: return false
        }
    }

    /// The kind and the message, for logs.
    public var description: String { "\(kind.rawValue): \(message)" }

    /// Maps an error reported by URLSession to a kind, in one place.
    ///
    /// On Linux FoundationNetworking reports failures with codes that differ from Apple's
    /// (measured here): refused -1004, timeout -1001, reset -1005, empty reply -1011,
    /// cut body -1 (Apple: -1005), TLS failure -1 (Apple: -1202), cancelled -999, offline -1009.
    package static func fromURLSession(_ error: any Error) -> HTTPTransportError {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else {
            return HTTPTransportError(kind: .other, message: nsError.localizedDescription, underlyingError: error)
        }
        let kind: Kind
        switch nsError.code {
        case NSURLErrorTimedOut: kind = .timedOut
        case NSURLErrorCannotConnectToHost, NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: kind = .cannotConnect
        case NSURLErrorNetworkConnectionLost, NSURLErrorUnknown: kind = .connectionLost
        case NSURLErrorNotConnectedToInternet: kind = .notConnectedToInternet
        case NSURLErrorBadServerResponse, NSURLErrorZeroByteResource: kind = .badServerResponse
        case NSURLErrorCancelled: kind = .cancelled
        default: kind = .other
        }
        return HTTPTransportError(
            kind: kind, message: "\(nsError.localizedDescription) (\(nsError.domain) \(nsError.code))",
            underlyingError: error)
    }
}
