/// A failure to start a password reset. Mirrors MSAL's `ResetPasswordStartError`.
public final class ResetPasswordStartError: MSALNativeAuthError, @unchecked Sendable {
    /// The account signs in with email codes only, so it has no password to reset.
    public var isUserDoesNotHavePassword: Bool { type == .userDoesNotHavePassword }
    /// No account has this username.
    public var isUserNotFound: Bool { type == .userNotFound }
    /// The username was empty; the SDK reports this without asking the server.
    public var isInvalidUsername: Bool { type == .invalidUsername }
}
