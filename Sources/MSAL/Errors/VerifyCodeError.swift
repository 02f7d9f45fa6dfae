/// A failure to verify a one-time code. Mirrors MSAL's `VerifyCodeError`.
public final class VerifyCodeError: MSALNativeAuthError, @unchecked Sendable {
    package enum ErrorType: Sendable, Equatable {
        case browserRequired
        case invalidCode
        case generalError
    }

    package let type: ErrorType

    package init(type: ErrorType, _ details: MSALNativeAuthErrorDetails) {
        self.type = type
        super.init(details)
    }

    public var isBrowserRequired: Bool { type == .browserRequired }
    /// The code was wrong or expired; the state handed back accepts another.
    public var isInvalidCode: Bool { type == .invalidCode }
}
