import Foundation

/// Browser sign-in (docs/emulator.md#browser-sign-in-authorization-code-with-pkce): `GET|POST /{tenant}/oauth2/v2.0/authorize` with its
/// sign-in, code and consent pages, the SSO cookie, and `/{tenant}/oauth2/v2.0/logout`.
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
        guard let app = seed.apps.first(where: { $0.clientId.lowercased() == clientId.lowercased() }) else {
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

    // MARK: The page's answers

    private func answerPage(flow: String, fields: [(String, String)], _ context: RequestContext) -> EmulatorResponse {
        func field(_ name: String) -> String? {
            fields.last(where: { $0.0 == name }).map { $0.1.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let lifetime = TimeInterval(configuration.authorizePageLifetime)
        // Single use: the page's flow value is taken now; every answer carries a new one.
        let taken = world.withLock { world -> PendingAuthorization? in
            guard let page = world.browser.pages.removeValue(forKey: flow), page.createdAt.addingTimeInterval(lifetime) > context.now
            else { return nil }
            return page
        }
        guard var pending = taken else {
            return AuthorizePage.error(
                status: 400, code: 50089, description: "The sign-in page has expired or was already submitted. Start the sign-in again.")
        }
        let action = field("action") ?? ""
        switch (action, pending.step) {
        case ("cancel", _):
            return errorRedirect(
                pending.request, error: "access_denied", code: 90091, "The user canceled the sign-in.", subcode: "cancel", context)
        case ("password", .signIn):
            return passwordAnswer(&pending, username: field("username"), password: field("password"), context)
        case ("send_code", .signIn):
            return sendCodeAnswer(&pending, username: field("username"), context)
        case ("send_code", .otp(let username, _)):
            return sendCodeAnswer(&pending, username: username, context)
        case ("verify_code", .otp(let username, let code)):
            return verifyCodeAnswer(&pending, username: username, code: code, submitted: field("otp"), context)
        case ("accept", .consent(let username, let authTime, let satisfied)):
            let checked = Set(fields.filter { $0.0 == "scope" }.map(\.1))
            let granted = scopeKeys(pending.request.resourceScopes.filter { checked.contains($0) }, clientId: pending.request.clientId)
            return world.withLock { world in
                let key = consentKey(username, pending.request.clientId)
                world.browser.consents[key, default: []].formUnion(granted)
                return issueCode(
                    pending.request, username: username, authTime: authTime, satisfied: satisfied, granted: granted, world: &world, context)
            }
        case ("decline", .consent):
            return errorRedirect(
                pending.request, error: "access_denied", code: 65004, "The user declined to consent to access the app.", context)
        default:
            return world.withLock { world in newPage(pending, message: "Choose one of the buttons on this page.", world: &world, context) }
        }
    }

    private func passwordAnswer(_ pending: inout PendingAuthorization, username: String?, password: String?, _ context: RequestContext)
        -> EmulatorResponse
    {
        guard let username, let password else {
            return world.withLock { world in newPage(pending, message: "Enter your email and password.", world: &world, context) }
        }
        // Look up under the lock, hash outside it.
        let user = world.withLock { $0.users[username.lowercased()] }
        guard let stored = user?.password else {
            let message =
                user == nil
                ? "Your account or password is incorrect." : "This account has no password: choose \"Email me a code instead\"."
            return wrongPassword(&pending, message: message, context)
        }
        guard stored.matches(password), let user else {
            return wrongPassword(&pending, message: "Your account or password is incorrect.", context)
        }
        return completeSignIn(pending, user: user, context)
    }

    private func wrongPassword(_ pending: inout PendingAuthorization, message: String, _ context: RequestContext) -> EmulatorResponse {
        pending.passwordAttempts += 1
        guard pending.passwordAttempts < configuration.maxPasswordAttempts else {
            return errorRedirect(
                pending.request, error: "access_denied", code: 50053, "The account is locked: too many sign-in attempts.", context)
        }
        let page = pending
        return world.withLock { world in newPage(page, message: message, world: &world, context) }
    }

    private func sendCodeAnswer(_ pending: inout PendingAuthorization, username: String?, _ context: RequestContext) -> EmulatorResponse {
        var page = pending
        return world.withLock { world in
            guard let username, let user = world.users[username.lowercased()] else {
                page.step = .signIn
                return newPage(page, message: "We couldn't find an account with that email.", world: &world, context)
            }
            let code = sendCode(to: user.username, purpose: .browserSignIn, now: context.now, world: &world)
            page.step = .otp(username: user.username, code: code)
            page.codeAttempts = 0
            return newPage(page, message: nil, world: &world, context)
        }
    }

    private func verifyCodeAnswer(
        _ pending: inout PendingAuthorization, username: String, code: OneTimeCode, submitted: String?, _ context: RequestContext
    ) -> EmulatorResponse {
        let valid = code.expiresAt > context.now && pending.codeAttempts < configuration.maxCodeAttempts
        if let submitted, valid, Secrets.constantTimeEqual(submitted, code.code),
            let user = world.withLock({ $0.users[username.lowercased()] })
        {
            return completeSignIn(pending, user: user, context)
        }
        pending.codeAttempts += 1
        let message =
            code.expiresAt <= context.now
            ? "The code has expired: send a new code."
            : pending.codeAttempts >= configuration.maxCodeAttempts ? "Too many wrong codes: send a new code." : "That code is incorrect."
        let page = pending
        return world.withLock { world in newPage(page, message: message, world: &world, context) }
    }

    /// The person proved who they are on the page: a new SSO session (a new cookie value), then
    /// the consent page or the code.
    private func completeSignIn(_ pending: PendingAuthorization, user: UserRecord, _ context: RequestContext) -> EmulatorResponse {
        let old = BrowserRules.cookie(Self.ssoCookie, in: context.request.headers["cookie"])
        let app = seed.apps.first { $0.clientId == pending.request.clientId }
        return world.withLock { world in
            var acrs = Set(pending.request.acrs)
            if let old, let previous = world.browser.sessions.removeValue(forKey: old),
                previous.username.lowercased() == user.username.lowercased()
            {
                acrs.formUnion(previous.acrs)
            }
            let sessionId = Secrets.opaqueToken()
            let session = BrowserSession(
                username: user.username, authTime: context.now, acrs: acrs,
                expiresAt: context.now.addingTimeInterval(TimeInterval(configuration.browserSessionLifetime)))
            world.browser.sessions[sessionId] = session
            pruneBrowserState(&world, now: context.now)
            var response: EmulatorResponse
            if let app,
                pending.request.prompt.contains("consent") || needsConsent(pending.request, app: app, username: user.username, world: world)
            {
                var next = pending
                next.step = .consent(username: user.username, authTime: context.now, acrs: acrs)
                response = newPage(next, message: nil, world: &world, context)
            } else {
                response = issueCode(
                    pending.request, username: user.username, authTime: context.now, satisfied: acrs,
                    granted: scopeKeys(pending.request.resourceScopes, clientId: pending.request.clientId), world: &world, context)
            }
            response.headers["Set-Cookie"] =
                "\(Self.ssoCookie)=\(sessionId); Path=/\(pending.request.tenantSegment); HttpOnly; SameSite=Lax"
            return response
        }
    }

    // MARK: Pieces

    /// Stores `pending` under a new `flow` value and renders its step.
    private func newPage(_ pending: PendingAuthorization, message: String?, world: inout EmulatorWorld, _ context: RequestContext)
        -> EmulatorResponse
    {
        let flow = Secrets.opaqueToken()
        world.browser.pages[flow] = pending
        pruneBrowserState(&world, now: context.now)
        let request = pending.request
        let appName = seed.apps.first { $0.clientId == request.clientId }?.name ?? request.clientId
        let form: AuthorizePage.Form
        switch pending.step {
        case .signIn:
            form = .signIn(username: request.loginHint)
        case .otp(let username, _):
            form = .otp(username: username, maskedAddress: Self.maskedEmail(username))
        case .consent(let username, _, _):
            form = .consent(appName: appName, username: username, scopes: request.resourceScopes)
        }
        let notice =
            request.acrs.isEmpty
            ? nil : "This resource requires the authentication context \(request.acrs.joined(separator: ", ")): sign in to continue."
        return AuthorizePage.page(
            form: form, flow: flow, action: "/\(request.tenantSegment)/oauth2/v2.0/authorize", appName: appName, message: message,
            notice: notice)
    }

    /// Success (docs/emulator.md#browser-sign-in-authorization-code-with-pkce): `302 {redirect_uri}?code=…&state=…&client_info=…`.
    private func issueCode(
        _ request: AuthorizeRequest, username: String, authTime: Date, satisfied: Set<String>, granted: Set<String>,
        world: inout EmulatorWorld, _ context: RequestContext
    ) -> EmulatorResponse {
        let code = Secrets.opaqueToken()
        world.browser.codes[code] = AuthorizationCodeRecord(
            id: UUID().uuidString, clientId: request.clientId, redirectUri: request.redirectUri, username: username,
            requestedScopes: request.scopes, grantedScopes: granted, challenge: request.challenge, method: request.method,
            nonce: request.nonce, claims: request.claims, acrs: request.acrs, satisfiedAcrs: satisfied, issuedAt: context.now,
            authTime: authTime)
        pruneBrowserState(&world, now: context.now)
        var parameters = [("code", code)]
        if let state = request.state { parameters.append(("state", state)) }
        if let objectId = world.users[username.lowercased()]?.objectId {
            let info = #"{"uid":"\#(objectId)","utid":"\#(seed.tenant.id)"}"#
            parameters.append(("client_info", Base64URLCoding.encode(Data(info.utf8))))
        }
        return Self.redirect(to: BrowserRules.redirectLocation(request.redirectUri, parameters))
    }

    private func errorRedirect(
        _ request: AuthorizeRequest, error: String, code: Int, _ message: String, subcode: String? = nil, _ context: RequestContext
    ) -> EmulatorResponse {
        errorRedirect(
            request.redirectUri, state: request.state, error: error, description: describe(code, message, context), subcode: subcode)
    }

    private func errorRedirect(_ redirectUri: String, state: String?, error: String, description: String, subcode: String? = nil)
        -> EmulatorResponse
    {
        var parameters = [("error", error), ("error_description", description)]
        if let subcode { parameters.append(("error_subcode", subcode)) }
        if let state { parameters.append(("state", state)) }
        return Self.redirect(to: BrowserRules.redirectLocation(redirectUri, parameters))
    }

    static func redirect(to location: String) -> EmulatorResponse {
        var response = AuthorizePage.document(status: 302, title: "Redirecting", body: "<p>Redirecting.</p>\n")
        response.headers["Location"] = location
        return response
    }

    /// `AADSTSnnnn: message Trace ID: … Correlation ID: … Timestamp: …`, as in the JSON errors.
    func describe(_ code: Int, _ message: String, _ context: RequestContext) -> String {
        "AADSTS\(code): \(message) Trace ID: \(UUID().uuidString.lowercased()) Correlation ID: \(context.correlationId) Timestamp: \(Self.timestamp(context.now))"
    }

    private func liveSession(_ id: String, world: EmulatorWorld, now: Date) -> BrowserSession? {
        guard let session = world.browser.sessions[id], session.expiresAt > now, world.users[session.username.lowercased()] != nil
        else { return nil }
        return session
    }

    /// Ends `username`'s SSO sessions (as revoking a user's sign-in sessions does); returns how many.
    func endBrowserSessions(of username: String, world: inout EmulatorWorld) -> Int {
        let before = world.browser.sessions.count
        world.browser.sessions = world.browser.sessions.filter { $0.value.username.lowercased() != username.lowercased() }
        return before - world.browser.sessions.count
    }

    private func consentKey(_ username: String, _ clientId: String) -> String { "\(username.lowercased())|\(clientId.lowercased())" }

    /// The app asks for consent and the user has not consented to every requested resource scope.
    private func needsConsent(_ request: AuthorizeRequest, app: Seed.App, username: String, world: EmulatorWorld) -> Bool {
        guard app.requiresConsent else { return false }
        let given = world.browser.consents[consentKey(username, request.clientId)] ?? []
        return !scopeKeys(request.resourceScopes, clientId: request.clientId).isSubset(of: given)
    }

    /// Resource scopes as `{api app id}/{name}` (`.default` expanded; Graph's too); unknown ones
    /// and those the app is not granted are left out.
    func scopeKeys(_ scopes: [String], clientId: String) -> Set<String> {
        guard let app = seed.apps.first(where: { $0.clientId.lowercased() == clientId.lowercased() }) else { return [] }
        var keys: Set<String> = []
        for scope in scopes {
            guard case .granted(let api, let name) = lookUpScope(scope, app: app) else { continue }
            for expanded in name == ".default" ? api.scopes : [name] { keys.insert("\(api.appId)/\(expanded)") }
        }
        return keys
    }

    /// Keeps the browser tables bounded: expired entries go first, then the oldest.
    func pruneBrowserState(_ world: inout EmulatorWorld, now: Date) {
        let limit = configuration.maxFlows
        let slack = limit + max(1, limit / 10)
        if world.browser.pages.count > slack {
            let lifetime = TimeInterval(configuration.authorizePageLifetime)
            world.browser.pages = world.browser.pages.filter { $0.value.createdAt.addingTimeInterval(lifetime) > now }
            if world.browser.pages.count > limit {
                let kept = world.browser.pages.sorted { $0.value.createdAt > $1.value.createdAt }.prefix(limit)
                world.browser.pages = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
            }
        }
        if world.browser.codes.count > slack {
            // Redeemed codes are kept twice their lifetime, so that a replay is recognised (and revokes).
            let keep = TimeInterval(2 * configuration.authorizationCodeLifetime)
            world.browser.codes = world.browser.codes.filter { $0.value.issuedAt.addingTimeInterval(keep) > now }
            if world.browser.codes.count > limit {
                let kept = world.browser.codes.sorted { $0.value.issuedAt > $1.value.issuedAt }.prefix(limit)
                world.browser.codes = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
            }
        }
        if world.browser.sessions.count > slack {
            world.browser.sessions = world.browser.sessions.filter { $0.value.expiresAt > now }
            if world.browser.sessions.count > limit {
                let kept = world.browser.sessions.sorted { $0.value.expiresAt > $1.value.expiresAt }.prefix(limit)
                world.browser.sessions = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
            }
        }
    }

    // MARK: Logout

    /// `GET|POST /{tenant}/oauth2/v2.0/logout`: ends the SSO session (refresh tokens stay valid).
    func logout(_ context: RequestContext) -> EmulatorResponse {
        let request = context.request
        var params = request.query
        switch request.method {
        case "GET": break
        case "POST":
            for (name, value) in BrowserRules.parseForm(request.body) ?? [] { params[name] = value }
        default:
            var response = AuthorizePage.error(status: 405, code: 900561, description: "The endpoint only accepts GET and POST requests.")
            response.headers["Allow"] = "GET, POST"
            return response
        }
        if let id = BrowserRules.cookie(Self.ssoCookie, in: request.headers["cookie"]) {
            world.withLock { _ = $0.browser.sessions.removeValue(forKey: id) }
        }
        let clientId = params["client_id"].flatMap { $0.isEmpty ? nil : $0.lowercased() }
        let apps = seed.apps.filter { clientId == nil || $0.clientId.lowercased() == clientId }
        var response: EmulatorResponse
        if let target = params["post_logout_redirect_uri"], !target.isEmpty,
            apps.contains(where: { app in app.redirectUris.contains { BrowserRules.redirectURIMatches(registered: $0, requested: target) } }
            )
        {
            let state = params["state"].flatMap { $0.isEmpty ? nil : $0 }
            response = Self.redirect(to: BrowserRules.redirectLocation(target, state.map { [("state", $0)] } ?? []))
        } else {
            response = AuthorizePage.signedOut(appName: clientId == nil ? nil : apps.first?.name)
        }
        let segment = String(request.path.split(separator: "/").first ?? "")
        response.headers["Set-Cookie"] =
            "\(Self.ssoCookie)=; Path=/\(segment); Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax"
        return response
    }
}
