/// A failure to start a password reset. Mirrors MSAL's `ResetPasswordStartError`.
public final class ResetPasswordStartError: MSALNativeAuthError, @unchecked Sendable {
    package enum ErrorType: Sendable, Equatable {
        case browserRequired
        case userDoesNotHavePassword
        case userNotFound
        case invalidUsername
        case generalError
    }

    package let type: ErrorType

    package init(type: ErrorType, _ details: MSALNativeAuthErrorDetails) {
        self.type = type
        super.init(details)
    }

    public var isBrowserRequired: Bool { type == .browserRequired }
    /// The account signs in with email codes only, so it has no password to reset.
    public var isUserDoesNotHavePassword: Bool { type == .userDoesNotHavePassword }
    public var isUserNotFound: Bool { type == .userNotFound }
    public var isInvalidUsername: Bool { type == .invalidUsername }
}
