import Foundation

/// A silent request's values, copied from the parameters when the call starts.
package struct SilentTokenRequest: Sendable {
    var homeAccountId: String
    /// App scopes with the OIDC defaults appended, read once (`ScopeSet.requested`).
    var scopes: ScopeSet
    var forceRefresh: Bool
    var claims: String?
    /// `claims` with the client's capabilities (`xms_cc`), as the refresh sends it.
    var wireClaims: String?
    var correlationId: UUID
}

extension MSALPublicClientApplication {
    /// A token without the user (docs/error-mapping.md#silent-token-rules): the cached access token when it covers the
    /// scopes and is not about to expire, else one refresh with the account's refresh token, shared
    /// with concurrent callers and with the native `getAccessToken` (one pipeline, one cache).
    ///
    /// `.interactionRequired` means the user must sign in: call `acquireToken(with:)`.
    public func acquireTokenSilent(with parameters: MSALSilentTokenParameters, completionBlock: @escaping MSALCompletionBlock) {
        let request = silentRequest(parameters)
        CompletionDelivery(completionBlock, queue: parameters.completionBlockQueue).run { await request.then(self.silentToken) }
    }

    /// The `async` form of `acquireTokenSilent(with:completionBlock:)`; throws the same `NSError`s.
    nonisolated(nonsending) public func acquireTokenSilent(with parameters: MSALSilentTokenParameters) async throws -> MSALResult {
        try await silentToken(silentRequest(parameters).get()).get()
    }

    /// Checks and copies the parameters (docs/error-mapping.md#silent-token-rules steps 1-2).
    package func silentRequest(_ parameters: MSALTokenParameters, forceRefresh: Bool? = nil) -> Result<SilentTokenRequest, NSError> {
        let correlationId = parameters.correlationId ?? environment.uuid()
        guard let account = parameters.account, let identifier = account.identifier else {
            return .failure(
                StandardErrors.make(
                    .interactionRequired, description: "No account was given; sign the user in first", correlationId: correlationId))
        }
        if let problem = checkScopesAndAuthority(parameters, correlationId: correlationId) { return .failure(problem) }
        return .success(
            SilentTokenRequest(
                homeAccountId: identifier, scopes: .requested(parameters.scopes),
                forceRefresh: forceRefresh ?? (parameters as? MSALSilentTokenParameters)?.forceRefresh ?? false,
                claims: parameters.claimsRequest?.jsonString(),
                wireClaims: MSALClaimsRequest.wire(parameters.claimsRequest, capabilities: environment.clientCapabilities),
                correlationId: correlationId))
    }

    /// OIDC scopes among the app's, and an authority other than the application's, are refused
    /// with `internalErrorInvalidParameter`.
    package func checkScopesAndAuthority(_ parameters: MSALTokenParameters, correlationId: UUID) -> NSError? {
        if let reserved = parameters.scopes.first(where: Scopes.isOIDC) {
            return StandardErrors.make(
                .internal, internal: .internalErrorInvalidParameter,
                description: "'\(reserved)' is a reserved scope that the SDK adds itself; remove it from the scopes",
                correlationId: correlationId)
        }
        if let authority = parameters.authority,
            (try? MSALAuthority.normalise(authority.url))?.absoluteString.lowercased()
                != environment.authorityURL.absoluteString.lowercased()
        {
            return StandardErrors.make(
                .internal, internal: .internalErrorInvalidParameter,
                description: "Only the application's authority (\(environment.authorityURL.absoluteString)) can be used on Linux",
                correlationId: correlationId)
        }
        return nil
    }

    package func silentToken(_ request: SilentTokenRequest) async -> Result<MSALResult, NSError> {
        let tokenRequest = AccessTokenRequest(
            scopes: request.scopes, forceRefresh: request.forceRefresh, returnRefreshToken: false, claims: request.claims,
            wireClaims: request.wireClaims, correlationId: request.correlationId)
        // The account and a cached token in one step, the account read off the caller's thread when
        // it must come from a shared store (Sources/MSAL/Cache/TokenCache+OffCaller.swift).
        let found = await environment.cache.withAccountRead(request.homeAccountId) {
            () -> (account: MSALNativeAuthUserAccountResult, cached: MSALNativeAuthTokenResult?)? in
            guard let cached = environment.cache.account(homeAccountId: request.homeAccountId) else { return nil }
            let account = accountResult(for: cached)
            return (account, account.cachedAccessToken(tokenRequest))
        }
        guard let (account, cached) = found else {
            return .failure(
                StandardErrors.make(
                    .interactionRequired, description: "The account is not in the token cache (signed out or removed); sign in again",
                    correlationId: request.correlationId))
        }
        do throws(RetrieveAccessTokenError) {
            let token: MSALNativeAuthTokenResult
            if let cached { token = cached } else { token = try await account.refreshedAccessToken(tokenRequest) }
            return .success(
                makeResult(
                    accessToken: token.accessToken, expiresOn: token.expiresOn, scopes: token.scopes, account: account,
                    correlationId: request.correlationId))
        } catch {
            // The refresh token is dead (`bad_token`) or the user is gone: forget the account's
            // tokens of this client, so that the next call asks for interaction without a round trip.
            if error.serverError == "invalid_grant", let reason = error.serverSuberror,
                ["bad_token", "user_account_deleted"].contains(reason)
            {
                try? environment.cache.removeAccount(homeAccountId: request.homeAccountId)
                environment.logger.info("The refresh token was refused (\(reason)); the account's tokens were removed")
            }
            var mapped = StandardErrors.fromRefresh(error)
            if let granted = error.grantedScopes, error.declinedScopes != nil,
                let cached = environment.cache.accessToken(
                    homeAccountId: request.homeAccountId, scopes: ScopeSet(granted), validAt: environment.clock.now())
            {
                // The tokens of the granted scopes were saved: MSAL hands them over with the error.
                let result = makeResult(
                    accessToken: cached.secret, expiresOn: cached.expiresOn, scopes: cached.scopes, account: account,
                    correlationId: request.correlationId)
                var userInfo = mapped.userInfo
                userInfo[MSALInvalidResultKey] = result
                mapped = NSError(domain: mapped.domain, code: mapped.code, userInfo: userInfo)
            }
            return .failure(mapped)
        }
    }

    /// An `MSALResult` for an account and the access token just obtained for it.
    package func makeResult(
        accessToken: String, expiresOn: Date?, scopes: [String], account: MSALNativeAuthUserAccountResult, correlationId: UUID? = nil
    ) -> MSALResult {
        let signedIn = account.account
        // The account's claims are its id token's, decoded when the account was made.
        let idToken =
            signedIn.jsonClaims.map { IDToken(raw: account.idToken ?? "", claims: $0) } ?? account.idToken.flatMap { try? IDToken(raw: $0) }
        let profile = MSALTenantProfile(
            identifier: idToken?.objectId ?? signedIn.homeAccountId?.objectId ?? "",
            tenantId: idToken?.tenantId ?? signedIn.homeAccountId?.tenantId ?? "", environment: signedIn.environment,
            isHomeTenantProfile: true, claims: idToken?.claims)
        return MSALResult(
            accessToken: accessToken, expiresOn: expiresOn, idToken: account.idToken,
            scopes: ScopeSet.resourceScopesAsGiven(scopes), tenantProfile: profile, account: signedIn,
            authority: MSALAuthority(validatedURL: environment.authorityURL), correlationId: correlationId ?? account.tokens.correlationId)
    }
}
