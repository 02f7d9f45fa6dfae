import Foundation

/// What `resetPassword(parameters:delegate:)` needs. Mirrors MSAL's `MSALNativeAuthResetPasswordParameters`.
public final class MSALNativeAuthResetPasswordParameters {
    /// The account's email address.
    public var username: String
    /// The correlation id for the whole flow; a new one is made when nil.
    public var correlationId: UUID?

    /// Parameters for resetting the password of `username`; no correlation id yet.
    public init(username: String) {
        self.username = username
    }
}

/// What `SignInAfterResetPasswordState.signIn(parameters:delegate:)` needs. Mirrors MSAL's
/// `MSALNativeAuthSignInAfterResetPasswordParameters`.
public final class MSALNativeAuthSignInAfterResetPasswordParameters {
    /// The API scopes to ask for; `openid profile offline_access` are always added.
    public var scopes: [String]?
    /// Extra claims to ask for in the tokens.
    public var claimsRequest: MSALClaimsRequest?

    /// Parameters with only the default scopes and no claims.
    public init() {}
}
