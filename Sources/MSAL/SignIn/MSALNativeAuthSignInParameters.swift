import Foundation

/// What `signIn(parameters:delegate:)` needs. Mirrors MSAL's `MSALNativeAuthSignInParameters`.
///
/// ```swift
/// // given: password: String?
/// let parameters = MSALNativeAuthSignInParameters(username: "ada@contoso.com")
/// parameters.password = password      // nil: the server asks for a password or sends a code
/// parameters.scopes = ["api://todo/ToDoList.Read"]
/// ```
public final class MSALNativeAuthSignInParameters {
    /// The user's email address.
    public var username: String
    /// The password, when the app already has it; nil lets the server choose the challenge.
    public var password: String?
    /// The API scopes to ask for; `openid profile offline_access` are always added.
    public var scopes: [String]?
    /// Extra claims to ask for.
    public var claimsRequest: MSALClaimsRequest?
    /// The correlation id for the whole flow; a new one is made when nil.
    public var correlationId: UUID?

    /// Parameters for signing in `username`; every other member starts empty.
    public init(username: String) {
        self.username = username
    }
}
