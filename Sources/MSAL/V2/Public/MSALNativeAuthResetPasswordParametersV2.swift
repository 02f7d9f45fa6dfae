import Foundation

/// What `resetPasswordV2(parameters:)` needs. Mirrors MSAL's `MSALNativeAuthResetPasswordParametersV2`
/// (there a subclass of the V1 class, which is final here: `resetPasswordV2` takes either).
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthResetPasswordParametersV2 {
    /// The account's email address.
    public var username: String
    /// The API scopes to ask for; `openid profile offline_access` are always added.
    public var scopes: [String]?
    /// Extra claims to ask for, sent at the entry.
    public var claimsRequest: MSALClaimsRequest?
    /// The correlation id for the whole flow; a new one is made when nil.
    public var correlationId: UUID?

    /// Parameters for resetting the password of `username`; every other member starts empty.
    public init(username: String) {
        self.username = username
    }
}
