import Foundation

/// The result of a completed sign-in: the account and its tokens. Mirrors MSAL's
/// `MSALNativeAuthUserAccountResult`.
public final class MSALNativeAuthUserAccountResult: Sendable {
    /// The signed-in account.
    public let account: MSALAccount
    /// The raw id token (a JWT), when the server returned one.
    public let idToken: String?
    package let tokens: TokenSet

    package init(account: MSALAccount, idToken: String?, tokens: TokenSet) {
        self.account = account
        self.idToken = idToken
        self.tokens = tokens
    }
}

/// The tokens of one token response, as the SDK keeps them.
package struct TokenSet: Sendable, Equatable {
    package var accessToken: String?
    package var refreshToken: String?
    /// The scopes the access token is valid for: the response's `scope`, else those requested.
    package var scopes: [String]
    package var expiresOn: Date?
    package var extendedExpiresOn: Date?
    package var correlationId: UUID
}

extension MSALNativeAuthUserAccountResult {
    /// Builds the result from a token response, as IdentityCore would cache it: `client_info` gives
    /// the account identity, the id token its claims. Throws when either is malformed.
    package static func make(
        from response: TokenResponse, requestedScopes: [String], authority: URL, now: Date, correlationId: UUID
    ) throws(NativeAuthDecodingError) -> MSALNativeAuthUserAccountResult {
        let clientInfo = try ClientInfo(encoded: response.clientInfo)
        let idToken = try response.idToken.map { raw throws(NativeAuthDecodingError) in try IDToken(raw: raw) }
        let account = MSALAccount(
            username: idToken?.username,
            identifier: clientInfo.homeAccountId,
            environment: authority.host ?? "",
            homeAccountId: MSALAccountId(identifier: clientInfo.homeAccountId, objectId: clientInfo.uid, tenantId: clientInfo.utid),
            claims: idToken?.claims)
        let granted = response.scope.map { $0.split(separator: " ").map(String.init) } ?? requestedScopes
        let tokens = TokenSet(
            accessToken: response.accessToken,
            refreshToken: response.refreshToken,
            scopes: granted.isEmpty ? requestedScopes : granted,
            expiresOn: response.expiresOn.map { Date(timeIntervalSince1970: $0) } ?? response.expiresIn.map { now.addingTimeInterval($0) },
            extendedExpiresOn: response.extExpiresIn.map { now.addingTimeInterval($0) },
            correlationId: correlationId)
        return MSALNativeAuthUserAccountResult(account: account, idToken: response.idToken, tokens: tokens)
    }
}
