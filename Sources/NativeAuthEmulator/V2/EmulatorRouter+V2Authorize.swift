import Foundation

/// `POST /T/oauth2/v2.0/authorize-challenge` (entry and resume) and the redemption of the codes the resume
/// issues at `/T/oauth2/v2.0/token` (docs/protocol.md#native-auth-v2-experimental). Form bodies, flat OAuth
/// errors (`apiError`, EmulatorRouter+Errors.swift), the V1 token response.
extension EmulatorRouter {
    func v2AuthorizeChallengeRoute(_ context: RequestContext) -> EmulatorResponse {
        let request = context.request
        guard request.method == "POST" else {
            var response = apiError("invalid_request", 900561, "The endpoint only accepts POST requests.", status: 405, context: context)
                .response
            response.headers["Allow"] = "POST"
            return response
        }
        guard (request.headers["content-type"]?.lowercased() ?? "").hasPrefix("application/x-www-form-urlencoded") else {
            return apiError("invalid_request", 900561, "The request body must be application/x-www-form-urlencoded.", context: context)
                .response
        }
        guard request.body.count <= configuration.maxRequestBodyBytes else {
            return apiError(
                "invalid_request", 90100, "The request body is larger than \(configuration.maxRequestBodyBytes) bytes.", status: 413,
                context: context
            ).response
        }
        let form: FormBody
        do {
            form = try FormBody(request.body)
        } catch .duplicate(let name) {
            return apiError("invalid_request", 90015, "The parameter '\(name)' is duplicated.", context: context).response
        } catch {
            return apiError("invalid_request", 90014, "The request body is not a valid form.", context: context).response
        }
        let tenant = String(request.path.split(separator: "/").first ?? "")
        let settings = world.withLock { $0.v2.settings }
        let r = V2Request(context: context, tenant: tenant, settings: settings, route: "")
        var response: EmulatorResponse
        do {
            if let token = form["continuation_token"] ?? form["continuationToken"] {
                response = try v2Resume(token: token, form: form, context: context)
            } else {
                response = try v2Entry(form, r)
            }
        } catch {
            response = error.response
        }
        response.headers["x-ms-request-id"] = UUID().uuidString.lowercased()
        log(context, form: form, status: response.status)
        return response
    }

    /// The entry: checks the client and what it asks for, starts a flow and answers 401
    /// `InsufficientAuthorization` with the token and the journey links (flat and HAL).
    private func v2Entry(_ form: FormBody, _ r: V2Request) throws(Failure) -> EmulatorResponse {
        let context = r.context
        let app = try validateClient(form, context)
        guard app.v2Enabled else {
            throw apiError(
                "invalid_client", 550022, "The application is not enabled for native authentication V2.",
                suberror: "nativeauthapi_disabled",
                context: context)
        }
        if let type = form["response_type"], type != "code" {
            throw apiError(
                "unsupported_response_type", 700054, "The response_type '\(type)' is not supported; use 'code'.", context: context)
        }
        _ = try resolveScopes(form["scope"], app: app, context: context)
        guard let acrs = BrowserRules.requestedAcrs(form["claims"]) else {
            throw apiError("invalid_request", 90100, "claims parameter is not valid JSON.", context: context)
        }
        let challenge = form["code_challenge"]
        let method = form["code_challenge_method"] ?? (challenge == nil ? nil : "plain")
        if let challenge {
            guard BrowserRules.isPKCEValue(challenge), method == "S256" || method == "plain" else {
                throw apiError("invalid_request", 50148, "code_challenge or code_challenge_method is not valid.", context: context)
            }
        }
        let token = world.withLock { world -> String in
            v2Sweep(world: &world, now: context.now)
            var flow = V2Flow(id: UUID().uuidString, clientId: app.clientId, createdAt: context.now)
            flow.scope = form["scope"]
            flow.acrs = acrs
            flow.codeChallenge = challenge
            flow.codeChallengeMethod = method
            world.v2.flows[flow.id] = flow
            return v2IssueToken(flow, step: .entry, world: &world, now: context.now)
        }
        let journeys: [(flat: String, hal: String, route: String)] = [
            ("sign_in", "signIn", "signin/start"), ("sign_up", "signUp", "signup/start"),
            ("reset_password", "resetPassword", "resetpassword/start"),
        ]
        var body: [String: Any] = [
            "error": "InsufficientAuthorization", "error_description": "Interaction is required before authorization can complete.",
            "continuation_token": token, "timestamp": Self.timestamp(context.now), "trace_id": UUID().uuidString.lowercased(),
            "correlation_id": context.correlationId,
        ]
        var links: [String: Any] = [:]
        for journey in journeys {
            body[journey.flat] = v2Href(.api(journey.route), r).href
            links[journey.hal] = v2Link(.api(journey.route), r)
        }
        body["_links"] = links
        return .json(401, body)
    }

