import Foundation

/// An access token for an API. Mirrors MSAL's `MSALNativeAuthTokenResult`.
public final class MSALNativeAuthTokenResult: Sendable {
    /// The bearer token to send as `Authorization: Bearer …`.
    public let accessToken: String
    /// The scopes it is valid for.
    public let scopes: [String]
    /// When it expires.
    public let expiresOn: Date?
    /// The refresh token, only when the parameters asked for it (`returnRefreshToken`).
    public let refreshToken: String?
    /// The correlation id of the request that produced it (a fresh one for a cache hit).
    public let correlationId: UUID

    package init(accessToken: String, scopes: [String], expiresOn: Date?, refreshToken: String?, correlationId: UUID) {
        self.accessToken = accessToken
        self.scopes = scopes
        self.expiresOn = expiresOn
        self.refreshToken = refreshToken
        self.correlationId = correlationId
    }
}

/// What `getAccessToken(parameters:delegate:)` needs. Mirrors MSAL's `MSALNativeAuthGetAccessTokenParameters`.
public final class MSALNativeAuthGetAccessTokenParameters {
    /// Skip the cached access token and redeem the refresh token.
    public var forceRefresh: Bool = false
    /// Hand back the refresh token in the result too.
    public var returnRefreshToken: Bool = false
    /// The API scopes; `openid profile offline_access` are always added.
    public var scopes: [String]?
    /// Extra claims; a claims request always skips the cached access token.
    public var claimsRequest: MSALClaimsRequest?
    /// The correlation id of the request; a new one is made when nil.
    public var correlationId: UUID?

    /// Parameters with every default: the cached token when it is still good, only the default scopes,
    /// no claims, and no refresh token in the result.
    public init() {}
}

/// A failure to get an access token. Mirrors MSAL's `RetrieveAccessTokenError`.
public final class RetrieveAccessTokenError: MSALNativeAuthError, @unchecked Sendable {
    /// When the server granted fewer scopes than asked: the scopes it granted.
    public let grantedScopes: [String]?
    /// When the server granted fewer scopes than asked: the scopes it declined.
    public let declinedScopes: [String]?

    package init(type: ErrorType, _ details: NativeAuthErrorDetails, grantedScopes: [String]? = nil, declinedScopes: [String]? = nil) {
        self.grantedScopes = grantedScopes
        self.declinedScopes = declinedScopes
        super.init(type: type, details)
    }
    /// The refresh token is expired, revoked or missing: sign the user in again.
    public var isRefreshTokenExpired: Bool { type == .refreshTokenExpired }
    /// A requested scope is unknown, or scopes of two resources were mixed.
    public var isInvalidScope: Bool { type == .invalidScope }
}

/// Receives the outcome of `getAccessToken(parameters:delegate:)`. Mirrors MSAL's `CredentialsDelegate`.
public protocol CredentialsDelegate: AnyObject {
    @MainActor func onAccessTokenRetrieveError(error: RetrieveAccessTokenError)
    @MainActor func onAccessTokenRetrieveCompleted(result: MSALNativeAuthTokenResult)
}

@MainActor
extension CredentialsDelegate {
    /// Called on the main actor with the access token: put `result.accessToken` in the API call's
    /// `Authorization` header. Without an implementation of its own, `onAccessTokenRetrieveError(error:)`
    /// gets a general error naming this method instead.
    public func onAccessTokenRetrieveCompleted(result: MSALNativeAuthTokenResult) {
        onAccessTokenRetrieveError(
            error: RetrieveAccessTokenError(type: .generalError, .notImplemented("onAccessTokenRetrieveCompleted", result.correlationId)))
    }
}
