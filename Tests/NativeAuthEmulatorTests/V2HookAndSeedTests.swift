import Foundation
import TestSupport
import Testing

@testable import NativeAuthEmulator

/// The `/_emulator/v2` hook, the existing hooks on V2 routes (mailbox, request log), and the V2 seed
/// fields (docs/emulator.md#native-auth-v2-experimental).
@Suite struct V2HookAndSeedTests {
    typealias H = EmulatorHarness
    typealias C = V2TestClient

    @Test func theHookReturnsItsDefaultsAndSetsWhatItIsGiven() throws {
        let h = try H()
        let defaults = h.hook("GET", "v2")
        #expect(defaults.status == 200)
        #expect(defaults["api_segment"] as? String == "v2.0" && defaults["href_style"] as? String == "relative")
        #expect(defaults["poll_in_progress"] as? Int == 1 && defaults["poll_interval_ms"] is NSNull)
        #expect(defaults["sms_risk_verification"] is NSNull && (defaults["web_fallback_for"] as? [String])?.isEmpty == true)
        let set = h.hook(
            "POST", "v2",
            json: [
                "api_segment": "v0.1", "href_style": "absolute", "poll_in_progress": 3, "poll_interval_ms": 250,
                "sms_risk_verification": "never", "web_fallback_for": [H.ada],
            ])
        #expect(set.status == 200 && set["poll_in_progress"] as? Int == 3 && set["poll_interval_ms"] as? Int == 250)
        let read = h.hook("GET", "v2")
        #expect(read["api_segment"] as? String == "v0.1" && read["href_style"] as? String == "absolute")
        #expect(read["sms_risk_verification"] as? String == "never" && read["web_fallback_for"] as? [String] == [H.ada])
        for bad: [String: Any] in [
            ["href_style": "weird"], ["api_segment": "a/b"], ["poll_in_progress": -1], ["sms_risk_verification": "sometimes"],
            ["web_fallback_for": "ada"], ["unknown": 1],
        ] {
            #expect(h.hook("POST", "v2", json: bad).status == 400, "\(bad)")
        }
        #expect(h.send("POST", "/_emulator/v2", body: Data("nope".utf8)).status == 400)
        #expect(h.hook("PUT", "v2", json: [:]).status == 405)
        #expect(h.hook("GET", "v2")["href_style"] as? String == "absolute")
    }

    @Test func theApiSegmentChangesHrefsAndItsRoutesAnswer() throws {
        let h = try H()
        let c = C(h)
        #expect(h.hook("POST", "v2", json: ["api_segment": "v0.1"]).status == 200)
        let entry = c.entry()
        #expect(entry["sign_in"] as? String == "/emulator.onmicrosoft.com/api/v0.1/signin/start")
        let started = c.follow(entry["sign_in"] as? String, ["username": H.grace, "continuationToken": entry.token ?? ""])
        #expect(started.methodLink("email", "challenge")?.hasPrefix("/emulator.onmicrosoft.com/api/v0.1/auth/methods/email/") == true)
        #expect(c.challenge(started, type: "email").action == "verify")
        // The documented segment keeps working.
        #expect(c.follow("/emulator.onmicrosoft.com/api/v2.0/signin/start", ["username": H.grace]).hal.inner == "invalidContinuationToken")
    }

    @Test func absoluteAndTemplatedHrefs() throws {
        let h = try H()
        let c = C(h)
        #expect(h.hook("POST", "v2", json: ["href_style": "absolute"]).status == 200)
        let absolute = c.start(H.ada)
        #expect(absolute.link("self") == "\(h.base)/emulator.onmicrosoft.com/api/v2.0/signin/start")
        #expect(c.entry()["sign_in"] as? String == "\(h.base)/emulator.onmicrosoft.com/api/v2.0/signin/start")
        #expect(h.hook("POST", "v2", json: ["href_style": "templated"]).status == 200)
        let templated = c.start(H.ada)
        let method = try #require(templated.methods.first?["_links"] as? [String: Any])
        let challenge = try #require(method["challenge"] as? [String: Any])
        #expect((challenge["href"] as? String)?.hasPrefix("/{tenant}/api/v2.0/auth/methods/password/") == true)
        #expect(challenge["templated"] as? Bool == true)
        // The client replaces `{tenant}` and follows it.
        let href = (challenge["href"] as? String)?.replacingOccurrences(of: "{tenant}", with: "emulator.onmicrosoft.com")
        #expect(c.follow(href, ["continuationToken": templated.ct ?? ""]).action == "verify")
    }

