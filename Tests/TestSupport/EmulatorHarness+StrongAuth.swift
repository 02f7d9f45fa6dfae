import Foundation
import NativeAuthEmulator
import Testing

/// Helpers for the MFA and strong-auth registration flows (docs/protocol.md#multifactor-authentication, #strong-auth-registration).
extension EmulatorHarness {
    package static let alan = "alan@example.com"
    package static let alanPassword = "Turing-Machine-1936"
    package static let alanEmailMethod = "7f1c1b0e-0000-4000-8000-00000000a001"
    package static let alanSMSMethod = "7f1c1b0e-0000-4000-8000-00000000a002"
    package static let katherine = "katherine@example.com"
    package static let katherinePassword = "Orbital-Mechanics-1962"
    package static let bothCapabilities = "mfa_required registration_required"

    /// initiate (with `capabilities` when given) + password challenge + password grant.
    package func passwordFirstFactor(
        _ username: String, password: String, capabilities: String? = bothCapabilities, clientId: String = passwordApp
    ) throws -> Reply {
        let initiated = post(
            "/oauth2/v2.0/initiate", ["username": username, "challenge_type": Self.all, "capabilities": capabilities], clientId: clientId)
        let t0 = try #require(initiated.token, "\(initiated.json)")
        let challenged = challenge(t0, clientId: clientId)
        try #require(challenged["challenge_type"] as? String == "password", "\(challenged.json)")
        return post(
            "/oauth2/v2.0/token",
            [
                "continuation_token": challenged.token, "grant_type": "password", "username": username, "password": password,
                "scope": "openid profile offline_access", "challenge_type": Self.all, "client_info": "true",
            ], clientId: clientId)
    }

    /// Alan's password sign-in up to the `mfa_required` token.
    package func alanMFAToken() throws -> String {
        let reply = try passwordFirstFactor(Self.alan, password: Self.alanPassword)
        try #require(reply.suberror == "mfa_required", "\(reply.json)")
        return try #require(reply.token)
    }

    package func introspect(_ token: String?, clientId: String = passwordApp) -> Reply {
        post("/oauth2/v2.0/introspect", ["continuation_token": token], clientId: clientId)
    }

    package func mfaChallenge(_ token: String?, id: String, types: String? = all, clientId: String = passwordApp) -> Reply {
        post("/oauth2/v2.0/challenge", ["continuation_token": token, "id": id, "challenge_type": types], clientId: clientId)
    }

    package func mfaGrant(_ token: String?, code: String, grantType: String = "mfa_oob", clientId: String = passwordApp) -> Reply {
        post(
            "/oauth2/v2.0/token",
            [
                "continuation_token": token, "grant_type": grantType, "oob": code, "scope": "openid profile offline_access",
                "client_info": "true",
            ], clientId: clientId)
    }

    /// The latest message in `username`'s mailbox.
    package func lastMail(_ username: String) -> [String: Any]? {
        hook("GET", "mailbox", query: ["username": username]).list.last
    }
}
