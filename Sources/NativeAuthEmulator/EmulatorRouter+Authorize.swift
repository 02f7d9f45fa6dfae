import Foundation

/// Browser sign-in (docs/emulator.md#browser-sign-in-authorization-code-with-pkce): `GET|POST /{tenant}/oauth2/v2.0/authorize`,
/// its request and the SSO cookie. The page's answers are in EmulatorRouter+AuthorizeAnswers.swift, what it
/// answers with in EmulatorRouter+AuthorizeResponses.swift, and `/{tenant}/oauth2/v2.0/logout` in EmulatorRouter+Logout.swift.
extension EmulatorRouter {
    /// The SSO cookie's name.
    static let ssoCookie = "ESTSAUTH"

    func authorize(_ context: RequestContext) -> EmulatorResponse {
        let request = context.request
        switch request.method {
        case "GET":
            return startAuthorization(request.query, context)
        case "POST":
            guard request.body.count <= configuration.maxRequestBodyBytes else {
                return AuthorizePage.error(status: 413, code: 90014, description: "The request body is too large.")
            }
            guard (request.headers["content-type"]?.lowercased() ?? "").hasPrefix("application/x-www-form-urlencoded"),
                let fields = BrowserRules.parseForm(request.body)
            else {
                return AuthorizePage.error(status: 400, code: 90014, description: "The request body is not a valid form.")
            }
            if let flow = fields.last(where: { $0.0 == "flow" })?.1 {
                return answerPage(flow: flow, fields: fields, context)
            }
            // Without `flow`: an authorize request sent as a form (OpenID Connect allows POST).
            return startAuthorization(Dictionary(fields, uniquingKeysWith: { _, last in last }), context)
        default:
            var response = AuthorizePage.error(status: 405, code: 900561, description: "The endpoint only accepts GET and POST requests.")
            response.headers["Allow"] = "GET, POST"
            return response
        }
    }

    // MARK: The request

    private func startAuthorization(_ params: [String: String], _ context: RequestContext) -> EmulatorResponse {
        func value(_ name: String) -> String? { params[name].flatMap { $0.isEmpty ? nil : $0 } }
        // (1) and (2) of docs/emulator.md#browser-sign-in-authorization-code-with-pkce answer with a page: redirecting to an unchecked
        // URI would be an open redirector.
        guard let clientId = value("client_id") else {
            return AuthorizePage.error(
                status: 400, code: 900144, description: "The request body must contain the following parameter: 'client_id'.")
        }
        guard let app = seed.app(clientId: clientId) else {
            return AuthorizePage.error(
                status: 400, code: 700016,
                description: "Application with identifier '\(clientId)' was not found in the directory '\(seed.tenant.subdomain)'.")
        }
        guard let redirectUri = value("redirect_uri") else {
            return AuthorizePage.error(
                status: 400, code: 900144, description: "The request body must contain the following parameter: 'redirect_uri'.")
        }
        guard app.redirectUris.contains(where: { BrowserRules.redirectURIMatches(registered: $0, requested: redirectUri) }) else {
            return AuthorizePage.error(
                status: 400, code: 50011,
                description:
                    "The redirect URI '\(redirectUri)' specified in the request does not match the redirect URIs configured for the application '\(app.clientId)'.",
                appName: app.name)
        }
        let state = value("state")
        func fail(_ error: String, _ code: Int, _ message: String) -> EmulatorResponse {
            errorRedirect(redirectUri, state: state, error: error, description: describe(code, message, context))
        }
        guard let responseType = value("response_type") else {
            return fail("invalid_request", 900144, "The request body must contain the following parameter: 'response_type'.")
        }
        guard responseType == "code" else {
            return fail("unsupported_response_type", 70005, "The response_type '\(responseType)' is not supported; use 'code'.")
        }
        guard let challenge = value("code_challenge") else {
            return fail("invalid_request", 9_002_325, "Proof Key for Code Exchange is required: the request must contain 'code_challenge'.")
        }
        let method = value("code_challenge_method") ?? "plain"
        guard method == "S256" || method == "plain" else {
            return fail("invalid_request", 9_002_313, "The code_challenge_method '\(method)' is not supported; use S256 or plain.")
        }
        guard BrowserRules.isPKCEValue(challenge), method == "plain" || challenge.utf8.count == 43 else {
            return fail("invalid_request", 9_002_313, "The code_challenge is not a valid \(method) challenge.")
        }
        guard let rawScope = value("scope") else {
            return fail("invalid_request", 900144, "The request body must contain the following parameter: 'scope'.")
        }
        do {
            _ = try resolveScopes(rawScope, app: app, interactive: true, context: context)
        } catch {
            let body = ((try? JSONSerialization.jsonObject(with: error.response.body)) as? [String: Any]) ?? [:]
            return errorRedirect(
                redirectUri, state: state, error: body["error"] as? String ?? "invalid_scope",
                description: body["error_description"] as? String ?? "")
        }
        let prompt = Set((value("prompt") ?? "").split(separator: " ").map(String.init))
        guard prompt.isSubset(of: ["none", "login", "consent", "select_account"]), !prompt.contains("none") || prompt.count == 1 else {
            return fail("invalid_request", 90023, "Unsupported 'prompt' value '\(value("prompt") ?? "")'.")
        }
        guard let acrs = BrowserRules.requestedAcrs(value("claims")) else {
            return fail("invalid_request", 9_002_313, "The claims parameter is not a valid JSON object.")
        }
        var scopes: [String] = []
        for scope in rawScope.split(separator: " ").map(String.init) where !scopes.contains(scope) { scopes.append(scope) }
        let tenantSegment = String(context.request.path.split(separator: "/").first ?? "")
        let authorizeRequest = AuthorizeRequest(
            clientId: app.clientId, redirectUri: redirectUri, state: state, scopes: scopes, challenge: challenge, method: method,
            nonce: value("nonce"), claims: value("claims"), acrs: acrs, prompt: prompt, loginHint: value("login_hint"),
            tenantSegment: tenantSegment)
        return proceed(authorizeRequest, app: app, context)
    }

