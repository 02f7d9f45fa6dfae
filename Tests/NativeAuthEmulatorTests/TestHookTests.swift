import Foundation
import TestSupport
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
        #expect(h.hook("POST", "faults", json: [["endpoint": "x", "location": "http://127.0.0.2/"]]).status == 400)
        #expect(h.hook("POST", "faults", json: [["endpoint": "x", "status": 500, "location": "http://127.0.0.2/"]]).status == 400)
    }

    @Test func aFaultWithALocationAnswersThatRedirectOnce() throws {
        let h = try H()
        let location = "http://127.0.0.2:9/elsewhere"
        #expect(h.hook("POST", "faults", json: [["endpoint": "/oauth2/v2.0/initiate", "status": 308, "location": location]]).status == 200)
        let redirected = h.initiate(H.ada)
        #expect(redirected.status == 308 && redirected.headers["Location"] == location && redirected.body.isEmpty)
        #expect(h.initiate(H.ada).status == 200)
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
