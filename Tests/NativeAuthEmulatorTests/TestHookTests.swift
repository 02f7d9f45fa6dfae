import Foundation
import Testing

@testable import NativeAuthEmulator

@Suite struct TestHookTests {
    typealias H = EmulatorHarness

    @Test func usersCanBeAddedAndRemoved() throws {
        let h = try H()
        let added = h.hook("POST", "users", json: ["username": "lin@example.com", "password": "Lin-Password-77"])
        #expect(added.status == 201)
        #expect(h.hook("POST", "users", json: ["username": "lin@example.com"]).status == 409)
        #expect(h.hook("POST", "users", json: ["password": "x"]).status == 400)
        #expect(h.hook("POST", "users", json: ["username": "not-an-email"]).status == 400)
        #expect(
            h.passwordGrant(try h.passwordToken("lin@example.com"), username: "lin@example.com", password: "Lin-Password-77").status == 200)
        #expect(h.hook("DELETE", "users", query: ["username": "lin@example.com"]).status == 204)
        #expect(h.hook("DELETE", "users", query: ["username": "lin@example.com"]).status == 404)
        #expect(h.initiate("lin@example.com").error == "user_not_found")
    }

    @Test func mailboxListsMessagesOldestFirst() throws {
        let h = try H()
        let t = h.challenge(h.initiate(H.grace, clientId: H.codeApp).token, clientId: H.codeApp).token
        _ = h.challenge(t, clientId: H.codeApp)
        let mail = h.hook("GET", "mailbox", query: ["username": "GRACE@example.com"]).list
        #expect(mail.count == 2)
        #expect(mail.allSatisfy { $0["to"] as? String == H.grace && $0["sent_at"] is String })
        #expect(h.hook("GET", "mailbox").status == 400)
        #expect(h.hook("GET", "mailbox", query: ["username": "nobody@example.com"]).list.isEmpty)
    }

    @Test func requestLogRedactsSecrets() throws {
        let h = try H()
        _ = try h.signIn()
        let log = h.hook("GET", "requests").list
        #expect(log.map { $0["endpoint"] as? String } == ["/oauth2/v2.0/initiate", "/oauth2/v2.0/challenge", "/oauth2/v2.0/token"])
        let fields = try #require(log.last?["fields"] as? [String: String])
        #expect(fields["password"] == "<redacted>" && fields["continuation_token"] == "<redacted>" && fields["grant_type"] == "password")
        #expect(!String(decoding: h.hook("GET", "requests").body, as: UTF8.self).contains(H.adaPassword))
        #expect(h.hook("DELETE", "requests").status == 204)
        #expect(h.hook("GET", "requests").list.isEmpty)
    }

    @Test func faultsAnswerInsteadOfTheEndpointForTheirCount() throws {
        let h = try H()
        #expect(
            h.hook("POST", "faults", json: [["endpoint": "/oauth2/v2.0/initiate", "status": 429, "retry_after": 3, "count": 2]]).status
                == 200)
        let first = h.initiate(H.ada)
        #expect(first.status == 429 && first.headers["Retry-After"] == "3")
        #expect(h.initiate(H.ada).status == 429)
        #expect(h.initiate(H.ada).status == 200)
    }

    @Test func faultBodiesDropsAndDelays() throws {
        let h = try H()
        _ = h.hook(
            "POST", "faults",
            json: [
                ["endpoint": "/oauth2/v2.0/initiate", "body": "truncated"],
                ["endpoint": "/oauth2/v2.0/initiate", "body": "invalid_json", "status": 200],
                ["endpoint": "/oauth2/v2.0/initiate", "body": "empty"],
                ["endpoint": "/oauth2/v2.0/initiate", "body": "html", "status": 502],
                ["endpoint": "/oauth2/v2.0/initiate", "body": "oversize"],
                ["endpoint": "initiate", "drop_connection": true],
                ["endpoint": "*", "delay_ms": 250, "status": 503],
            ])
        let truncated = h.initiate(H.ada)
        #expect(truncated.status == 200 && (try? JSONSerialization.jsonObject(with: truncated.body)) == nil && !truncated.body.isEmpty)
        #expect((try? JSONSerialization.jsonObject(with: h.initiate(H.ada).body)) == nil)
        #expect(h.initiate(H.ada).body.isEmpty)
        let html = h.initiate(H.ada)
        #expect(html.status == 502 && html.headers["Content-Type"] == "text/html")
        #expect(h.initiate(H.ada).body.count > 2_000_000)
        let dropped = h.router.handle(
            EmulatorRequest(method: "POST", path: h.tenant + "/oauth2/v2.0/initiate", body: Data(), baseURL: h.base))
        #expect(dropped.dropConnection)
        let slow = h.router.handle(EmulatorRequest(method: "POST", path: h.tenant + "/signup/v1.0/start", body: Data(), baseURL: h.base))
        #expect(slow.delayMilliseconds == 250 && slow.status == 503)
        #expect(h.hook("DELETE", "faults").status == 204)
    }

    @Test func badFaultsAreRefused() throws {
        let h = try H()
        #expect(h.hook("POST", "faults", json: ["endpoint": "x"]).status == 400)
        #expect(h.hook("POST", "faults", json: [["status": 500]]).status == 400)
        #expect(h.hook("POST", "faults", json: [["endpoint": "x", "body": "weird"]]).status == 400)
        #expect(h.hook("POST", "faults", json: [["endpoint": "x", "status": 1000]]).status == 400)
    }

    @Test func clockHookMovesTime() throws {
        let h = try H()
        let before = h.router.now()
        #expect(h.hook("POST", "clock", json: ["advance_seconds": 3600]).status == 200)
        #expect(h.router.now().timeIntervalSince(before) >= 3600)
        #expect(h.hook("POST", "clock", json: ["advance_seconds": -5]).status == 400)
        #expect(h.hook("PUT", "clock").status == 405)
        #expect(h.hook("GET", "nothing").status == 404)
    }
}

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

