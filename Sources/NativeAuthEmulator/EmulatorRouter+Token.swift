import Foundation

/// `/oauth2/v2.0/token` (docs/protocol.md#token-endpoint) with the grants `password`, `oob`, `mfa_oob`, `continuation_token`
/// and `refresh_token`, and the tokens it issues (docs/protocol.md#tokens-and-accounts). After a first factor,
/// `requireSecondFactor` (EmulatorRouter+MFA.swift) decides whether MFA or registration comes next.
extension EmulatorRouter {
    func token(_ r: NativeRequest) throws(Failure) -> EmulatorResponse {
        let context = r.context
        guard let grantType = r.form["grant_type"] else { throw missingParameter("grant_type", context) }
        let scopes = try resolveScopes(r.form["scope"], app: r.app, context: context)
        // An authentication context asked for in `claims` needs a second factor (see `requireSecondFactor`).
        let acrs = BrowserRules.requestedAcrs(r.form["claims"]) ?? []
        switch grantType {
        case "password":
            return try passwordGrant(r, scopes: scopes, acrs: acrs)
        case "oob":
            // The docs complete MFA with `oob` too (docs/protocol.md#docs-versus-msal), so the MFA step is accepted here as well.
            return try codeGrant(r, scopes: scopes, acrs: acrs, steps: [StepKey(.signInOOBChallenge), StepKey(.mfaCodeSent)])
        case "mfa_oob":
            return try codeGrant(r, scopes: scopes, acrs: acrs, steps: [StepKey(.mfaCodeSent)])
        case "continuation_token":
            return try continuationGrant(r, scopes: scopes, acrs: acrs)
        case "refresh_token":
            return try refreshGrant(r, scopes: scopes)
        default:
            throw apiError("unsupported_grant_type", 70003, "The app requested an unsupported grant type '\(grantType)'.", context: context)
        }
    }

