import Foundation

/// A signed-in account with its tokens. Mirrors MSAL's `MSALNativeAuthUserAccountResult`.
///
/// ```swift
/// // given: result: MSALNativeAuthUserAccountResult, request: inout URLRequest
/// let parameters = MSALNativeAuthGetAccessTokenParameters()
/// parameters.scopes = ["api://contoso/todolist/ToDoList.Read"]
/// let token = try await result.getAccessToken(parameters: parameters)
/// request.setValue("Bearer \(token.accessToken)", forHTTPHeaderField: "Authorization")
/// ```
public final class MSALNativeAuthUserAccountResult: Sendable {
    private let current: Locked<(account: MSALAccount, idToken: String?)>
    package let tokens: TokenSet
    package let client: NativeAuthClient?

    package init(account: MSALAccount, idToken: String?, tokens: TokenSet, client: NativeAuthClient? = nil) {
        current = Locked((account, idToken))
        self.tokens = tokens
        self.client = client
    }

    /// The signed-in account (updated when a refresh brings a newer id token).
    public var account: MSALAccount { current.withLock { $0.account } }
    /// The raw id token (a JWT), when the server returned one.
    public var idToken: String? { current.withLock { $0.idToken } }

    package func update(account: MSALAccount, idToken: String?) {
        current.withLock { $0 = (account, idToken) }
    }

    /// An access token for `parameters.scopes`: from the cache when one covers them and is not
    /// about to expire, otherwise by redeeming the refresh token.
    ///
    /// A token cached in memory is answered on the caller's actor without suspending (no thread
    /// hop, so a short-lived process that only prints a cached token never starts a worker thread);
    /// an account that must first be read from a shared store is read on the cache's threads, and a
    /// refresh runs off the caller too (docs/usage.md#access-tokens-accounts-and-the-cache).
    nonisolated(nonsending) public func getAccessToken(
        parameters: MSALNativeAuthGetAccessTokenParameters = MSALNativeAuthGetAccessTokenParameters()
    ) async throws(RetrieveAccessTokenError) -> MSALNativeAuthTokenResult {
        switch await withAccountRead({ cacheStep(parameters) }) {
        case .served(let result): return result
        case .refresh(let request): return try await refreshedAccessToken(request)
        }
    }

    /// What the cache answers a `getAccessToken` call without suspending.
    private enum CacheStep {
        case served(MSALNativeAuthTokenResult)
        case refresh(AccessTokenRequest)
    }

    private func cacheStep(_ parameters: MSALNativeAuthGetAccessTokenParameters) -> CacheStep {
        if let served = servedFromCache(parameters, newCorrelationId: newCorrelationId) { return .served(served) }
        let request = AccessTokenRequest(parameters, newCorrelationId: newCorrelationId())
        if let cached = cachedAccessToken(request) { return .served(cached) }
        return .refresh(request)
    }

    /// Runs a synchronous cache step for this account, its read from a shared store (if one is
    /// needed) made off the caller's thread (Sources/MSAL/Cache/TokenCache+OffCaller.swift).
    nonisolated(nonsending) func withAccountRead<T>(_ step: () -> T) async -> T {
        guard let cache = client?.environment.cache, let homeAccountId = account.identifier else { return step() }
        return await cache.withAccountRead(homeAccountId, step)
    }

    /// Gets an access token and reports to `delegate` on the main actor.
    public func getAccessToken(parameters: MSALNativeAuthGetAccessTokenParameters, delegate: any CredentialsDelegate) {
        let request = AccessTokenRequest(parameters, newCorrelationId: newCorrelationId())
        withDelegateOnMainActor(delegate) { [self] delegate in
            do throws(RetrieveAccessTokenError) {
                let result = try await accessToken(request)
                delegate.onAccessTokenRetrieveCompleted(result: result)
            } catch {
                delegate.onAccessTokenRetrieveError(error: error)
            }
        }
    }

    private func newCorrelationId() -> UUID {
        client?.environment.uuid() ?? CorrelationID.next()
    }

    /// Removes this account's tokens and account record from the local cache. No network call.
    public func signOut() {
        guard let client else { return }
        do {
            try client.environment.cache.removeAccount(homeAccountId: account.identifier ?? "")
            client.environment.logger.info("Signed out account \(pii: account.identifier)")
        } catch {
            client.environment.logger.error("Sign-out could not update the token cache: \(error.message)")
        }
    }
}

/// The tokens of one token response, as the sign-in handed them back.
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
        from response: TokenResponse, requestedScopes: [String], authority: URL, now: Date, correlationId: UUID,
        client: NativeAuthClient? = nil
    ) throws(NativeAuthDecodingError) -> MSALNativeAuthUserAccountResult {
        let parsed = try ParsedTokenResponse(response, requestedScopes: requestedScopes)
        let tokens = TokenSet(
            accessToken: response.accessToken,
            refreshToken: response.refreshToken,
            scopes: parsed.grantedScopes,
            expiresOn: response.expiresOn.map { Date(timeIntervalSince1970: $0) } ?? response.expiresIn.map { now.addingTimeInterval($0) },
            extendedExpiresOn: response.extExpiresIn.map { now.addingTimeInterval($0) },
            correlationId: correlationId)
        return MSALNativeAuthUserAccountResult(
            account: parsed.account(environment: authority.host ?? ""), idToken: response.idToken,
            tokens: tokens, client: client)
    }
}

/// The identity parts of a token response, checked once.
package struct ParsedTokenResponse: Sendable {
    package var clientInfo: ClientInfo
    package var idToken: IDToken?
    package var grantedScopes: [String]

    package init(_ response: TokenResponse, requestedScopes: [String]) throws(NativeAuthDecodingError) {
        clientInfo = try ClientInfo(encoded: response.clientInfo)
        idToken = try response.idToken.map { raw throws(NativeAuthDecodingError) in try IDToken(raw: raw) }
        let granted = response.scope.map { $0.split(separator: " ").map(String.init) } ?? requestedScopes
        grantedScopes = granted.isEmpty ? requestedScopes : granted
    }

    package func account(environment: String) -> MSALAccount {
        MSALAccount(
            username: idToken?.username,
            identifier: clientInfo.homeAccountId,
            environment: environment,
            homeAccountId: MSALAccountId(identifier: clientInfo.homeAccountId, objectId: clientInfo.uid, tenantId: clientInfo.utid),
            claims: idToken?.claims)
    }
}
