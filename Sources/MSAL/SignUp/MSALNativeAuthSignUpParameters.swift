import Foundation

/// What `signUp(parameters:delegate:)` needs. Mirrors MSAL's `MSALNativeAuthSignUpParameters`.
///
/// ```swift
/// // given: password: String?
/// let parameters = MSALNativeAuthSignUpParameters(username: "ada@contoso.com")
/// parameters.password = password            // nil: asked for after the email is verified, if needed
/// parameters.attributes = ["displayName": "Ada", "city": "London"]
/// ```
public final class MSALNativeAuthSignUpParameters {
    /// The new user's email address.
    public var username: String
    /// The password, for user flows with email and password; nil to be asked later (or never, for email-code flows).
    public var password: String?
    /// User attributes by programmatic name; values must be JSON-serialisable (strings, numbers, Booleans, arrays).
    public var attributes: [String: Any]?
    /// The correlation id for the whole flow; a new one is made when nil.
    public var correlationId: UUID?

    /// Parameters for signing up `username`; every other member starts empty.
    public init(username: String) {
        self.username = username
    }
}

/// What `SignInAfterSignUpState.signIn(parameters:delegate:)` needs. Mirrors MSAL's
/// `MSALNativeAuthSignInAfterSignUpParameters`.
public final class MSALNativeAuthSignInAfterSignUpParameters {
    /// The API scopes to ask for; `openid profile offline_access` are always added.
    public var scopes: [String]?
    /// Extra claims to ask for in the tokens.
    public var claimsRequest: MSALClaimsRequest?

    /// Parameters with only the default scopes and no claims.
    public init() {}
}

/// The attributes of a sign-up as the wire carries them: one JSON object in a form value.
enum SignUpAttributes {
    /// `nil` for no attributes; throws when the dictionary cannot be JSON.
    static func json(_ attributes: [String: Any]?) throws(SetupError) -> String? {
        guard let attributes, !attributes.isEmpty else { return nil }
        guard let value = JSONValue(foundation: attributes) else {
            throw SetupError(.invalidParameter, "The sign-up attributes are not JSON-serialisable")
        }
        return value.serialized()
    }
}
