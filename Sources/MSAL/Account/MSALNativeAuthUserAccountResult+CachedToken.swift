import Foundation

extension MSALNativeAuthUserAccountResult {
    /// The token `getAccessToken(parameters:)` would answer from the cache without suspending, or
    /// nil when that call takes the full path: a forced refresh, a claims request, a refresh token
    /// wanted, scopes not yet served from this copy of the cache, a changed cache, or a token due
    /// for refresh. Synchronous, for callers that cannot await: the C interface's fast path
    /// (Bindings/C/Sources/Exports+TokenInto.swift) and `getAccessToken` itself, so the rules of a
    /// cache hit (expiry buffer, proactive-refresh time, scopes as the app passed them) are here once.
    package func freshCachedAccessToken(_ parameters: MSALNativeAuthGetAccessTokenParameters) -> CachedAccessToken? {
        guard !parameters.forceRefresh, parameters.claimsRequest == nil, !parameters.returnRefreshToken,
            let environment = client?.environment, let homeAccountId = account.identifier
        else { return nil }
        let now = environment.clock.now()
        let buffer = environment.tokenExpirationBuffer
        guard
            let served = environment.cache.servedAccessToken(
                homeAccountId: homeAccountId, requestedScopes: parameters.scopes ?? [], validAt: now.addingTimeInterval(buffer)),
            served.refreshDue(expiryBuffer: buffer) > now
        else { return nil }
        environment.logger.verbose("Access token served from the cache")
        return served
    }
}
