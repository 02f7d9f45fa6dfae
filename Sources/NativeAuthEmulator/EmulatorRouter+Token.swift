import Foundation

/// `/oauth2/v2.0/token` (spec §6) with the grants `password`, `oob`, `mfa_oob`, `continuation_token`
/// and `refresh_token`, and the tokens it issues (spec §7). After a first factor,
/// `requireSecondFactor` (EmulatorRouter+MFA.swift) decides whether MFA or registration comes next.
extension EmulatorRouter {
    func token(_ r: NativeRequest) throws(Failure) -> EmulatorResponse {
        let context = r.context
        guard let grantType = r.form["grant_type"] else { throw missingParameter("grant_type", context) }
        if grantType != "refresh_token" { try rejectStepUpClaims(r.form["claims"], context: context) }
        let scopes = try resolveScopes(r.form["scope"], context: context)
        switch grantType {
        case "password":
            return try passwordGrant(r, scopes: scopes)
        case "oob":
            // The docs complete MFA with `oob` too (spec §12), so the MFA step is accepted here as well.
            return try codeGrant(r, scopes: scopes, steps: [StepKey(.signInOOBChallenge), StepKey(.mfaCodeSent)])
        case "mfa_oob":
            return try codeGrant(r, scopes: scopes, steps: [StepKey(.mfaCodeSent)])
        case "continuation_token":
            return try continuationGrant(r, scopes: scopes)
        case "refresh_token":
            return try refreshGrant(r, scopes: scopes)
        default:
            throw apiError("unsupported_grant_type", 70003, "The app requested an unsupported grant type '\(grantType)'.", context: context)
        }
    }

