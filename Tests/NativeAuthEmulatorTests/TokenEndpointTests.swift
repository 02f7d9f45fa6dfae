import Foundation
import TestSupport
import Testing

@testable import NativeAuthEmulator

@Suite struct TokenEndpointTests {
    typealias H = EmulatorHarness

    private func claims(_ token: Any?, _ h: H) throws -> [String: Any] {
        try JWT.verify(try #require(token as? String), keys: h.router.keys)
    }

    @Test func tokensAreRS256JWTsWithTheDocumentedClaims() throws {
        let h = try H()
        let reply = try h.signIn(scope: "api://emulator/todolist/ToDoList.Read openid profile offline_access")
        #expect(reply["token_type"] as? String == "Bearer")
        #expect(reply["expires_in"] as? Int == 3600)
        #expect(reply["scope"] as? String == "api://emulator/todolist/ToDoList.Read")
        let access = try claims(reply["access_token"], h)
        #expect(access["aud"] as? String == "33333333-3333-4333-8333-333333333333")
        #expect(access["scp"] as? String == "ToDoList.Read")
        #expect(access["iss"] as? String == h.router.issuer)
        #expect(access["azp"] as? String == H.passwordApp)
        let id = try claims(reply["id_token"], h)
        #expect(id["aud"] as? String == H.passwordApp)
        #expect(id["preferred_username"] as? String == H.ada)
        #expect(id["name"] as? String == "Ada Lovelace")
        #expect(id["ver"] as? String == "2.0")
        #expect(id["tid"] as? String == h.router.seed.tenant.id)
        for claim in ["iat", "nbf", "exp", "oid", "sub"] { #expect(id[claim] != nil, "\(claim)") }
        let encodedInfo = try #require(reply["client_info"] as? String)
        let info = try #require(Base64URLCoding.decode(encodedInfo))
        let decoded = try #require(try JSONSerialization.jsonObject(with: info) as? [String: String])
        #expect(decoded["uid"] == id["oid"] as? String && decoded["utid"] == h.router.seed.tenant.id)
        // The JWKS publishes the signing key.
        let jwks = h.send("GET", h.tenant + "/discovery/v2.0/keys").json["keys"] as? [[String: String]]
        #expect(jwks?.first?["kid"] == h.router.keys[0].keyID && jwks?.first?["alg"] == "RS256" && jwks?.first?["e"] == "AQAB")
    }

    @Test func refreshAndIDTokensOnlyWhenAsked() throws {
        let h = try H()
        let reply = h.passwordGrant(try h.passwordToken(), scope: "api://emulator/todolist/ToDoList.Read")
        #expect(reply.status == 200 && reply["refresh_token"] == nil && reply["id_token"] == nil && reply["access_token"] != nil)
    }

    @Test func defaultScopeAndATrailingSlashResource() throws {
        let h = try H()
        let todo = try h.signIn(scope: "api://emulator/todolist/.default openid offline_access")
        #expect(try claims(todo["access_token"], h)["scp"] as? String == "ToDoList.Read ToDoList.ReadWrite")
        let profile = try h.signIn(scope: "api://emulator/profile//.default openid")
        #expect(try claims(profile["access_token"], h)["scp"] as? String == "Profile.Read")
        #expect(try claims(profile["access_token"], h)["aud"] as? String == "44444444-4444-4444-8444-444444444444")
        let named = try h.signIn(scope: "api://emulator/profile/Profile.Read")
        #expect(named["scope"] as? String == "api://emulator/profile/Profile.Read")
    }

    @Test func scopesOfTwoResourcesOrUnknownScopesAreRejected() throws {
        let h = try H()
        let mixed = h.passwordGrant(
            try h.passwordToken(), scope: "api://emulator/todolist/ToDoList.Read api://emulator/profile/Profile.Read openid")
        #expect(mixed.error == "invalid_scope" && mixed.codes == [28000])
        let unknown = h.passwordGrant(try h.passwordToken(), scope: "api://elsewhere/Read openid")
        #expect(unknown.error == "invalid_scope" && unknown.codes == [70011])
    }

    /// As Entra's: a redeemed refresh token stays valid (each redemption also gives a new one);
    /// strict rotation, an option for testing clients, retires it.
    @Test(arguments: [false, true])
    func refreshTokensRotateAndServeOtherResources(strict: Bool) throws {
        let h = try H { $0.strictRefreshTokenRotation = strict }
        let first = try h.signIn()
        let rt1 = try #require(first["refresh_token"] as? String)
        let second = h.post(
            "/oauth2/v2.0/token",
            [
                "grant_type": "refresh_token", "refresh_token": rt1, "client_info": "1",
                "scope": "api://emulator/profile/Profile.Read openid profile offline_access",
            ])
        #expect(second.status == 200)
        #expect(try claims(second["access_token"], h)["aud"] as? String == "44444444-4444-4444-8444-444444444444")
        let rt2 = try #require(second["refresh_token"] as? String)
        #expect(rt2 != rt1)
        let reused = h.post("/oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": rt1, "scope": "openid offline_access"])
        if strict {
            #expect(reused.error == "invalid_grant" && reused.codes == [9_002_313])
        } else {
            #expect(reused.status == 200 && reused["refresh_token"] as? String != rt1, "\(reused.json)")
        }
        let otherClient = h.post(
            "/oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": rt2, "scope": "openid"], clientId: H.codeApp)
        #expect(otherClient.error == "invalid_grant")
    }

