/// A failure to start a sign-up. Mirrors MSAL's `SignUpStartError`.
public final class SignUpStartError: MSALNativeAuthError, @unchecked Sendable {
    /// An account with this username exists already.
    public var isUserAlreadyExists: Bool { type == .userAlreadyExists }
    /// The password is empty or does not meet the tenant's policy.
    public var isInvalidPassword: Bool { type == .invalidPassword }
    /// The username is empty or not a valid email address.
    public var isInvalidUsername: Bool { type == .invalidUsername }
}
