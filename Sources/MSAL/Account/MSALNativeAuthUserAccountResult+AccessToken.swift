import Foundation

/// A `getAccessToken` call's parameters, copied at call time.
package struct AccessTokenRequest: Sendable {
    /// What the request asks for, read once here (`ScopeSet.requested`): the cache look-up, the
    /// refresh key, the wire, the declined-scope check and the cache writer all use this value.
    var scopes: ScopeSet
    var forceRefresh: Bool
    var returnRefreshToken: Bool
    /// The app's claims request: a cached token cannot satisfy it, so it always refreshes.
    var claims: String?
    /// What the refresh sends as `claims`: the request with the client's capabilities added.
    var wireClaims: String?
    var correlationId: UUID
    /// The scopes exactly as the app passed them: the key under which a cache hit is remembered.
    var requestedScopes: [String]?

    init(scopes: ScopeSet, forceRefresh: Bool, returnRefreshToken: Bool, claims: String?, wireClaims: String? = nil, correlationId: UUID) {
        self.scopes = scopes
        self.forceRefresh = forceRefresh
        self.returnRefreshToken = returnRefreshToken
        self.claims = claims
        self.wireClaims = wireClaims ?? claims
        self.correlationId = correlationId
    }

    init(_ parameters: MSALNativeAuthGetAccessTokenParameters, newCorrelationId: UUID) {
        scopes = ScopeSet.requested(parameters.scopes)
        forceRefresh = parameters.forceRefresh
        returnRefreshToken = parameters.returnRefreshToken
        claims = parameters.claimsRequest?.jsonString()
        wireClaims = claims
        correlationId = parameters.correlationId ?? newCorrelationId
        requestedScopes = parameters.scopes ?? []
    }
}

extension MSALNativeAuthUserAccountResult {
    /// Cache first, then one shared refresh per (account, scopes, claims) (docs/protocol.md#refresh).
    func accessToken(_ request: AccessTokenRequest) async throws(RetrieveAccessTokenError) -> MSALNativeAuthTokenResult {
        if let cached = await withAccountRead({ cachedAccessToken(request) }) { return cached }
        return try await refreshedAccessToken(request)
    }

    /// The cache step of `accessToken`, without suspending: a cached token that covers the request
    /// and is not about to expire (starting a background refresh when it is due), else nil.
    func cachedAccessToken(_ request: AccessTokenRequest) -> MSALNativeAuthTokenResult? {
        guard !request.forceRefresh, request.claims == nil, let client, let homeAccountId = account.identifier else { return nil }
        let environment = client.environment
        let cache = environment.cache
        let now = environment.clock.now()
        guard
            let cached = cache.accessToken(
                homeAccountId: homeAccountId, scopes: request.scopes,
                validAt: now.addingTimeInterval(environment.tokenExpirationBuffer), requestedScopes: request.requestedScopes)
        else { return nil }
        environment.logger.verbose("Access token served from the cache")
        if cached.refreshDue(expiryBuffer: environment.tokenExpirationBuffer) <= now {
            refreshInBackground(replacing: cached, request, homeAccountId: homeAccountId, client: client)
        }
        return MSALNativeAuthTokenResult(
            accessToken: cached.secret, scopes: cached.scopes, expiresOn: cached.expiresOn,
            refreshToken: request.returnRefreshToken ? cache.refreshToken(homeAccountId: homeAccountId) : nil,
            correlationId: request.correlationId)
    }

    /// The refresh step of `accessToken`, off the caller's actor: joins or starts the one refresh of
    /// the request's key.
    @concurrent
    func refreshedAccessToken(_ request: AccessTokenRequest) async throws(RetrieveAccessTokenError) -> MSALNativeAuthTokenResult {
        guard let client, let homeAccountId = account.identifier else {
            throw RetrieveAccessTokenError(
                type: .generalError,
                NativeAuthErrorDetails(
                    message: "This account result is not connected to an application", correlationId: request.correlationId))
        }
        let key = Self.refreshKey(request, homeAccountId: homeAccountId)
        let result = await client.environment.cache.refreshes.refresh(key) {
            Task { await self.refresh(request, homeAccountId: homeAccountId, client: client) }
        }
        return try result.get()
    }

    /// The steady state (`freshCachedAccessToken`): the same account and scopes as a call already
    /// served from this copy of the cache, the token still valid and not yet due for refresh.
    /// Anything else takes the full path, which gives the same answer and remembers it.
    func servedFromCache(_ parameters: MSALNativeAuthGetAccessTokenParameters, newCorrelationId: () -> UUID) -> MSALNativeAuthTokenResult? {
        guard let served = freshCachedAccessToken(parameters) else { return nil }
        return MSALNativeAuthTokenResult(
            accessToken: served.secret, scopes: served.scopes, expiresOn: served.expiresOn, refreshToken: nil,
            correlationId: parameters.correlationId ?? newCorrelationId())
    }

