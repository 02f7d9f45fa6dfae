import Foundation

/// What `/authorize` answers with: the next page, the code's redirect, or an error's redirect
/// (docs/emulator.md#browser-sign-in-authorization-code-with-pkce).
extension EmulatorRouter {
    /// Stores `pending` under a new `flow` value and renders its step.
    func newPage(_ pending: PendingAuthorization, message: String?, world: inout EmulatorWorld, _ context: RequestContext)
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
    func issueCode(
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

    func errorRedirect(
        _ request: AuthorizeRequest, error: String, code: Int, _ message: String, subcode: String? = nil, _ context: RequestContext
    ) -> EmulatorResponse {
        errorRedirect(
            request.redirectUri, state: request.state, error: error, description: describe(code, message, context), subcode: subcode)
    }

    func errorRedirect(_ redirectUri: String, state: String?, error: String, description: String, subcode: String? = nil)
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
}
