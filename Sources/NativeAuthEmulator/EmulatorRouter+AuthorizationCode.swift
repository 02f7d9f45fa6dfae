import Foundation

/// `POST /{tenant}/oauth2/v2.0/token` with `grant_type=authorization_code` (docs/emulator.md#browser-sign-in-authorization-code-with-pkce),
/// and the authentication-context (`acrs`) claims challenge of the sample APIs.
extension EmulatorRouter {
    /// The `code` and the registered client of an `authorization_code` grant, the browser's codes and
    /// native auth V2's alike: a missing parameter is named, an unknown client is `invalid_client` 700016.
    func codeGrantClient(_ form: FormBody, _ context: RequestContext) throws(Failure) -> (code: String, app: Seed.App) {
        guard let code = form["code"] else { throw missingParameter("code", context) }
        guard let clientId = form["client_id"] else { throw missingParameter("client_id", context) }
        guard let app = seed.app(clientId: clientId) else {
            throw apiError(
                "invalid_client", 700016,
                "Application with identifier '\(clientId)' was not found in the directory '\(seed.tenant.subdomain)'.", context: context)
        }
        return (code, app)
    }

    /// Redeems a code. The checks run in the order of docs/emulator.md#browser-sign-in-authorization-code-with-pkce; the first failing
    /// one answers.
    /// A failed check leaves the code redeemable (a wrong verifier must not let an attacker burn
    /// the real client's code).
    func authorizationCodeGrant(_ form: FormBody, _ context: RequestContext) throws(Failure) -> EmulatorResponse {
        let (code, app) = try codeGrantClient(form, context)
        // Resolved now (pure), reported last.
        let requestedScopes = Result { () throws(Failure) -> ResolvedScopes? in
            try form["scope"].map { raw throws(Failure) in try resolveScopes(raw, app: app, context: context) }
        }
        let (record, user) = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> (AuthorizationCodeRecord, UserRecord) in
            let stored = world.browser.codes[code]
            if let stored, stored.clientId != app.clientId {
                throw apiError("invalid_grant", 700005, "The authorization code was issued to another application.", context: context)
            }
            guard var record = stored else {
                throw apiError("invalid_grant", 70000, "The provided authorization code is not valid.", context: context)
            }
            if record.redeemed {
                // RFC 6749 §4.1.2: a replayed code revokes what it produced (refresh tokens, rotated ones included).
                record.replayed = true
                world.browser.codes[code] = record
                world.refreshTokens = world.refreshTokens.filter { $0.value.lineage.codeId != record.id }
                throw apiError(
                    "invalid_grant", 54005,
                    "OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.",
                    context: context)
            }
            guard record.issuedAt.addingTimeInterval(TimeInterval(configuration.authorizationCodeLifetime)) > context.now else {
                throw apiError(
                    "invalid_grant", 70008,
                    "The provided authorization code or refresh token has expired due to inactivity. Send a new interactive authorization request for this user and resource.",
                    context: context)
            }
            guard form["redirect_uri"] == record.redirectUri else {
                throw apiError(
                    "invalid_grant", 500112,
                    "The reply address '\(form["redirect_uri"] ?? "")' does not match the reply address '\(record.redirectUri)' provided when requesting the authorization code.",
                    context: context)
            }
            guard let verifier = form["code_verifier"], BrowserRules.isPKCEValue(verifier) else {
                throw apiError(
                    "invalid_grant", 50148,
                    "The code_verifier is missing or is not 43 to 128 characters of [A-Z] / [a-z] / [0-9] / '-' / '.' / '_' / '~'.",
                    context: context)
            }
            guard !record.challenge.isEmpty else {
                throw apiError(
                    "invalid_grant", 50148, "A code_verifier was sent, but the authorization request had no code_challenge.",
                    context: context)
            }
            guard BrowserRules.verifierMatches(verifier, challenge: record.challenge, method: record.method) else {
                throw apiError(
                    "invalid_grant", 50148,
                    "The code_verifier does not match the code_challenge supplied in the authorization request for PKCE.",
                    context: context)
            }
            try checkScopesWithinAuthorization(requestedScopes, record: record, context: context)
            guard let user = world.users[record.username.lowercased()] else {
                throw apiError("invalid_grant", 50034, "The user account does not exist in the directory.", context: context)
            }
            record.redeemed = true
            world.browser.codes[code] = record
            return (record, user)
        }
        let scopes = try issuedScopes(requestedScopes.get(), record: record, app: app, context: context)
        let extras = TokenExtras(
            nonce: record.nonce, authTime: record.authTime, acrs: record.acrs,
            lineage: TokenLineage(codeId: record.id, acrs: record.satisfiedAcrs, authTime: record.authTime))
        let response = try issueTokens(
            for: user, app: app, scopes: scopes, clientInfo: form["client_info"], context: context, extras: extras)
        // A replay that raced this redemption must still revoke what it produced.
        world.withLock { world in
            if world.browser.codes[code]?.replayed == true {
                world.refreshTokens = world.refreshTokens.filter { $0.value.lineage.codeId != record.id }
            }
        }
        return response
    }

    /// The token call may ask for the scopes of the authorize request (granted or declined on the
    /// consent page) and OIDC scopes, nothing else.
    private func checkScopesWithinAuthorization(
        _ requested: Result<ResolvedScopes?, Failure>, record: AuthorizationCodeRecord, context: RequestContext
    ) throws(Failure) {
        guard let asked = try requested.get(), let api = asked.api else { return }
        let authorized = scopeKeys(record.requestedScopes, clientId: record.clientId)
        let outside = asked.apiScopeNames.filter { !authorized.contains("\(api.appId)/\($0)") }
        guard outside.isEmpty else {
            throw apiError(
                "invalid_scope", 70011,
                "The provided value for the input parameter 'scope' is not valid. The scope \(outside.map { api.scopeString($0) }.joined(separator: " ")) was not part of the authorization request.",
                context: context)
        }
    }

    /// What the tokens are for: the asked resource scopes the user granted (declined ones are
    /// left out, so the response's `scope` lacks them), and the asked OIDC scopes.
    private func issuedScopes(_ asked: ResolvedScopes?, record: AuthorizationCodeRecord, app: Seed.App, context: RequestContext)
        throws(Failure) -> ResolvedScopes
    {
        let scopes: ResolvedScopes
        if let asked {
            scopes = asked
        } else {
            scopes = try resolveScopes(record.requestedScopes.joined(separator: " "), app: app, context: context)
        }
        guard let api = scopes.api else { return scopes }
        let granted = scopes.apiScopeNames.filter { record.grantedScopes.contains("\(api.appId)/\($0)") }
        return ResolvedScopes(
            api: granted.isEmpty ? nil : api, apiScopeNames: granted, oidc: scopes.oidc, graphNamesWithURI: scopes.graphNamesWithURI)
    }

    // MARK: Authentication context (claims challenge)

    /// The interaction-required answer when the refresh grant is asked for `acrs` its sign-in did
    /// not prove: `invalid_grant`, AADSTS50076, suberror `basic_action`.
    func interactionRequired(_ acrs: [String], context: RequestContext) -> Failure {
        apiError(
            "invalid_grant", 50076,
            "Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication to access the resource. The authentication context '\(acrs.joined(separator: " "))' needs an interactive sign-in in the browser.",
            suberror: "basic_action", context: context)
    }

    /// A refresh token satisfies the contexts its sign-in satisfied (in the browser, or natively
    /// with a second factor), no others.
    func checkRefreshClaims(_ claims: String?, lineage: TokenLineage, context: RequestContext) throws(Failure) {
        let acrs = BrowserRules.requestedAcrs(claims) ?? []
        let missing = acrs.filter { !lineage.acrs.contains($0) }
        guard missing.isEmpty else { throw interactionRequired(missing, context: context) }
    }

    /// A sample API with `required_acrs` answers 401 with a claims challenge unless the token's
    /// `acrs` claim holds every required value.
    func claimsChallenge(_ api: Seed.API, claims: [String: Any], request: EmulatorRequest) -> EmulatorResponse? {
        let carried = claims["acrs"] as? [String] ?? (claims["acrs"] as? String).map { [$0] } ?? []
        let missing = (api.requiredAcrs ?? []).filter { !carried.contains($0) }
        guard !missing.isEmpty else { return nil }
        let challenge = Data(BrowserRules.acrsClaimsRequest(missing).utf8).base64EncodedString()
        let authorizationURI = "\(request.baseURL)/\(seed.tenant.id)/oauth2/v2.0/authorize"
        var response = EmulatorResponse.json(
            401,
            [
                "error": "insufficient_claims",
                "error_description": "The token lacks the authentication context \(missing.joined(separator: ", ")).",
            ])
        response.headers["WWW-Authenticate"] =
            #"Bearer realm="", authorization_uri="\#(authorizationURI)", error="insufficient_claims", claims="\#(challenge)""#
        return response
    }
}
