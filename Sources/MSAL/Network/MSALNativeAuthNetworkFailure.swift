import Foundation

/// Why a native-auth exchange produced no usable answer: the transport failed, the server answered
/// with a status the API does not use for flow outcomes, or the body could not be decoded.
/// Every such failure surfaces to the app as a general error whose `underlyingError` is this value.
public struct MSALNativeAuthNetworkFailure: Error, Sendable, CustomStringConvertible {
    /// Which of the failures it was.
    public enum Kind: Sendable, Equatable {
        /// No complete HTTP response; `transportError` says why.
        case transport
        /// An HTTP status other than 200, 400 or 401 (after any retry).
        case unexpectedStatus(Int)
        /// A 200/400/401 body that is not what the API promises (not JSON, a missing field, an
        /// unknown `challenge_type`, ...).
        case invalidResponse
        /// The server answered with a redirect (HTTP 3xx), which the SDK never follows: nothing
        /// was sent to the address it named. `host` is that address's host (and port, when it has
        /// one); nil when the answer named no usable address.
        case redirected(status: Int, host: String?)
        /// The body was larger than the configured maximum.
        case responseTooLarge
        /// The calling task was cancelled.
        case cancelled
    }

    /// Which of the failures it was.
    public let kind: Kind
    /// What went wrong, in words; the reported error's `errorDescription` is this text.
    public let message: String
    /// The transport's error (for URLSession a `URLError`) when there was one.
    public let transportError: HTTPTransportError?
    /// For HTTP 429: the wait the server asked for, in seconds, when it said.
    public let retryAfter: TimeInterval?

    package init(kind: Kind, message: String, transportError: HTTPTransportError? = nil, retryAfter: TimeInterval? = nil) {
        self.kind = kind
        self.message = message
        self.transportError = transportError
        self.retryAfter = retryAfter
    }

    /// The same text as `message`.
    public var description: String { message }
}
