/// A failure to submit a password. Mirrors MSAL's `PasswordRequiredError`.
public final class PasswordRequiredError: MSALNativeAuthError, @unchecked Sendable {
    /// The password was wrong or did not meet the policy; the state handed back accepts another.
    public var isInvalidPassword: Bool { type == .invalidPassword }
}