    private func passwordGrant(_ r: NativeRequest, scopes: ResolvedScopes) throws(Failure) -> EmulatorResponse {
        let context = r.context
        guard let username = r.form["username"] else { throw missingParameter("username", context) }
        guard let password = r.form["password"] else { throw missingParameter("password", context) }
        _ = try challengeTypes(r.form, context)
        // Look up under the lock, hash outside it, decide under it again.
        let stored = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> PasswordHash? in
            let flow = try flow(
                for: r.form["continuation_token"], accepting: [StepKey(.signInPasswordChallenge)],
                clientId: r.app.clientId, world: &world, context: context, grant: true)
            guard flow.username.lowercased() == username.lowercased() else {
                throw apiError(
                    "invalid_grant", 50126, "Error validating credentials due to invalid username or password.", context: context)
            }
            return world.users[username.lowercased()]?.password
        }
        let matches = stored?.matches(password) ?? false
        let user = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> UserRecord in
            var flow = try flow(
                for: r.form["continuation_token"], accepting: [StepKey(.signInPasswordChallenge)],
                clientId: r.app.clientId, world: &world, context: context, grant: true)
            guard matches, let user = world.users[username.lowercased()] else {
                flow.passwordAttempts += 1
                if flow.passwordAttempts >= configuration.maxPasswordAttempts {
                    flow.step = .finished
                    flow.generation += 1
                }
                world.flows[flow.id] = flow
                throw apiError(
                    "invalid_grant", 50126, "Error validating credentials due to invalid username or password.", context: context)
            }
            try requireSecondFactor(&flow, user: user, app: r.app, world: &world, context: context)
            return user
        }
        return try issueTokens(for: user, app: r.app, scopes: scopes, clientInfo: r.form["client_info"], context: context)
    }

    /// A code as first factor (`oob`) or second (`mfa_oob`, or `oob` with an MFA token).
    private func codeGrant(_ r: NativeRequest, scopes: ResolvedScopes, steps: Set<StepKey>) throws(Failure) -> EmulatorResponse {
        let context = r.context
        let user = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> UserRecord in
            var flow = try flow(
                for: r.form["continuation_token"], accepting: steps, clientId: r.app.clientId, world: &world, context: context, grant: true)
            let secondFactor = flow.step == .mfaCodeSent
            try checkCode(r.form["oob"], flow: &flow, world: &world, context: context)
            guard let user = world.users[flow.username.lowercased()] else {
                throw apiError("invalid_grant", 50034, "The user account does not exist in the directory.", context: context)
            }
            if secondFactor {
                advance(&flow, to: .finished, world: &world, now: context.now)
            } else {
                try requireSecondFactor(&flow, user: user, app: r.app, world: &world, context: context)
            }
            return user
        }
        return try issueTokens(for: user, app: r.app, scopes: scopes, clientInfo: r.form["client_info"], context: context)
    }

    private func continuationGrant(_ r: NativeRequest, scopes: ResolvedScopes) throws(Failure) -> EmulatorResponse {
        let context = r.context
        if r.form["challenge_type"] != nil { _ = try challengeTypes(r.form, context) }
        let user = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> UserRecord in
            var flow = try flow(
                for: r.form["continuation_token"], accepting: [StepKey(.signInAfter), StepKey(.registrationCompleted)],
                clientId: r.app.clientId, world: &world, context: context, grant: true)
            if let username = r.form["username"], username.lowercased() != flow.username.lowercased() {
                throw apiError("invalid_grant", 55200, "The username does not match the continuation_token.", context: context)
            }
            guard let user = world.users[flow.username.lowercased()] else {
                throw apiError("invalid_grant", 50034, "The user account does not exist in the directory.", context: context)
            }
            if flow.step == .registrationCompleted {
                // Registering the method proved the second factor.
                advance(&flow, to: .finished, world: &world, now: context.now)
            } else {
                try requireSecondFactor(&flow, user: user, app: r.app, world: &world, context: context)
            }
            return user
        }
        return try issueTokens(for: user, app: r.app, scopes: scopes, clientInfo: r.form["client_info"], context: context)
    }

    private func refreshGrant(_ r: NativeRequest, scopes: ResolvedScopes) throws(Failure) -> EmulatorResponse {
        let context = r.context
        guard let refreshToken = r.form["refresh_token"] else { throw missingParameter("refresh_token", context) }
        var lineage = TokenLineage()
        let user = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> UserRecord in
            guard let record = world.refreshTokens[refreshToken], record.clientId == r.app.clientId else {
                throw apiError(
                    "invalid_grant", 9_002_313, "Invalid request. The refresh token is malformed, revoked or not valid for this client.",
                    context: context)
            }
            guard record.expiresAt > context.now else {
                world.refreshTokens.removeValue(forKey: refreshToken)
                throw apiError("invalid_grant", 700082, "The refresh token has expired due to inactivity.", context: context)
            }
            guard let user = world.users[record.username.lowercased()] else {
                world.refreshTokens.removeValue(forKey: refreshToken)
                throw apiError("invalid_grant", 50034, "The user account does not exist in the directory.", context: context)
            }
            try checkRefreshClaims(r.form["claims"], lineage: record.lineage, context: context)
            lineage = record.lineage
            // Entra keeps a redeemed refresh token valid until it expires; strict rotation (an
            // option for tests of clients) retires it now.
            if configuration.strictRefreshTokenRotation { world.refreshTokens.removeValue(forKey: refreshToken) }
            return user
        }
        let extras = TokenExtras(authTime: lineage.authTime, acrs: BrowserRules.requestedAcrs(r.form["claims"]) ?? [], lineage: lineage)
        return try issueTokens(for: user, app: r.app, scopes: scopes, clientInfo: r.form["client_info"], context: context, extras: extras)
    }

    // MARK: Scopes

    struct ResolvedScopes {
        var api: Seed.API?
        /// Scope names at the API (for `scp`), `.default` expanded.
        var apiScopeNames: [String]
        var oidc: [String]
    }

    static let oidcScopes: Set<String> = ["openid", "profile", "offline_access", "email"]

    /// Splits the requested scopes into OIDC scopes and the scopes of at most one API.
    func resolveScopes(_ raw: String?, context: RequestContext) throws(Failure) -> ResolvedScopes {
        let requested = (raw ?? "").split(separator: " ").map(String.init)
        var resolved = ResolvedScopes(api: nil, apiScopeNames: [], oidc: [])
        for scope in requested {
            if Self.oidcScopes.contains(scope.lowercased()) {
                if !resolved.oidc.contains(scope.lowercased()) { resolved.oidc.append(scope.lowercased()) }
                continue
            }
            guard let (api, name) = seed.apis.lazy.compactMap({ api in api.scopeName(for: scope).map { (api, $0) } }).first else {
                throw apiError(
                    "invalid_scope", 70011,
                    "The provided value for the input parameter 'scope' is not valid. The scope \(scope) is not valid.",
                    context: context)
            }
            if let existing = resolved.api, existing.appId != api.appId {
                throw apiError(
                    "invalid_scope", 28000,
                    "Provided value for the input parameter scope is not valid because it contains more than one resource. Scope \(raw ?? "") is not valid.",
                    context: context)
            }
            resolved.api = api
            for expanded in name == ".default" ? api.scopes : [name] where !resolved.apiScopeNames.contains(expanded) {
                resolved.apiScopeNames.append(expanded)
            }
        }
        return resolved
    }

    // MARK: Issuing

    /// A fresh `uti` (unique token identifier) value: 16 random bytes, base64url, as Entra's. Every
    /// access and id token carries its own, so two tokens issued in the same second differ, as
    /// Entra's do (a forced refresh gets a new id token).
    static func uniqueTokenIdentifier() -> String {
        Base64URLCoding.encode(Secrets.randomBytes(16))
    }

    /// The token response of spec §6.2: RS256 access and id tokens, an opaque refresh token, and
    /// `client_info`.
    func issueTokens(
        for user: UserRecord, app: Seed.App, scopes: ResolvedScopes, clientInfo: String?, context: RequestContext,
        extras: TokenExtras = TokenExtras()
    ) throws(Failure) -> EmulatorResponse {
        let now = Int(context.now.timeIntervalSince1970)
        let lifetime = configuration.accessTokenLifetime
        let graph = "00000003-0000-0000-c000-000000000000"
        var accessClaims: [String: Any] = [
            "aud": scopes.api?.appId ?? graph, "iss": issuer, "iat": now, "nbf": now, "exp": now + lifetime,
            "oid": user.objectId, "sub": user.objectId, "tid": seed.tenant.id, "azp": app.clientId, "ver": "2.0",
            "preferred_username": user.username, "uti": Self.uniqueTokenIdentifier(),
            "scp": scopes.api != nil ? scopes.apiScopeNames.joined(separator: " ") : scopes.oidc.joined(separator: " "),
        ]
        if let name = user.attributes["displayName"] { accessClaims["name"] = name }
        if !extras.acrs.isEmpty { accessClaims["acrs"] = extras.acrs }
        var body: [String: Any] = ["token_type": "Bearer", "expires_in": lifetime, "ext_expires_in": lifetime]
        body["scope"] =
            scopes.api.map { api in scopes.apiScopeNames.map { api.scopeString($0) }.joined(separator: " ") }
            ?? scopes.oidc.joined(separator: " ")
        do {
            body["access_token"] = try JWT.sign(accessClaims, with: signingKey)
            if scopes.oidc.contains("openid") {
                var idClaims: [String: Any] = [
                    "aud": app.clientId, "iss": issuer, "iat": now, "nbf": now, "exp": now + lifetime, "oid": user.objectId,
                    "sub": user.objectId, "tid": seed.tenant.id, "preferred_username": user.username, "email": user.username, "ver": "2.0",
                    "uti": Self.uniqueTokenIdentifier(),
                ]
                if let name = user.attributes["displayName"] { idClaims["name"] = name }
                if let nonce = extras.nonce { idClaims["nonce"] = nonce }
                if let authTime = extras.authTime { idClaims["auth_time"] = Int(authTime.timeIntervalSince1970) }
                body["id_token"] = try JWT.sign(idClaims, with: signingKey)
            }
        } catch {
            throw apiError("server_error", 500011, "The token could not be signed.", status: 500, context: context)
        }
        if scopes.oidc.contains("offline_access") {
            let refresh = "1." + Secrets.opaqueToken()
            world.withLock { world in
                world.refreshTokens[refresh] = RefreshRecord(
                    username: user.username, clientId: app.clientId,
                    expiresAt: context.now.addingTimeInterval(TimeInterval(configuration.refreshTokenLifetime)), lineage: extras.lineage)
            }
            body["refresh_token"] = refresh
        }
        if let clientInfo, clientInfo == "1" || clientInfo.lowercased() == "true" {
            let info = #"{"uid":"\#(user.objectId)","utid":"\#(seed.tenant.id)"}"#
            body["client_info"] = Base64URLCoding.encode(Data(info.utf8))
        }
        return .json(200, body)
    }
}
