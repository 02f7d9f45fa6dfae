import Foundation

/// OpenID discovery (docs/protocol.md#refresh) and the sample protected APIs.
extension EmulatorRouter {
    func openIDConfiguration(_ context: RequestContext) -> EmulatorResponse {
        let tenantBase = "\(context.request.baseURL)/\(seed.tenant.id)"
        return .json(
            200,
            [
                "issuer": issuer,
                "authorization_endpoint": "\(tenantBase)/oauth2/v2.0/authorize",
                "token_endpoint": "\(tenantBase)/oauth2/v2.0/token",
                "end_session_endpoint": "\(tenantBase)/oauth2/v2.0/logout",
                "jwks_uri": "\(tenantBase)/discovery/v2.0/keys",
                "response_types_supported": ["code", "id_token", "code id_token", "id_token token"],
                "subject_types_supported": ["pairwise"],
                "id_token_signing_alg_values_supported": ["RS256"],
                "token_endpoint_auth_methods_supported": ["client_secret_post", "private_key_jwt", "client_secret_basic"],
                "scopes_supported": ["openid", "profile", "email", "offline_access"],
                "claims_supported": [
                    "sub", "iss", "aud", "exp", "iat", "nbf", "oid", "tid", "name", "preferred_username", "email", "ver", "nonce",
                    "auth_time",
                    "acrs",
                ],
                "code_challenge_methods_supported": ["S256", "plain"],
                "claims_parameter_supported": true,
                "tenant_region_scope": "NA",
            ])
    }

    /// A protected API: a valid RS256 bearer token from this emulator, for this API's audience,
    /// in date, carrying the required scope.
    func handleSampleAPI(_ api: Seed.API, request: EmulatorRequest, now: Date) -> EmulatorResponse {
        guard request.method == "GET" else {
            var response = EmulatorResponse.json(405, ["error": "method_not_allowed"])
            response.headers["Allow"] = "GET"
            return response
        }
        func unauthorized(_ description: String) -> EmulatorResponse {
            let escaped = description.replacingOccurrences(of: "\"", with: "'")
            var response = EmulatorResponse.json(401, ["error": "invalid_token", "error_description": description])
            response.headers["WWW-Authenticate"] = #"Bearer error="invalid_token", error_description="\#(escaped)""#
            return response
        }
        guard let authorization = request.headers["authorization"] else {
            var response = EmulatorResponse.json(401, ["error": "unauthorized", "error_description": "A bearer token is required."])
            response.headers["WWW-Authenticate"] = #"Bearer realm="\#(api.name)""#
            return response
        }
        let pieces = authorization.split(separator: " ", maxSplits: 1)
        guard pieces.count == 2, pieces[0].lowercased() == "bearer" else {
            return unauthorized("The Authorization header is not a bearer token.")
        }
        let claims: [String: Any]
        do {
            claims = try JWT.verify(String(pieces[1]).trimmingCharacters(in: .whitespaces), keys: keys)
        } catch {
            return unauthorized(error.description)
        }
        let time = now.timeIntervalSince1970
        guard claims["iss"] as? String == issuer else { return unauthorized("The token issuer is not trusted.") }
        guard claims["aud"] as? String == api.appId else { return unauthorized("The token audience is not this API.") }
        guard let exp = (claims["exp"] as? NSNumber)?.doubleValue, exp > time else { return unauthorized("The token has expired.") }
        if let nbf = (claims["nbf"] as? NSNumber)?.doubleValue, nbf > time { return unauthorized("The token is not valid yet.") }
        let scopes = (claims["scp"] as? String ?? "").split(separator: " ").map(String.init)
        guard scopes.contains(api.requiredScope) else {
            var response = EmulatorResponse.json(
                403, ["error": "insufficient_scope", "error_description": "The token lacks the scope \(api.requiredScope)."])
            response.headers["WWW-Authenticate"] = #"Bearer error="insufficient_scope", scope="\#(api.requiredScope)""#
            return response
        }
        if let challenge = claimsChallenge(api, claims: claims, request: request) { return challenge }
        let user = claims["preferred_username"] as? String ?? ""
        var body: [String: Any] = ["api": api.name, "user": user, "oid": claims["oid"] as? String ?? "", "scopes": scopes]
        switch api.name {
        case "todolist":
            body["items"] = [
                ["id": 1, "title": "Buy milk", "done": false], ["id": 2, "title": "Read the native-auth spec", "done": true],
            ]
        default:
            body["name"] = claims["name"] as? String ?? user
        }
        return .json(200, body)
    }
}
