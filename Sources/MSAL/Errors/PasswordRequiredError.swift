/// A failure to submit a password. Mirrors MSAL's `PasswordRequiredError`.
public final class PasswordRequiredError: MSALNativeAuthError, @unchecked Sendable {
    package enum ErrorType: Sendable, Equatable {
        case browserRequired
        case invalidPassword
        case generalError
    }

    package let type: ErrorType

    package init(type: ErrorType, _ details: MSALNativeAuthErrorDetails) {
        self.type = type
        super.init(details)
    }

    public var isBrowserRequired: Bool { type == .browserRequired }
    /// The password was wrong or did not meet the policy; the state handed back accepts another.
    public var isInvalidPassword: Bool { type == .invalidPassword }
}
