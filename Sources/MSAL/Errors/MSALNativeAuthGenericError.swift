/// An error that is either "browser required" or general. Mirrors MSAL's `MSALNativeAuthGenericError`.
public class MSALNativeAuthGenericError: MSALNativeAuthError, @unchecked Sendable {}

/// A failure to send a new one-time code. Mirrors MSAL's `ResendCodeError`.
public final class ResendCodeError: MSALNativeAuthGenericError, @unchecked Sendable {}

/// A failure to submit sign-up attributes. Mirrors MSAL's `AttributesRequiredError`.
public final class AttributesRequiredError: MSALNativeAuthGenericError, @unchecked Sendable {}

/// A failure to sign in with the token of a completed sign-up. Mirrors MSAL's `SignInAfterSignUpError`.
public final class SignInAfterSignUpError: MSALNativeAuthGenericError, @unchecked Sendable {}

/// A failure to sign in with the token of a completed password reset. Mirrors MSAL's
/// `SignInAfterResetPasswordError`.
public final class SignInAfterResetPasswordError: MSALNativeAuthGenericError, @unchecked Sendable {}
