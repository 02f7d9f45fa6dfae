import Foundation

/// Consent on the browser sign-in page: what a user has granted an app, by resource scope.
extension EmulatorRouter {
    func consentKey(_ username: String, _ clientId: String) -> String { "\(username.lowercased())|\(clientId.lowercased())" }

    /// The app asks for consent and the user has not consented to every requested resource scope.
    func needsConsent(_ request: AuthorizeRequest, app: Seed.App, username: String, world: EmulatorWorld) -> Bool {
        guard app.requiresConsent else { return false }
        let given = world.browser.consents[consentKey(username, request.clientId)] ?? []
        return !scopeKeys(request.resourceScopes, clientId: request.clientId).isSubset(of: given)
    }

    /// Resource scopes as `{api app id}/{name}` (`.default` expanded; Graph's too); unknown ones
    /// and those the app is not granted are left out.
    func scopeKeys(_ scopes: [String], clientId: String) -> Set<String> {
        guard let app = seed.app(clientId: clientId) else { return [] }
        var keys: Set<String> = []
        for scope in scopes {
            guard case .granted(let api, let name) = lookUpScope(scope, app: app) else { continue }
            for expanded in name == ".default" ? api.scopes : [name] { keys.insert("\(api.appId)/\(expanded)") }
        }
        return keys
    }
}