    /// The resume: a `continue` token (of the client, when `client_id` is sent) becomes a single-use code.
    private func v2Resume(token: String, form: FormBody, context: RequestContext) throws(Failure) -> EmulatorResponse {
        let code = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> String in
            guard let record = world.v2.tokens[token], let flow = world.v2.flows[record.flowId] else {
                throw apiError("invalid_grant", 55200, "The continuation_token is invalid.", context: context)
            }
            guard record.expiresAt > context.now else {
                throw apiError("invalid_grant", 552003, "The continuation_token has expired.", context: context)
            }
            guard record.generation == flow.generation, record.step == .resume, let username = flow.username else {
                throw apiError("invalid_grant", 55200, "The continuation_token is not valid for this endpoint.", context: context)
            }
            if let clientId = form["client_id"], clientId.lowercased() != flow.clientId.lowercased() {
                throw apiError("invalid_grant", 55200, "The client_id does not match the continuation_token.", context: context)
            }
            let code = Secrets.opaqueToken()
            world.v2.codes[code] = V2AuthorizationCode(
                id: UUID().uuidString, clientId: flow.clientId, username: username, scope: flow.scope,
                acrs: flow.secondFactorPassed ? flow.acrs : [], codeChallenge: flow.codeChallenge,
                codeChallengeMethod: flow.codeChallengeMethod, issuedAt: context.now)
            v2End(flow, world: &world)
            return code
        }
        return .json(200, ["code": code])
    }

    /// Whether `code` was issued by a V2 resume (else the browser grant redeems it).
    func isV2AuthorizationCode(_ code: String?) -> Bool {
        guard let code else { return false }
        return world.withLock { $0.v2.codes[code] != nil }
    }

    /// `grant_type=authorization_code` with a V2 code: no `redirect_uri`; a `code_verifier` only when the
    /// entry sent a `code_challenge` (a verifier without one is ignored); `client_info` `1` or `true`;
    /// `scope` defaults to the entry's. The answer is V1's token response for the same user record.
    func v2AuthorizationCodeGrant(_ form: FormBody, _ context: RequestContext) throws(Failure) -> EmulatorResponse {
        let (code, app) = try codeGrantClient(form, context)
        let (record, user) = try world.withLock { (world: inout EmulatorWorld) throws(Failure) -> (V2AuthorizationCode, UserRecord) in
            guard var record = world.v2.codes[code] else {
                throw apiError("invalid_grant", 70000, "The provided authorization code is not valid.", context: context)
            }
            guard record.clientId == app.clientId else {
                throw apiError("invalid_grant", 700005, "The authorization code was issued to another application.", context: context)
            }
            if record.redeemed {
                world.refreshTokens = world.refreshTokens.filter { $0.value.lineage.codeId != record.id }
                throw apiError(
                    "invalid_grant", 54005,
                    "OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.",
                    context: context)
            }
            guard record.issuedAt.addingTimeInterval(TimeInterval(configuration.authorizationCodeLifetime)) > context.now else {
                throw apiError("invalid_grant", 70008, "The provided authorization code has expired.", context: context)
            }
            if let challenge = record.codeChallenge {
                guard let verifier = form["code_verifier"], BrowserRules.isPKCEValue(verifier),
                    BrowserRules.verifierMatches(verifier, challenge: challenge, method: record.codeChallengeMethod ?? "plain")
                else {
                    throw apiError(
                        "invalid_grant", 50148,
                        "The code_verifier is missing or does not match the code_challenge of the authorize-challenge request.",
                        context: context)
                }
            }
            guard let user = world.users[record.username.lowercased()] else {
                throw apiError("invalid_grant", 50034, "The user account does not exist in the directory.", context: context)
            }
            record.redeemed = true
            world.v2.codes[code] = record
            return (record, user)
        }
        let scopes = try resolveScopes(form["scope"] ?? record.scope, app: app, context: context)
        let extras = TokenExtras(acrs: record.acrs, lineage: TokenLineage(codeId: record.id, acrs: Set(record.acrs)))
        return try issueTokens(for: user, app: app, scopes: scopes, clientInfo: form["client_info"], context: context, extras: extras)
    }
}