@Suite struct BadInputTests {
    typealias H = EmulatorHarness

    @Test func malformedRequestsGetJSONErrors() throws {
        let h = try H()
        let path = h.tenant + "/oauth2/v2.0/initiate"
        let form = ["Content-Type": "application/x-www-form-urlencoded"]
        let cases: [(H.Reply, Int)] = [
            (h.send("POST", path, body: Data("client_id=%ZZ".utf8), headers: form), 400),
            (h.send("POST", path, body: Data("client_id=a&client_id=b".utf8), headers: form), 400),
            (h.send("POST", path, body: Data("{}".utf8), headers: ["Content-Type": "application/json"]), 400),
            (h.send("POST", path, body: Data(repeating: UInt8(ascii: "a"), count: 70_000), headers: form), 413),
            (h.send("GET", path), 405),
            (h.send("POST", h.tenant + "/oauth2/v2.0/nothing", headers: form), 404),
            (h.send("POST", "/other-tenant.onmicrosoft.com/oauth2/v2.0/initiate", headers: form), 404),
            (h.send("GET", "/"), 404),
            (h.send("POST", path, body: Data([0xff, 0xfe, 0x3d]), headers: form), 400),
        ]
        for (reply, status) in cases {
            #expect(reply.status == status)
            #expect(reply.error != nil, "every error has a JSON body: \(String(decoding: reply.body, as: UTF8.self))")
        }
        #expect(h.send("GET", path).headers["Allow"] == "POST")
    }

    @Test func bothSpacesAndUnknownQueryParametersAreAccepted() throws {
        let h = try H()
        let reply = h.send(
            "POST", h.tenant + "/oauth2/v2.0/initiate", query: ["dc": "ESTS-PUB-WUS2-AZ1-FD000-TEST1"],
            body: Data("client_id=\(H.passwordApp)&username=ada%40example.com&challenge_type=oob%20password+redirect".utf8),
            headers: ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"])
        #expect(reply.status == 200)
    }

    @Test func capabilityParameterUnderEitherName() throws {
        let h = try H()
        #expect(
            h.post(
                "/oauth2/v2.0/initiate", ["username": H.ada, "challenge_type": H.all, "capabilities": "mfa_required registration_required"]
            ).status == 200)
        #expect(
            h.post(
                "/oauth2/v2.0/initiate", ["username": H.ada, "challenge_type": H.all, "capability": "mfa_required,registration_required"]
            ).status == 200)
    }

    @Test func badSeedsAreExplained() {
        #expect(throws: EmulatorError.self) { try Seed.load(from: Data("{}".utf8)) }
        #expect(throws: EmulatorError.self) { try Seed.load(from: Data("nope".utf8)) }
        var seed = Seed.demo
        seed.apis[0].requiredScope = "Missing"
        #expect(throws: EmulatorError.self) { try EmulatorRouter(seed: seed) }
        let error = try? Seed.load(from: Data(#"{"tenant":{"subdomain":"x"},"apps":[],"users":[],"apis":[]}"#.utf8))
        #expect(error == nil)
        do {
            _ = try Seed.load(from: Data(#"{"tenant":{"subdomain":"x"},"apps":[],"users":[],"apis":[]}"#.utf8))
        } catch {
            #expect("\(error)".contains("tenant.id"))
        }
    }
}

@Suite struct ConcurrencyAndMemoryTests {
    typealias H = EmulatorHarness

    @Test func manyConcurrentSignInsAllSucceed() async throws {
        let h = try H()
        let results = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    guard let t0 = h.initiate(H.ada).token, let t1 = h.challenge(t0).token else { return 0 }
                    return h.passwordGrant(t1).status
                }
            }
            var statuses: [Int] = []
            for await status in group { statuses.append(status) }
            return statuses
        }
        #expect(results.count == 200 && results.allSatisfy { $0 == 200 })
    }

    @Test func expiredFlowsAreSwept() throws {
        let h = try H()
        for _ in 0..<50 { _ = h.initiate(H.ada) }
        #expect(h.router.world.withLock { $0.flows.count } == 50)
        h.advanceClock(3600)
        _ = h.initiate(H.ada)
        #expect(h.router.world.withLock { $0.flows.count } == 1)
    }

    @Test func theFlowTableIsBounded() throws {
        let h = try H { $0.maxFlows = 20 }
        for _ in 0..<60 { _ = h.initiate(H.ada) }
        #expect(h.router.world.withLock { $0.flows.count } <= 21)
    }
}
