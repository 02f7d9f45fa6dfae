import Foundation

/// Browser sign-out: `/{tenant}/oauth2/v2.0/logout`.
extension EmulatorRouter {
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