    @Test func mailboxEntriesOfV2CodesSayApiV2AndV1EntriesAreUnchanged() throws {
        let h = try H()
        _ = h.challenge(h.initiate(H.grace, clientId: H.codeApp).token, clientId: H.codeApp)
        let c = C(h)
        _ = c.challenge(c.start(H.grace), type: "email")
        let mail = h.hook("GET", "mailbox", query: ["username": H.grace]).list
        #expect(mail.count == 2)
        #expect(mail[0]["api"] == nil && Set(mail[0].keys) == ["to", "code", "purpose", "sent_at", "channel", "target"])
        #expect(mail[1]["api"] as? String == "v2" && mail[1]["purpose"] as? String == "sign_in")
    }

    @Test func theRequestLogRedactsV2SecretsAndMasksContacts() throws {
        let h = try H()
        let c = C(h)
        let register = c.password(H.katherine, C.katherinePassword)
        let hop = c.follow(register.methodLink("sms", "enroll"), ["continuationToken": register.ct ?? "", "target": "+15550123"])
        let activate = c.follow(hop.link("riskverify"), ["continuationToken": hop.ct ?? ""])
        let done = c.follow(activate.link("activate"), ["continuationToken": activate.ct ?? "", "code": "123456"])
        #expect(done.status == 400) // a wrong code
        _ = c.follow(
            "/emulator.onmicrosoft.com/api/v2.0/signin/start",
            ["otp": "12345678", "newPassword": "Secret-New-1", "attributes": ["password": "Secret-2", "city": "Oslo"]])
        _ = c.redeem(c.resume(c.password(H.ada, H.adaPassword))["code"] as? String)
        let log = h.hook("GET", "requests").list
        let text = String(decoding: try JSONSerialization.data(withJSONObject: log), as: UTF8.self)
        for secret in [C.katherinePassword, H.adaPassword, "+15550123", "123456", "12345678", "Secret-New-1", "Secret-2"] {
            #expect(!text.contains(secret), "\(secret) in the log")
        }
        for token in [register.ct, hop.ct, activate.ct].compactMap({ $0 }) { #expect(!text.contains(token)) }
        let fields = log.compactMap { $0["fields"] as? [String: String] }
        #expect(fields.contains { $0["target"] == "+*******0123" })
        #expect(fields.contains { $0["continuationToken"] == "<redacted>" && $0["password"] == "<redacted>" })
        #expect(fields.contains { $0["attributes"]?.contains("Oslo") == true })
        #expect(fields.contains { $0["continuation_token"] == "<redacted>" })
        #expect(fields.contains { $0["code"] == "<redacted>" && $0["grant_type"] == "authorization_code" })
        #expect(log.contains { ($0["endpoint"] as? String) == "/api/v2.0/signin/start" })
    }

    @Test func theDemoSeedHasTheV2UsersAndDefaults() throws {
        let users = Dictionary(uniqueKeysWithValues: Seed.demo.users.map { ($0.username, $0) })
        let barbara = try #require(users[C.barbara])
        #expect(barbara.password == C.barbaraPassword && barbara.effectiveFirstFactors == [.password, .email])
        #expect(barbara.attributes["displayName"] == "Barbara Liskov")
        let margaret = try #require(users[C.margaret])
        #expect(margaret.password == "Apollo-Guidance-1969" && margaret.mfaRequired)
        #expect(margaret.effectiveRecoveryMethods.map(\.target) == [C.margaret, "+15550101"])
        #expect(margaret.strongAuthMethods.map(\.target) == ["margaret.backup@example.net"])
        let hedy = try #require(users[C.hedy])
        #expect(hedy.browserOnly && hedy.password == "Frequency-Hopping-1942")
        #expect(users[H.grace]?.effectiveFirstFactors == [.email] && users[H.ada]?.effectiveFirstFactors == [.password])
        #expect(users[H.ada]?.effectiveRecoveryMethods == [Seed.RecoveryMethod(channel: .email, target: H.ada)])
        #expect(Seed.demo.apps.allSatisfy { $0.v2Enabled && $0.smsRiskVerification == .always })
    }

    @Test func theV2SeedFieldsDecodeAndAreValidated() throws {
        func seed(app: String = "", user: String) -> Data {
            let apps = #""apps":[{"client_id":"a"\#(app)}]"#
            let users = #""users":[{"username":"u@example.com","password":"P-1-p-1-p"\#(user)}]"#
            return Data(#"{"tenant":{"subdomain":"x","id":"t"},\#(apps),\#(users),"apis":[]}"#.utf8)
        }
        let good = try Seed.load(
            from: seed(
                app: #","v2_enabled":false,"sms_risk_verification":"never""#,
                user: #","first_factors":["email","password"],"browser_only":true"#
                    + #","recovery_methods":[{"channel":"sms","target":"+15550101"}]"#
            ))
        #expect(!good.apps[0].v2Enabled && good.apps[0].smsRiskVerification == .never)
        #expect(good.users[0].firstFactors == [.email, .password] && good.users[0].browserOnly)
        #expect(good.users[0].recoveryMethods == [Seed.RecoveryMethod(channel: .sms, target: "+15550101")])
        _ = try EmulatorRouter(seed: good)

        let undecodable: [(String, String, String)] = [
            ("", #","first_factors":["sms"]"#, "first_factors"), ("", #","browser_only":"yes""#, "browser_only"),
            ("", #","recovery_methods":[{"channel":"fax","target":"1"}]"#, "recovery_methods"),
            (#","sms_risk_verification":"sometimes""#, "", "sms_risk_verification"), (#","v2_enabled":1"#, "", "v2_enabled"),
        ]
        for (app, user, field) in undecodable {
            #expect(throws: EmulatorError.self) { try Seed.load(from: seed(app: app, user: user)) }
            do { _ = try Seed.load(from: seed(app: app, user: user)) } catch { #expect("\(error)".contains(field), "\(error)") }
        }
        let invalid = [
            #","first_factors":[]"#, #","first_factors":["email","email"]"#, #","recovery_methods":[]"#,
            #","recovery_methods":[{"channel":"email","target":"nope"}]"#, #","recovery_methods":[{"channel":"sms","target":"555"}]"#,
        ]
        for user in invalid {
            let loaded = try Seed.load(from: seed(user: user))
            #expect(throws: EmulatorError.self, "\(user)") { try EmulatorRouter(seed: loaded) }
        }
        var noPassword = Seed.demo
        noPassword.users[1].firstFactors = [.password] // grace has no password
        #expect(throws: EmulatorError.self) { try EmulatorRouter(seed: noPassword) }
    }

    @Test func usersAddedByTheHookTakeTheV2Fields() throws {
        let h = try H()
        let added = h.hook(
            "POST", "users",
            json: ["username": "lin@example.com", "password": "Lin-Password-2024", "first_factors": ["email", "password"]])
        #expect(added.status == 201)
        #expect(C(h).start("lin@example.com").methods.map { $0["type"] as? String } == ["email", "password"])
        #expect(h.hook("POST", "users", json: ["username": "max@example.com", "first_factors": ["password"]]).status == 400)
        #expect(h.hook("POST", "users", json: ["username": "may@example.com", "browser_only": true]).status == 201)
        #expect(C(h).start("may@example.com").state == "webFallbackRequired")
    }
}
