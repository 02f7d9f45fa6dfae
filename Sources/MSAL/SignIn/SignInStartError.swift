/// A failure to start a sign-in. Mirrors MSAL's `SignInStartError`.
public final class SignInStartError: MSALNativeAuthError, @unchecked Sendable {
    /// No account exists for the username.
    public var isUserNotFound: Bool { type == .userNotFound }
    /// The username and password do not match.
    public var isInvalidCredentials: Bool { type == .invalidCredentials }
    /// The username is empty or not acceptable.
    public var isInvalidUsername: Bool { type == .invalidUsername }
}
