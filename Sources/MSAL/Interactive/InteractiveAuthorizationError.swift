import Foundation

/// Why a browser sign-in (or one of its parts: the URL, the loopback listener, the launcher)
/// failed. Each case knows the MSAL code it becomes at the public boundary (docs/error-mapping.md#msalerror-codes, #internal-codes):
/// `msalErrorCode` is `MSALError`'s raw value and `internalErrorCode` the value for
/// `MSALInternalErrorCodeKey` when that is `.internal` (-50000).
package enum InteractiveAuthorizationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why the wait ended without a response.
    package enum CancelReason: Sendable, Equatable {
        /// The waiting `Task` was cancelled.
        case taskCancelled
        /// `cancel()` was called (MSAL's `cancelCurrentWebAuthSession()`).
        case cancelCalled
        /// No response within the timeout.
        case timedOut(seconds: Double)
    }

    /// A bad argument (-42000), e.g. `claims` both in the claims request and the extra parameters.
    case invalidParameter(String)
    /// The redirect URI is not one the loopback listener can serve (-42011).
    case invalidRedirectURI(String)
    /// The fixed port of the redirect URI is taken (-42000, as MSAL Python's `ValueError`).
    case portUnavailable(port: UInt16)
    /// A socket call failed for another reason (-42008), with `errno`.
    case listenerFailed(operation: String, errno: Int32)
    /// Cancelled or timed out (`.userCanceled`, -50005).
    case cancelled(CancelReason)
    /// Timed out after a redirect whose `state` did not match arrived (-42501): more likely an
    /// attack or a stale tab than a user who walked away.
    case stateMismatch
    /// Another browser sign-in is running in this process (-42402).
    case sessionAlreadyRunning
    /// No browser could be started and neither `signInAddressHandler` nor `authorizationURLHandler` was given (-42403).
    case noBrowser(String)
    /// A redirect or token that cannot be used (-42600), e.g. an id token whose `nonce` differs.
    case invalidResponse(String)
    /// The service answered the redirect with `error` (`access_denied` is the user's cancel, -50005;
    /// others -42104).
    case authorizationFailed(error: String, description: String?, subcode: String?)

    /// `MSALError.internal`.
    package static let msalInternal = -50_000
    /// `MSALError.userCanceled`.
    package static let msalUserCanceled = -50_005

    /// The `MSALError` raw value.
    package var msalErrorCode: Int {
        switch self {
        case .cancelled: Self.msalUserCanceled
        case .authorizationFailed(let error, _, _) where error == "access_denied": Self.msalUserCanceled
        default: Self.msalInternal
        }
    }

    /// The `MSALInternalError` raw value, when `msalErrorCode` is `.internal`.
    package var internalErrorCode: Int? {
        switch self {
        case .invalidParameter, .portUnavailable: -42_000
        case .invalidRedirectURI: -42_011
        case .listenerFailed: -42_008
        case .cancelled: nil
        case .stateMismatch: -42_501
        case .sessionAlreadyRunning: -42_402
        case .noBrowser: -42_403
        case .invalidResponse: -42_600
        case .authorizationFailed: msalErrorCode == Self.msalUserCanceled ? nil : -42_104
        }
    }

    /// Whether MSAL reports this as the user's cancel.
    package var isUserCanceled: Bool { msalErrorCode == Self.msalUserCanceled }

    /// A sentence for `MSALErrorDescriptionKey` and logs; never contains a code or secret.
    package var description: String {
        switch self {
        case .invalidParameter(let message): message
        case .invalidRedirectURI(let message): message
        case .portUnavailable(let port): "cannot listen on port \(port); use port 0"
        case .listenerFailed(let operation, let code): "the loopback listener failed: \(operation): \(String(cString: strerror(code)))"
        case .cancelled(.taskCancelled): "the browser sign-in was cancelled (task cancelled)"
        case .cancelled(.cancelCalled): "the browser sign-in was cancelled (cancelCurrentWebAuthSession)"
        case .cancelled(.timedOut(let seconds)): "the browser sign-in timed out after \(Self.format(seconds)) s without a redirect"
        case .stateMismatch: "the browser sign-in timed out after a redirect whose state did not match this request"
        case .sessionAlreadyRunning: "another browser sign-in is already running in this process"
        case .noBrowser(let message): message
        case .invalidResponse(let message): message
        case .authorizationFailed(let error, let description, let subcode):
            "the authorization server answered \(error)" + (subcode.map { " (\($0))" } ?? "") + (description.map { ": \($0)" } ?? "")
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