    @Test func refreshTokensDieWithTheSessionOrUserAndExpire() throws {
        let h = try H { $0.refreshTokenLifetime = 100 }
        let rt = try #require(try h.signIn()["refresh_token"] as? String)
        #expect(h.hook("DELETE", "sessions", query: ["username": H.ada]).json["revoked_refresh_tokens"] as? Int == 1)
        #expect(
            h.post("/oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": rt, "scope": "openid"]).error == "invalid_grant")

        let rt2 = try #require(try h.signIn()["refresh_token"] as? String)
        h.advanceClock(101)
        let expired = h.post("/oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": rt2, "scope": "openid"])
        #expect(expired.error == "invalid_grant" && expired.codes == [700082])
    }

    @Test func refreshTokensAreBoundedAndTheNewestStillWork() throws {
        let h = try H {
            $0.maxRefreshTokens = 20
            $0.refreshTokenLifetime = 1000
        }
        let stale = try #require(try h.signIn()["refresh_token"] as? String)
        h.advanceClock(1001) // expired: the first to go
        var issued: [String] = []
        for _ in 0..<60 {
            issued.append(try #require(try h.signIn()["refresh_token"] as? String))
            h.advanceClock(1) // distinct expiry times, so "soonest" is well defined
        }
        let held = h.router.world.withLock { $0.refreshTokens }
        #expect(held.count <= 22, "the limit plus the tenth trimmed at a time")
        #expect(h.router.occupancy.refreshTokens == held.count)
        #expect(held[stale] == nil)
        let newest = h.post(
            "/oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": issued.last!, "scope": "openid offline_access"])
        #expect(newest.status == 200)
        let oldest = h.post("/oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": issued[0], "scope": "openid"])
        #expect(oldest.error == "invalid_grant", "dropped first: it expires soonest")
    }

    @Test func unsupportedGrantTypes() throws {
        let h = try H()
        for grant in ["client_credentials", "passwordless_otp"] {
            let reply = h.post("/oauth2/v2.0/token", ["grant_type": grant, "scope": "openid"])
            #expect(reply.error == "unsupported_grant_type", "\(grant)")
        }
        #expect(h.post("/oauth2/v2.0/token", ["scope": "openid"]).codes == [900144])
    }

    @Test func discoveryDocumentPointsAtTheTenant() throws {
        let h = try H()
        let document = h.send("GET", h.tenant + "/v2.0/.well-known/openid-configuration").json
        #expect(document["issuer"] as? String == h.router.issuer)
        #expect(document["token_endpoint"] as? String == "\(h.base)/\(h.router.seed.tenant.id)/oauth2/v2.0/token")
        #expect(document["authorization_endpoint"] is String && document["jwks_uri"] is String)
        // The tenant id works as the authority path too.
        #expect(h.send("GET", "/\(h.router.seed.tenant.id)/v2.0/.well-known/openid-configuration").status == 200)
    }
}
