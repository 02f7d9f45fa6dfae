import Foundation

/// The base of every error a native-auth flow reports. Mirrors MSAL's `MSALNativeAuthError`:
/// apps read `errorDescription` and the `isXxx` flags of the subclass; `errorCodes` and
/// `correlationId` help when asking the tenant's admins or Microsoft support.
///
/// Linux additions: `serverError` / `serverSuberror` (the wire `error` / `suberror` strings) and
/// `underlyingError` (for network problems an `MSALNativeAuthNetworkFailure`, which keeps the
/// transport's own error, for example a `URLError`, whose `NSURLErrorDomain` code `as NSError` shows).
public class MSALNativeAuthError: Error, LocalizedError, CustomStringConvertible, @unchecked Sendable {
    // `@unchecked` only because the class is not final (MSAL's hierarchy): every stored property
    // is a `let` of a Sendable type, and the subclasses, all in this module, add only `let`s.

    /// The message for the app: the server's `error_description` (or redirect reason) when there
    /// was one, else a fixed text for the error's kind.
    public let errorDescription: String?
    /// The correlation id of the flow, as the server echoed it.
    public let correlationId: UUID
    /// The server's `error_codes`, empty when there were none.
    public let errorCodes: [Int]
    /// The server's `error_uri`, when present.
    public let errorUri: String?
    /// The server's `error` string, when the error came from the server.
    public let serverError: String?
    /// The server's `suberror` string, when present.
    public let serverSuberror: String?
    /// What caused the error below the protocol level (transport failure, undecodable response).
    public let underlyingError: (any Error)?
    /// What kind of error it is; each subclass shows the kinds its step can produce as `isXxx` flags.
    package let type: ErrorType

    package typealias ErrorType = NativeAuthErrorKind

    package init(type: ErrorType, _ details: NativeAuthErrorDetails) {
        self.type = type
        errorDescription = details.message
        correlationId = details.correlationId
        errorCodes = details.errorCodes
        errorUri = details.errorURI
        serverError = details.serverError
        serverSuberror = details.serverSuberror
        underlyingError = details.underlyingError
    }

    /// The flow cannot be completed natively; fall back to browser-based sign-in
    /// (`acquireToken(with:)` on the same application). Every MSAL error class has it.
    public var isBrowserRequired: Bool { type == .browserRequired }

    /// One line for logs: the class, `errorDescription`, the server's error codes when there are any,
    /// and the correlation id.
    public var description: String {
        var text = "\(String(describing: Swift.type(of: self))): \(errorDescription ?? "no description")"
        if !errorCodes.isEmpty { text += " (codes \(errorCodes.map(String.init).joined(separator: ",")))" }
        text += " [correlation \(correlationId.uuidString)]"
        return text
    }
}

/// Every kind of native-auth error in one enum, the one shape the error classes share: MSAL gives
/// each class its own `type` enum; here each class exposes, as its `isXxx` flags, the kinds its
/// step can produce (the error mapping decides which, in one place per step).
package enum NativeAuthErrorKind: Sendable, Equatable {
    case browserRequired
    case generalError
    case userNotFound
    case invalidCredentials
    case invalidUsername
    case userAlreadyExists
    case invalidPassword
    case userDoesNotHavePassword
    case invalidCode
    case refreshTokenExpired
    case invalidScope
    case authMethodBlocked
    case invalidChallenge
    case invalidInput
    case verificationContactBlocked
    // Native auth V2 (MSALNativeAuthFlowError).
    case notImplemented
    case invalidAttributes
    // A saved flow state that cannot be restored (RestoreStateError).
    case stateMalformed
    case stateUnsupportedVersion
    case stateExpired
    case stateWrongApplication
    case stateWrongKind
}

extension NativeAuthErrorKind {
    /// MSAL's text for an error of this kind that has no description of its own.
    package var message: String {
        switch self {
        case .browserRequired: NativeAuthErrorMessage.browserRequired
        case .userNotFound: NativeAuthErrorMessage.userNotFound
        case .invalidCredentials: NativeAuthErrorMessage.invalidCredentials
        case .invalidUsername: NativeAuthErrorMessage.invalidUsername
        case .userAlreadyExists: NativeAuthErrorMessage.userAlreadyExists
        case .invalidPassword: NativeAuthErrorMessage.invalidPassword
        case .userDoesNotHavePassword: NativeAuthErrorMessage.userDoesNotHavePassword
        case .invalidCode: NativeAuthErrorMessage.invalidCode
        case .refreshTokenExpired: NativeAuthErrorMessage.refreshTokenExpired
        case .invalidScope: NativeAuthErrorMessage.invalidScope
        case .invalidChallenge: NativeAuthErrorMessage.invalidChallenge
        case .invalidInput: NativeAuthErrorMessage.invalidInput
        default: NativeAuthErrorMessage.generalError
        }
    }
}

/// What every native-auth error is built from, gathered in one place by the error mapping.
package struct NativeAuthErrorDetails: Sendable {
    package var message: String?
    package var correlationId: UUID
    package var errorCodes: [Int] = []
    package var errorURI: String?
    package var serverError: String?
    package var serverSuberror: String?
    package var underlyingError: (any Error)?
    /// The attribute ids a refusal of attribute values names (`MSALNativeAuthFlowError.invalidAttributeNames`).
    package var invalidAttributeNames: [String] = []
    /// V2: a refusal this SDK gives a specific flag where MSAL's V2 mapping reports a general error, so
    /// `isGeneralError` is true as well (docs/compatibility.md#native-auth-v2).
    package var generalInMSAL = false

    package init(message: String?, correlationId: UUID) {
        self.message = message
        self.correlationId = correlationId
    }

    /// From a server error envelope; the message is the server's description or `fallback`.
    package init(_ apiError: NativeAuthAPIError, correlationId: UUID, fallback: String) {
        self.init(message: nonEmpty(apiError.errorDescription) ?? fallback, correlationId: correlationId)
        errorCodes = apiError.errorCodes
        errorURI = apiError.errorURI
        serverError = apiError.error.rawValue
        serverSuberror = apiError.suberror?.rawValue
    }

    /// From a failure below the protocol (transport, status, decoding).
    package init(_ failure: MSALNativeAuthNetworkFailure, correlationId: UUID) {
        self.init(message: failure.message, correlationId: correlationId)
        underlyingError = failure
    }

    /// From a redirect answer: the server's reason or MSAL's fixed browser-required text.
    package init(redirectReason: String?, correlationId: UUID) {
        self.init(message: nonEmpty(redirectReason) ?? NativeAuthErrorMessage.browserRequired, correlationId: correlationId)
    }
}

private func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
}

/// MSAL's default texts for errors without a server description (docs/error-mapping.md#native-auth-errors).
package enum NativeAuthErrorMessage {
    package static let browserRequired = "Browser required. Use acquireTokenInteractively instead"
    package static let generalError = "General error"
    package static let userNotFound = "User does not exist"
    package static let invalidCredentials = "Invalid credentials"
    package static let invalidUsername = "Invalid username"
    package static let invalidPassword = "Invalid password"
    package static let userAlreadyExists = "User already exists"
    package static let invalidCode = "Invalid code"
    package static let userDoesNotHavePassword = "User does not have password associated with account"
    package static let refreshTokenExpired = "Refresh token is expired"
    package static let invalidScope = "Invalid scope"
    package static let invalidChallenge = "Invalid challenge"
    package static let invalidInput = "Invalid input"

    package static func delegateNotImplemented(_ name: String) -> String {
        "MSALNativeAuth has called the delegate method \(name) that has not been implemented"
    }
}
