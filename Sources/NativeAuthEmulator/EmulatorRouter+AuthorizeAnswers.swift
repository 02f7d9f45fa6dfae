import Foundation

/// The answers of the browser sign-in page (docs/emulator.md#browser-sign-in-authorization-code-with-pkce): password,
/// email code, consent and cancel, each taking the page's single-use `flow` value.
extension EmulatorRouter {
    func answerPage(flow: String, fields: [(String, String)], _ context: RequestContext) -> EmulatorResponse {
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
}