    private func passwordGrant(_ r: NativeRequest, scopes: ResolvedScopes, acrs: [String]) throws(Failure) -> EmulatorResponse {
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
            try requireSecondFactor(&flow, user: user, app: r.app, acrs: acrs, world: &world, context: context)
            return user
        }
        return try issueTokens(for: user, app: r.app, scopes: scopes, clientInfo: r.form["client_info"], context: context)
    }

    /// A code as first factor (`oob`) or second (`mfa_oob`, or `oob` with an MFA token).
    private func codeGrant(_ r: NativeRequest, scopes: ResolvedScopes, acrs: [String], steps: Set<StepKey>) throws(Failure)
        -> EmulatorResponse
    {
        let context = r.context
        let (user, satisfied) = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> (UserRecord, [String]) in
            var flow = try flow(
                for: r.form["continuation_token"], accepting: steps, clientId: r.app.clientId, world: &world, context: context, grant: true)
            let secondFactor = flow.step == .mfaCodeSent
            try checkCode(r.form["oob"], flow: &flow, world: &world, context: context)
            guard let user = world.users[flow.username.lowercased()] else {
                throw apiError("invalid_grant", 50034, "The user account does not exist in the directory.", context: context)
            }
            let satisfied = try finishOrRequireSecondFactor(
                &flow, secondFactorPassed: secondFactor, user: user, app: r.app, acrs: acrs, world: &world, context: context)
            return (user, satisfied)
        }
        return try issueTokens(
            for: user, app: r.app, scopes: scopes, clientInfo: r.form["client_info"], context: context,
            extras: Self.secondFactorExtras(satisfied))
    }

    private func continuationGrant(_ r: NativeRequest, scopes: ResolvedScopes, acrs: [String]) throws(Failure) -> EmulatorResponse {
        let context = r.context
        if r.form["challenge_type"] != nil { _ = try challengeTypes(r.form, context) }
        let (user, satisfied) = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> (UserRecord, [String]) in
            var flow = try flow(
                for: r.form["continuation_token"], accepting: [StepKey(.signInAfter), StepKey(.registrationCompleted)],
                clientId: r.app.clientId, world: &world, context: context, grant: true)
            if let username = r.form["username"], username.lowercased() != flow.username.lowercased() {
                throw apiError("invalid_grant", 55200, "The username does not match the continuation_token.", context: context)
            }
            guard let user = world.users[flow.username.lowercased()] else {
                throw apiError("invalid_grant", 50034, "The user account does not exist in the directory.", context: context)
            }
            // Registering the method proved the second factor.
            let satisfied = try finishOrRequireSecondFactor(
                &flow, secondFactorPassed: flow.step == .registrationCompleted, user: user, app: r.app, acrs: acrs, world: &world,
                context: context)
            return (user, satisfied)
        }
        return try issueTokens(
            for: user, app: r.app, scopes: scopes, clientInfo: r.form["client_info"], context: context,
            extras: Self.secondFactorExtras(satisfied))
    }

    /// Ends the flow when its second factor has just passed, returning the authentication contexts
    /// that satisfies; else asks for a second factor when the user, the app or the request's
    /// contexts need one (`requireSecondFactor`), returning none.
    private func finishOrRequireSecondFactor(
        _ flow: inout Flow, secondFactorPassed: Bool, user: UserRecord, app: Seed.App, acrs: [String], world: inout EmulatorWorld,
        context: RequestContext
    ) throws(Failure) -> [String] {
        if secondFactorPassed {
            advance(&flow, to: .finished, world: &world, now: context.now)
            return Self.satisfiedAcrs(flow, acrs)
        }
        try requireSecondFactor(&flow, user: user, app: app, acrs: acrs, world: &world, context: context)
        return []
    }

    /// The authentication contexts a passed second factor satisfies: those asked for when the first
    /// factor passed, and any the completing request asks for.
    static func satisfiedAcrs(_ flow: Flow, _ acrs: [String]) -> [String] {
        var satisfied = flow.requestedAcrs
        for value in acrs where !satisfied.contains(value) { satisfied.append(value) }
        return satisfied
    }

    /// The access token's `acrs`, and a refresh token that satisfies them again (as one from a
    /// browser sign-in does).
    static func secondFactorExtras(_ acrs: [String]) -> TokenExtras {
        TokenExtras(acrs: acrs, lineage: TokenLineage(acrs: Set(acrs)))
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
        /// Graph scope names the client wrote with Graph's URI (or asked for through
        /// `https://graph.microsoft.com/.default`): the response's `scope` writes them so too.
        var graphNamesWithURI: Set<String> = []
    }

    static let oidcScopes: Set<String> = ["openid", "profile", "offline_access", "email"]

    /// Microsoft Graph, the resource of a scope written without one (`User.Read`) or under its URI
    /// (`https://graph.microsoft.com/User.Read`). Its delegated scopes the app is granted are the
    /// app's `graph_scopes` (default `User.Read`, which a new app registration is given). Its
    /// access tokens' `aud` is Graph's application id, as in the Graph tokens Entra's v2.0
    /// endpoint issues (tokens asked for with the v1.0 `resource` parameter say
    /// `https://graph.microsoft.com` instead).
    static let graphAppId = "00000003-0000-0000-c000-000000000000"
    static let graphURI = "https://graph.microsoft.com"

    /// Graph as `app` sees it: a resource whose scopes are those the app is granted.
    func graph(for app: Seed.App) -> Seed.API {
        Seed.API(name: "graph", appId: Self.graphAppId, identifierUri: Self.graphURI, scopes: app.graphScopes, path: "", requiredScope: "")
    }

    /// What a requested resource scope is.
    enum ScopeLookup {
        /// A scope of `api` granted to the app (`name` may be `.default`).
        case granted(Seed.API, name: String)
        /// A well-formed scope of a resource in the tenant that the app is not granted.
        case notGranted(Seed.API)
        /// Not a scope-token, an empty name, or under no resource of the tenant.
        case invalid
    }

    /// Looks `scope` up among the seeded APIs and Graph, for `app`.
    func lookUpScope(_ scope: String, app: Seed.App) -> ScopeLookup {
        // RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
        guard !scope.isEmpty, scope.unicodeScalars.allSatisfy({ $0.value >= 0x21 && $0.value <= 0x7E && $0 != "\"" && $0 != "\\" })
        else { return .invalid }
        for api in seed.apis {
            let trimmed = api.identifierUri.hasSuffix("/") ? String(api.identifierUri.dropLast()) : api.identifierUri
            let names = Set([trimmed + "/", api.identifierUri + "/"]).compactMap { prefix in
                scope.hasPrefix(prefix) ? String(scope.dropFirst(prefix.count)) : nil
            }.filter { !$0.isEmpty && !$0.contains("/") }
            if let name = names.first(where: { $0 == ".default" || api.scopes.contains($0) }) { return .granted(api, name: name) }
            if !names.isEmpty { return .notGranted(api) }
        }
        let graph = graph(for: app)
        let name: String
        if scope.lowercased().hasPrefix(Self.graphURI + "/") {
            name = String(scope.dropFirst(Self.graphURI.count + 1))
        } else if !scope.contains("/"), !scope.contains(":") {
            name = scope
        } else {
            return .invalid
        }
        guard !name.isEmpty, !name.contains("/") else { return .invalid }
        if name == ".default" { return .granted(graph, name: name) }
        if let granted = graph.scopes.first(where: { $0.lowercased() == name.lowercased() }) { return .granted(graph, name: granted) }
        return .notGranted(graph)
    }

    /// Splits the requested scopes into OIDC scopes and the scopes of at most one resource.
    ///
    /// The rule, as Entra answers (docs/protocol.md#scopes, #token-errors, #error-codes):
    /// - `openid`, `profile`, `offline_access` and `email` are always granted.
    /// - A scope that is not a scope-token (RFC 6749 §3.3), has an empty name, or is written under
    ///   a URI that is no resource of the tenant (`api://elsewhere/Read`) is malformed or unknown:
    ///   `invalid_scope`, AADSTS70011 "…is not valid".
    /// - Scopes of two resources in one request: `invalid_scope`, AADSTS28000.
    /// - A well-formed scope of a resource in the tenant (a seeded API, or Microsoft Graph, whose
    ///   scopes may be written without the resource: `Calendar.Read`) that the app is not granted:
    ///   `invalid_grant`, AADSTS65001, suberror `consent_required`, "…Send an interactive
    ///   authorization request for this user and resource." Every scope a seeded API defines is
    ///   granted to every app; of Graph's, the app's `graph_scopes`.
    /// `interactive` (the authorize request): a scope the app is not granted is `invalid_scope`
    /// 70011 there, because the emulator's consent page offers only scopes the app is configured for.
    func resolveScopes(_ raw: String?, app: Seed.App, interactive: Bool = false, context: RequestContext) throws(Failure)
        -> ResolvedScopes
    {
        let requested = (raw ?? "").split(separator: " ").map(String.init)
        var resolved = ResolvedScopes(api: nil, apiScopeNames: [], oidc: [])
        var notGranted: [String] = []
        for scope in requested {
            if Self.oidcScopes.contains(scope.lowercased()) {
                if !resolved.oidc.contains(scope.lowercased()) { resolved.oidc.append(scope.lowercased()) }
                continue
            }
            let api: Seed.API
            var name: String?
            switch lookUpScope(scope, app: app) {
            case .invalid:
                throw apiError(
                    "invalid_scope", 70011,
                    "The provided value for the input parameter 'scope' is not valid. The scope \(scope) is not valid.",
                    context: context)
            case .notGranted(let resource):
                guard !interactive else {
                    throw apiError(
                        "invalid_scope", 70011,
                        "The provided value for the input parameter 'scope' is not valid. The scope \(scope) is not valid.",
                        context: context)
                }
                api = resource
                notGranted.append(scope)
            case .granted(let resource, let granted):
                api = resource
                name = granted
            }
            if let existing = resolved.api, existing.appId != api.appId {
                throw apiError(
                    "invalid_scope", 28000,
                    "Provided value for the input parameter scope is not valid because it contains more than one resource. Scope \(raw ?? "") is not valid.",
                    context: context)
            }
            resolved.api = api
            guard let name else { continue }
            let expanded = name == ".default" ? api.scopes : [name]
            if api.appId == Self.graphAppId, scope.contains("/") { resolved.graphNamesWithURI.formUnion(expanded) }
            for each in expanded where !resolved.apiScopeNames.contains(each) { resolved.apiScopeNames.append(each) }
        }
        if !notGranted.isEmpty {
            throw apiError(
                "invalid_grant", 65001,
                "The user or administrator has not consented to use the application with ID '\(app.clientId)' named '\(app.name)'. Send an interactive authorization request for this user and resource.",
                suberror: "consent_required", context: context)
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

    /// The token response of docs/protocol.md#token-response: RS256 access and id tokens, an opaque refresh token, and
    /// `client_info`.
    func issueTokens(
        for user: UserRecord, app: Seed.App, scopes: ResolvedScopes, clientInfo: String?, context: RequestContext,
        extras: TokenExtras = TokenExtras()
    ) throws(Failure) -> EmulatorResponse {
        let now = Int(context.now.timeIntervalSince1970)
        let lifetime = configuration.accessTokenLifetime
        var accessClaims: [String: Any] = [
            "aud": scopes.api?.appId ?? Self.graphAppId, "iss": issuer, "iat": now, "nbf": now, "exp": now + lifetime,
            "oid": user.objectId, "sub": user.objectId, "tid": seed.tenant.id, "azp": app.clientId, "ver": "2.0",
            "preferred_username": user.username, "uti": Self.uniqueTokenIdentifier(),
            "scp": scopes.api != nil ? scopes.apiScopeNames.joined(separator: " ") : scopes.oidc.joined(separator: " "),
        ]
        if let name = user.attributes["displayName"] { accessClaims["name"] = name }
        if !extras.acrs.isEmpty { accessClaims["acrs"] = extras.acrs }
        var body: [String: Any] = ["token_type": "Bearer", "expires_in": lifetime, "ext_expires_in": lifetime]
        if let api = scopes.api, api.appId == Self.graphAppId {
            // Graph's scopes as the client wrote them, then the OIDC scopes (docs/protocol.md#token-response's sample).
            let graphScopes = scopes.apiScopeNames.map { scopes.graphNamesWithURI.contains($0) ? api.scopeString($0) : $0 }
            body["scope"] = (graphScopes + scopes.oidc).joined(separator: " ")
        } else {
            body["scope"] =
                scopes.api.map { api in scopes.apiScopeNames.map { api.scopeString($0) }.joined(separator: " ") }
                ?? scopes.oidc.joined(separator: " ")
        }
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
