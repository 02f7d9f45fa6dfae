/// A failure to verify a one-time code. Mirrors MSAL's `VerifyCodeError`.
public final class VerifyCodeError: MSALNativeAuthError, @unchecked Sendable {
    /// The code was wrong or expired; the state handed back accepts another.
    public var isInvalidCode: Bool { type == .invalidCode }
}
