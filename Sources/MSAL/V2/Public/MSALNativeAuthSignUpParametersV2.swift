import Foundation

/// What `signUpV2(parameters:)` needs. Mirrors MSAL's `MSALNativeAuthSignUpParametersV2` of both eras:
/// 2.18.1 and later have no password (the service asks for it through
/// `MSALNativeAuthPasswordRequiredState`); up to 2.18.0 the class inherited the V1 class's `password`,
/// which is kept here, deprecated, so that code of that era compiles.
///
/// `attributes` are offered when the service asks for them; `email` and `password` (any case) are
/// ignored with a warning. Values: strings (text, dates as `YYYY-MM-DD`), booleans, numbers, arrays of strings.
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthSignUpParametersV2 {
    /// The new account's email address.
    public var username: String
    /// Attribute values the service may ask for, by attribute id.
    public var attributes: [String: Any]?
    /// Deprecated (MSAL 2.18.1 removed it): the new account's password, submitted when the service
    /// asks for the `password` attribute, as the V1 class's is; an empty one counts as none. Without
    /// it the service's request reaches the app as `MSALNativeAuthPasswordRequiredState`. Not marked
    /// `@available(deprecated)`, so that code of the 2.17 era built with warnings as errors still
    /// compiles (docs/compatibility.md#native-auth-v2).
    public var password: String?
    /// The API scopes to ask for; `openid profile offline_access` are always added.
    public var scopes: [String]?
    /// Extra claims to ask for, sent at the entry.
    public var claimsRequest: MSALClaimsRequest?
    /// The correlation id for the whole flow; a new one is made when nil.
    public var correlationId: UUID?

    /// Parameters for signing up `username`; every other member starts empty.
    public init(username: String) {
        self.username = username
    }
}
