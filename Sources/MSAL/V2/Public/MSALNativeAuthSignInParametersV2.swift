import Foundation

/// What `signInV2(parameters:)` needs. Mirrors MSAL 2.18.1's `MSALNativeAuthSignInParametersV2`:
/// no password (the service asks for one through `MSALNativeAuthPasswordRequiredState` when the
/// user's method is a password).
///
/// ```swift
/// let parameters = MSALNativeAuthSignInParametersV2(username: "ada@contoso.com")
/// parameters.scopes = ["api://todo/ToDoList.Read"]
/// ```
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthSignInParametersV2 {
    /// The user's email address.
    public var username: String
    /// The API scopes to ask for; `openid profile offline_access` are always added.
    public var scopes: [String]?
    /// Extra claims to ask for, sent at the entry and at the token request.
    public var claimsRequest: MSALClaimsRequest?
    /// The correlation id for the whole flow; a new one is made when nil.
    public var correlationId: UUID?

    /// Parameters for signing in `username`; every other member starts empty.
    public init(username: String) {
        self.username = username
    }
}
