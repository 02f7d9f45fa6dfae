import Foundation
import TestSupport
import Testing

@testable import NativeAuthEmulator

@Suite struct SampleAPITests {
    typealias H = EmulatorHarness

    private func call(_ h: H, _ path: String = "/api/todolist", token: String?) -> H.Reply {
        h.send("GET", path, headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }

    private func accessToken(_ h: H, scope: String = "api://emulator/todolist/ToDoList.Read openid") throws -> String {
        try #require(try h.signIn(scope: scope)["access_token"] as? String)
    }

    private func validClaims(_ h: H) -> [String: Any] {
        let now = Int(h.router.now().timeIntervalSince1970)
        return [
            "aud": "33333333-3333-4333-8333-333333333333", "iss": h.router.issuer, "iat": now, "nbf": now, "exp": now + 600,
            "scp": "ToDoList.Read", "preferred_username": H.ada, "oid": "x",
        ]
    }

    @Test func aValidTokenGetsTheResource() throws {
        let h = try H()
        let reply = call(h, token: try accessToken(h))
        #expect(reply.status == 200 && reply["api"] as? String == "todolist" && reply["user"] as? String == H.ada)
        let profile = call(h, "/api/profile", token: try accessToken(h, scope: "api://emulator/profile/Profile.Read"))
        #expect(profile.status == 200 && profile["name"] as? String == "Ada Lovelace")
    }

    @Test func missingOrMalformedAuthorization() throws {
        let h = try H()
        #expect(call(h, token: nil).status == 401)
        #expect(h.send("GET", "/api/todolist", headers: ["Authorization": "Basic abc"]).status == 401)
        #expect(call(h, token: "not.a.jwt").status == 401)
        #expect(h.send("POST", "/api/todolist").status == 405)
    }

    @Test func wrongAudienceExpiredAndMissingScope() throws {
        let h = try H()
        let profileToken = try accessToken(h, scope: "api://emulator/profile/Profile.Read")
        let wrongAudience = call(h, token: profileToken)
        #expect(wrongAudience.status == 401)
        #expect(wrongAudience.headers["WWW-Authenticate"]?.hasPrefix(#"Bearer error="invalid_token""#) == true)

        let readWriteOnly = try accessToken(h, scope: "api://emulator/todolist/ToDoList.ReadWrite")
        let noScope = call(h, token: readWriteOnly)
        #expect(noScope.status == 403 && noScope.headers["WWW-Authenticate"]?.contains("insufficient_scope") == true)

        let token = try accessToken(h)
        h.advanceClock(3601)
        #expect(call(h, token: token).status == 401)
    }

    @Test func forgedTokensAreRefused() throws {
        let h = try H()
        let key = h.router.keys[0]
        var claims = validClaims(h)
        #expect(call(h, token: try JWT.sign(claims, with: key)).status == 200)

        #expect(call(h, token: try JWT.unsigned(claims)).status == 401)
        #expect(call(h, token: try JWT.signHS256(claims, secret: Data("secret".utf8), keyID: key.keyID)).status == 401)
        let foreign = try RSAKey(keyID: key.keyID)
        #expect(call(h, token: try JWT.sign(claims, with: foreign)).status == 401)
        let unknownKid = try RSAKey(keyID: "someone-else")
        #expect(call(h, token: try JWT.sign(claims, with: unknownKid)).status == 401)

        let genuine = try JWT.sign(claims, with: key)
        var parts = genuine.split(separator: ".").map(String.init)
        parts[1] = Base64URLCoding.encode(
            try JSONSerialization.data(
                withJSONObject: claims.merging(["scp": "ToDoList.ReadWrite ToDoList.Read", "oid": "y"]) { _, n in n }))
        #expect(call(h, token: parts.joined(separator: ".")).status == 401, "a changed payload must break the signature")

        claims["nbf"] = Int(h.router.now().timeIntervalSince1970) + 300
        #expect(call(h, token: try JWT.sign(claims, with: key)).status == 401)
        claims = validClaims(h)
        claims["iss"] = "https://evil.example.com/v2.0"
        #expect(call(h, token: try JWT.sign(claims, with: key)).status == 401)
        claims = validClaims(h)
        claims["exp"] = Int(h.router.now().timeIntervalSince1970) - 1
        #expect(call(h, token: try JWT.sign(claims, with: key)).status == 401)
    }
}