    /// The key of a refresh: concurrent refreshes of one (account, scopes, claims) share a task.
    private static func refreshKey(_ request: AccessTokenRequest, homeAccountId: String) -> String {
        [homeAccountId.lowercased(), request.scopes.key, request.claims ?? "", request.returnRefreshToken ? "rt" : ""].joined(
            separator: "|")
    }

    /// Proactive refresh: `cached` is still valid but due, so the caller already has it;
    /// one refresh of its scopes starts in the background unless one is in flight (the cache's
    /// `RefreshCoordinator`, then the cross-process lock in `refresh`). Its failure is only logged: the account
    /// stays signed in, the cached token serves until the expiry buffer, then callers refresh
    /// (and see any error) as before.
    private func refreshInBackground(
        replacing cached: CachedAccessToken, _ caller: AccessTokenRequest, homeAccountId: String, client: NativeAuthClient
    ) {
        let environment = client.environment
        let cache = environment.cache
        // The scopes of the token being replaced, so the new one covers everything the old one did.
        let request = AccessTokenRequest(
            scopes: .requested(cached.scopes), forceRefresh: false, returnRefreshToken: caller.returnRefreshToken, claims: nil,
            wireClaims: caller.wireClaims, correlationId: caller.correlationId) // the client's capabilities (xms_cc) still go
        let key = Self.refreshKey(request, homeAccountId: homeAccountId)
        let logger = environment.logger
        cache.refreshes.refreshInBackground(key, clock: environment.clock) {
            Task { await self.refresh(request, homeAccountId: homeAccountId, client: client, proactive: true) }
        } began: {
            logger.info("Access token due for refresh; refreshing in the background correlation \(request.correlationId.uuidString)")
        } failed: { error in
            logger.warning(
                "Background token refresh failed; the cached token serves until it expires: \(error.errorDescription ?? "\(error.type)")")
        }
    }

