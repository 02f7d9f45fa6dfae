/// A failure to send a second-factor code. Mirrors MSAL's `MFARequestChallengeError`.
public final class MFARequestChallengeError: MSALNativeAuthError, @unchecked Sendable {
    /// The service will not send codes to this method; the state handed back accepts another.
    public var isAuthMethodBlocked: Bool { type == .authMethodBlocked }
}

/// A failure to submit a second-factor code. Mirrors MSAL's `MFASubmitChallengeError`.
public final class MFASubmitChallengeError: MSALNativeAuthError, @unchecked Sendable {
    /// The code was wrong or expired; the state handed back accepts another.
    public var isInvalidChallenge: Bool { type == .invalidChallenge }
}

/// A failure to start verifying a contact for a new strong-auth method. Mirrors MSAL's
/// `RegisterStrongAuthChallengeError`.
public final class RegisterStrongAuthChallengeError: MSALNativeAuthError, @unchecked Sendable {
    /// The contact is empty or not a valid email address or phone number; the state handed back accepts another.
    public var isInvalidInput: Bool { type == .invalidInput }
    /// The service will not send codes to this contact; the state handed back accepts another.
    public var isVerificationContactBlocked: Bool { type == .verificationContactBlocked }
}

/// A failure to submit the code that verifies a new strong-auth method. Mirrors MSAL's
/// `RegisterStrongAuthSubmitChallengeError`.
public final class RegisterStrongAuthSubmitChallengeError: MSALNativeAuthError, @unchecked Sendable {
    /// The code was wrong or expired; the state handed back accepts another.
    public var isInvalidChallenge: Bool { type == .invalidChallenge }
}