    /// Step (4) of docs/emulator.md#browser-sign-in-authorization-code-with-pkce: the SSO session answers at once unless `prompt` or
    /// the request asks for more.
    private func proceed(_ request: AuthorizeRequest, app: Seed.App, _ context: RequestContext) -> EmulatorResponse {
        let cookie = BrowserRules.cookie(Self.ssoCookie, in: context.request.headers["cookie"])
        return world.withLock { world -> EmulatorResponse in
            let session = cookie.flatMap { liveSession($0, world: world, now: context.now) }
            let hintMatches = request.loginHint.map { $0.lowercased() == session?.username.lowercased() } ?? true
            let satisfied = session.map { Set(request.acrs).isSubset(of: $0.acrs) } ?? false
            if request.prompt.contains("none") {
                guard let session, hintMatches else {
                    return errorRedirect(
                        request, error: "login_required",
                        code: 50058, "A silent sign-in request was sent but no user is signed in.", context)
                }
                guard satisfied else {
                    return errorRedirect(
                        request, error: "interaction_required", code: 50076,
                        "The authentication context '\(request.acrs.joined(separator: " "))' requires an interactive sign-in.", context)
                }
                guard !needsConsent(request, app: app, username: session.username, world: world) else {
                    return errorRedirect(
                        request, error: "consent_required", code: 65001,
                        "The user or administrator has not consented to use the application with ID '\(app.clientId)'.", context)
                }
                return issueCode(
                    request, username: session.username, authTime: session.authTime, satisfied: session.acrs,
                    granted: scopeKeys(request.resourceScopes, clientId: request.clientId), world: &world, context)
            }
            let forcePage = request.prompt.contains("login") || request.prompt.contains("select_account")
            if let session, !forcePage, hintMatches, satisfied {
                if request.prompt.contains("consent") || needsConsent(request, app: app, username: session.username, world: world) {
                    let pending = PendingAuthorization(
                        request: request, step: .consent(username: session.username, authTime: session.authTime, acrs: session.acrs),
                        createdAt: context.now)
                    return newPage(pending, message: nil, world: &world, context)
                }
                return issueCode(
                    request, username: session.username, authTime: session.authTime, satisfied: session.acrs,
                    granted: scopeKeys(request.resourceScopes, clientId: request.clientId), world: &world, context)
            }
            return newPage(PendingAuthorization(request: request, createdAt: context.now), message: nil, world: &world, context)
        }
    }
}