    /// Redeems the refresh token at the token endpoint (the Linux route of docs/protocol.md#refresh) and stores
    /// the answer, unless the account was signed out meanwhile. `proactive`: a background refresh
    /// of a token that is still valid, which only a token not yet due makes unnecessary.
    private func refresh(_ request: AccessTokenRequest, homeAccountId: String, client: NativeAuthClient, proactive: Bool = false) async
        -> Result<MSALNativeAuthTokenResult, RetrieveAccessTokenError>
    {
        let environment = client.environment
        let cache = environment.cache
        let generation = cache.generation(of: homeAccountId)
        // One refresh of an account at a time, across processes sharing the cache and within this
        // one: the others wait, then find its token in the cache or use the refresh token it
        // stored. A refresh token is never sent twice at once, which a service that honours each
        // once (the emulator does) would refuse: two APIs asked for at once right after a sign-in
        // would otherwise fail.
        let release = await cache.refreshLock(homeAccountId.lowercased(), clock: environment.clock, timeout: environment.requestTimeout * 2)
        defer { release() }
        let now = environment.clock.now()
        if !request.forceRefresh, request.claims == nil,
            let cached = cache.accessToken(
                homeAccountId: homeAccountId, scopes: request.scopes, validAt: now.addingTimeInterval(environment.tokenExpirationBuffer)),
            !proactive || cached.refreshDue(expiryBuffer: environment.tokenExpirationBuffer) > now
        {
            return .success(
                MSALNativeAuthTokenResult(
                    accessToken: cached.secret, scopes: cached.scopes, expiresOn: cached.expiresOn,
                    refreshToken: request.returnRefreshToken ? cache.refreshToken(homeAccountId: homeAccountId) : nil,
                    correlationId: request.correlationId))
        }
        guard let refreshToken = cache.refreshToken(homeAccountId: homeAccountId) else {
            return .failure(
                RetrieveAccessTokenError(
                    type: .refreshTokenExpired,
                    NativeAuthErrorDetails(
                        message: "No refresh token is cached for this account; sign in again", correlationId: request.correlationId)))
        }
        environment.logger.info("Refreshing access token correlation \(request.correlationId.uuidString)")
        let answer = await client.call(
            .token,
            [
                ("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("scope", Scopes.wire(request.scopes.scopes)),
                ("client_info", "1"), ("claims", request.wireClaims),
            ], correlationId: request.correlationId, expecting: TokenResponse.self)
        let id = answer.correlationId
        switch answer.outcome {
        case .success(let response):
            return store(response, request: request, generation: generation, correlationId: id, client: client)
        case .redirect(let reason):
            return .failure(
                RetrieveAccessTokenError(type: .browserRequired, NativeAuthErrorDetails(redirectReason: reason, correlationId: id)))
        case .apiError(let error):
            return .failure(RetrieveAccessTokenError.fromRefresh(error, correlationId: id))
        case .failure(let failure):
            return .failure(RetrieveAccessTokenError(type: .generalError, NativeAuthErrorDetails(failure, correlationId: id)))
        }
    }

    private func store(
        _ response: TokenResponse, request: AccessTokenRequest, generation: Int, correlationId: UUID, client: NativeAuthClient
    )
        -> Result<MSALNativeAuthTokenResult, RetrieveAccessTokenError>
    {
        let environment = client.environment
        let now = environment.clock.now()
        let parsed: ParsedTokenResponse
        do {
            parsed = try ParsedTokenResponse(response, requestedScopes: request.scopes.scopes)
        } catch {
            return .failure(
                RetrieveAccessTokenError(
                    type: .generalError,
                    NativeAuthErrorDetails(
                        MSALNativeAuthNetworkFailure(kind: .invalidResponse, message: error.message), correlationId: correlationId)))
        }
        guard parsed.clientInfo.homeAccountId.lowercased() == (account.identifier ?? "").lowercased() else {
            return .failure(
                RetrieveAccessTokenError(
                    type: .generalError,
                    NativeAuthErrorDetails(
                        message: "The refreshed tokens belong to another account", correlationId: correlationId)))
        }
        guard let accessToken = response.accessToken else {
            return .failure(
                RetrieveAccessTokenError(
                    type: .generalError,
                    NativeAuthErrorDetails(
                        message: "The token response carries no access token", correlationId: correlationId)))
        }
        // The request's own value when the server granted what was asked (or named nothing).
        let granted = parsed.grantedScopes == request.scopes.scopes ? request.scopes : ScopeSet(parsed.grantedScopes)
        do {
            let saved = try environment.cache.save(
                response, clientInfo: parsed.clientInfo, idToken: parsed.idToken, scopes: granted,
                now: now, condition: .refresh(generation: generation))
            guard saved else {
                return .failure(
                    RetrieveAccessTokenError(
                        type: .generalError,
                        NativeAuthErrorDetails(
                            message: "The account was signed out while its token was being refreshed", correlationId: correlationId)))
            }
        } catch {
            // The tokens are good even though the cache could not keep them; the error is on record.
            environment.logger.warning("Refreshed tokens could not be cached: \(error.message)")
        }
        if let idToken = parsed.idToken {
            update(account: parsed.account(environment: account.environment), idToken: idToken.raw)
        }
        let declined = request.scopes.declined(by: granted)
        if !declined.isEmpty {
            return .failure(
                RetrieveAccessTokenError(
                    type: .generalError,
                    NativeAuthErrorDetails(
                        message:
                            "The server granted \(parsed.grantedScopes.joined(separator: " ")) but declined \(declined.joined(separator: " "))",
                        correlationId: correlationId),
                    grantedScopes: parsed.grantedScopes, declinedScopes: declined))
        }
        let expiresOn = response.expiresOn.map { Date(timeIntervalSince1970: $0) } ?? now.addingTimeInterval(response.expiresIn ?? 600)
        return .success(
            MSALNativeAuthTokenResult(
                accessToken: accessToken, scopes: parsed.grantedScopes, expiresOn: expiresOn,
                refreshToken: request.returnRefreshToken ? response.refreshToken : nil, correlationId: correlationId))
    }
}

extension RetrieveAccessTokenError {
    /// Refresh errors (docs/error-mapping.md#access-tokens, with the refinements below): scope problems, expired or revoked
    /// refresh tokens and consent needs get their own kinds; MFA and password-change needs keep
    /// MSAL's message prefixes.
    static func fromRefresh(_ error: NativeAuthAPIError, correlationId: UUID) -> RetrieveAccessTokenError {
        var details = NativeAuthErrorDetails(error, correlationId: correlationId, fallback: NativeAuthErrorMessage.generalError)
        let codes = Set(error.errorCodes)
        if codes.contains(NativeAuthServerCode.mfaRequired) {
            details.message =
                "Multifactor authentication is required; it cannot be completed while refreshing. Sign in again. " + (details.message ?? "")
            return RetrieveAccessTokenError(type: .generalError, details)
        }
        if codes.contains(NativeAuthServerCode.passwordChangeRequired) {
            details.message = "The user must change their password; reset it and sign in again. " + (details.message ?? "")
            return RetrieveAccessTokenError(type: .generalError, details)
        }
        switch error.error {
        case .invalidScope:
            return RetrieveAccessTokenError(type: .invalidScope, details)
        case NativeAuthErrorCode(rawValue: "interaction_required"), NativeAuthErrorCode(rawValue: "consent_required"):
            return RetrieveAccessTokenError(type: .browserRequired, details)
        case .invalidGrant where codes.contains(65001) || error.suberror?.rawValue == "consent_required":
            return RetrieveAccessTokenError(type: .browserRequired, details)
        case .invalidGrant, .expiredRefreshToken:
            return RetrieveAccessTokenError(type: .refreshTokenExpired, details)
        default:
            return RetrieveAccessTokenError(type: .generalError, details)
        }
    }
}
