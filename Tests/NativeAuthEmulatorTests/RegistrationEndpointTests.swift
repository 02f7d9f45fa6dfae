import Foundation
import TestSupport
import Testing

@testable import NativeAuthEmulator

/// Just-in-time strong-auth registration: `/register/v1.0/*` and the sign-in that follows (docs/protocol.md#registration-endpoints,
/// #strong-auth-registration).
@Suite struct RegistrationEndpointTests {
    typealias H = EmulatorHarness

    /// Katherine's password sign-in up to the `registration_required` token.
    private func registrationToken(_ h: H) throws -> String {
        let reply = try h.passwordFirstFactor(H.katherine, password: H.katherinePassword)
        try #require(reply.suberror == "registration_required", "\(reply.json)")
        return try #require(reply.token)
    }

    /// Up to the register/introspect token.
    private func introspected(_ h: H) throws -> String {
        try #require(h.post("/register/v1.0/introspect", ["continuation_token": try registrationToken(h)]).token)
    }

    private func challenge(_ h: H, _ token: String?, _ contact: String?, channel: String? = "sms", type: String? = "oob") -> H.Reply {
        h.post(
            "/register/v1.0/challenge",
            ["continuation_token": token, "challenge_type": type, "challenge_target": contact, "challenge_channel": channel])
    }

    private func proveCode(_ h: H, _ token: String?, _ code: String?) -> H.Reply {
        h.post("/register/v1.0/continue", ["continuation_token": token, "grant_type": "oob", "oob": code])
    }

    /// The SDK's sign-in after registration: no username, only the OIDC scopes.
    private func signInAfterRegistration(_ h: H, _ token: String?) -> H.Reply {
        h.post(
            "/oauth2/v2.0/token",
            [
                "continuation_token": token, "grant_type": "continuation_token", "scope": "openid profile offline_access",
                "challenge_type": H.all, "client_info": "true",
            ])
    }

    @Test func registrationRequiredThenIntrospect() throws {
        let h = try H()
        let first = try h.passwordFirstFactor(H.katherine, password: H.katherinePassword)
        #expect(first.status == 400 && first.error == "invalid_grant" && first.codes == [50079] && first.token != nil)
        let reply = h.post("/register/v1.0/introspect", ["continuation_token": first.token])
        #expect(reply.status == 200 && reply.token != nil)
        let methods = try #require(reply["methods"] as? [[String: String]])
        #expect(
            methods == [
                ["id": "email", "challenge_type": "oob", "challenge_channel": "email", "login_hint": "k*******e@e*****e.com"],
                ["id": "sms", "challenge_type": "oob", "challenge_channel": "sms"],
            ])
    }

    @Test func theSignInAddressIsPreverified() throws {
        let h = try H()
        let tj = try introspected(h)
        let reply = challenge(h, tj, "Katherine@Example.com", channel: "email")
        #expect(reply.status == 200 && reply.json.keys.sorted() == ["challenge_type", "continuation_token"])
        #expect(reply["challenge_type"] as? String == "preverified")
        #expect(h.hook("GET", "mailbox", query: ["username": H.katherine]).list.isEmpty, "no code for a preverified contact")
        // Preverified: no code to submit.
        #expect(proveCode(h, reply.token, "12345678").error == "invalid_grant")
        let done = h.post("/register/v1.0/continue", ["continuation_token": reply.token, "grant_type": "continuation_token"])
        #expect(done.status == 200 && done.json.keys.sorted() == ["continuation_token"])
        let tokens = signInAfterRegistration(h, done.token)
        #expect(tokens.status == 200, "\(tokens.json)")
        let id = try JWT.verify(try #require(tokens["id_token"] as? String), keys: h.router.keys)
        #expect(id["preferred_username"] as? String == H.katherine && id["name"] as? String == "Katherine Johnson")
        #expect(tokens["refresh_token"] != nil && tokens["client_info"] != nil)

        // The next sign-in needs MFA, with the registered address.
        let next = try h.passwordFirstFactor(H.katherine, password: H.katherinePassword)
        #expect(next.suberror == "mfa_required")
        let methods = try #require(h.introspect(next.token)["methods"] as? [[String: String]])
        #expect(methods.count == 1 && methods[0]["challenge_channel"] == "email" && methods[0]["login_hint"] == "k*******e@e*****e.com")
    }

    @Test func aNewContactGetsACodeThenSignsInThenUsesItForMFA() throws {
        let h = try H()
        let tj = try introspected(h)
        let reply = challenge(h, tj, "+1 555-0123")
        #expect(reply.status == 200 && reply["challenge_type"] as? String == "oob" && reply["binding_method"] as? String == "prompt")
        #expect(reply["challenge_target"] as? String == "+1 555-0123", "as typed, not masked")
        #expect(reply["challenge_target_label"] == nil)
        #expect(reply["challenge_channel"] as? String == "sms" && reply["code_length"] as? Int == 8 && reply["interval"] as? Int == 300)
        let mail = try #require(h.lastMail(H.katherine))
        #expect(mail["purpose"] as? String == "registration" && mail["channel"] as? String == "sms")
        #expect(mail["target"] as? String == "+15550123" && mail["to"] as? String == H.katherine)
        let code = try #require(mail["code"] as? String)

        let wrong = proveCode(h, reply.token, code == "00000000" ? "11111111" : "00000000")
        #expect(wrong.error == "invalid_grant" && wrong.suberror == "invalid_oob_value" && wrong.codes == [50181])
        // Not preverified: a continuation_token grant is refused, and the token survives that too.
        let skipped = h.post("/register/v1.0/continue", ["continuation_token": reply.token, "grant_type": "continuation_token"])
        #expect(skipped.status == 400 && skipped.error == "invalid_grant")
        let done = proveCode(h, reply.token, code)
        #expect(done.status == 200 && done.token != nil)
        #expect(signInAfterRegistration(h, done.token).status == 200)
        #expect(signInAfterRegistration(h, done.token).status == 400, "spent")

        let next = try h.passwordFirstFactor(H.katherine, password: H.katherinePassword)
        let methods = try #require(h.introspect(next.token)["methods"] as? [[String: String]])
        #expect(methods.count == 1 && methods[0]["challenge_channel"] == "sms" && methods[0]["login_hint"] == "+*******0123")
    }

    @Test func theRegisteredMethodCompletesMFA() throws {
        let h = try H()
        let tk = challenge(h, try introspected(h), "kj@example.org", channel: "email").token
        #expect(h.lastMail(H.katherine)?["target"] as? String == "kj@example.org")
        let done = proveCode(h, tk, h.lastCode(H.katherine))
        #expect(signInAfterRegistration(h, done.token).status == 200)

        let next = try h.passwordFirstFactor(H.katherine, password: H.katherinePassword)
        let introspect = h.introspect(next.token)
        let method = try #require((introspect["methods"] as? [[String: String]])?.first)
        #expect(method["login_hint"] == "**@e*****e.org" && method["challenge_channel"] == "email")
        let id = try #require(method["id"])
        let tc = h.mfaChallenge(introspect.token, id: id)
        #expect(tc["challenge_target_label"] as? String == "**@e*****e.org")
        #expect(h.lastMail(H.katherine)?["purpose"] as? String == "mfa")
        #expect(h.mfaGrant(tc.token, code: try #require(h.lastCode(H.katherine))).status == 200)
    }

    @Test func invalidContactsAreRefusedAndTheTokenSurvives() throws {
        let h = try H()
        let tj = try introspected(h)
        let cases: [(String?, String)] = [
            ("not-an-email", "email"), ("+15550100", "email"), ("", "email"), (nil, "email"),
            ("5550100", "sms"), ("+1234567", "sms"), ("+1234567890123456", "sms"), ("+1555abc0100", "sms"), ("", "sms"),
            ("kj@example.org", "sms"), ("+1 (555) 0100", "sms"),
        ]
        for (contact, channel) in cases {
            let reply = challenge(h, tj, contact, channel: channel)
            #expect(reply.status == 400 && reply.error == "invalid_request" && reply.codes == [901001], "\(contact ?? "nil") \(channel)")
        }
        #expect(challenge(h, tj, "x@example.com", channel: "fax").codes == [90100])
        #expect(challenge(h, tj, "x@example.com", channel: "email", type: "password redirect").error == "unsupported_challenge_type")
        #expect(h.hook("GET", "mailbox", query: ["username": H.katherine]).list.isEmpty)
        // Eight and fifteen digits are the bounds.
        #expect(challenge(h, tj, "+12345678").status == 200)
    }

    @Test func aBlockedContactIsRefused() throws {
        let h = try H()
        let tj = try introspected(h)
        for contact in ["+15550199", "+1 555-0199"] {
            let reply = challenge(h, tj, contact)
            #expect(reply.status == 400 && reply.error == "access_denied" && reply.suberror == "provider_blocked_by_rep")
            #expect(reply.codes == [550024])
        }
        var seed = Seed.demo
        seed.apps[0].blockedContacts = ["Blocked@Example.org"]
        let other = try H(seed: seed)
        #expect(challenge(other, try introspected(other), "blocked@example.org", channel: "email").codes == [550024])
        #expect(challenge(h, tj, "+15550100").status == 200, "the token survived the refusals")
    }

    @Test func anotherChallengeResendsAndRetiresTheOldCode() throws {
        let h = try H()
        let tk1 = challenge(h, try introspected(h), "+15550123").token
        let code1 = try #require(h.lastCode(H.katherine))
        let tk2 = challenge(h, tk1, "+15550123").token
        let code2 = try #require(h.lastCode(H.katherine))
        if code1 != code2 { #expect(proveCode(h, tk2, code1).suberror == "invalid_oob_value", "the earlier code is retired") }
        // Another challenge stays on the same step: the earlier token takes the new code too.
        #expect(proveCode(h, tk1, code2).status == 200)
    }

    @Test func theAttemptLimitEndsRegistration() throws {
        let h = try H { $0.maxCodeAttempts = 2 }
        let tk = challenge(h, try introspected(h), "+15550123").token
        let code = try #require(h.lastCode(H.katherine))
        let wrong = code == "12345678" ? "87654321" : "12345678"
        _ = proveCode(h, tk, wrong)
        _ = proveCode(h, tk, wrong)
        #expect(proveCode(h, tk, code).status == 400)
    }

    @Test func expiredTokensOnRegisterEndpointsAnswer55112() throws {
        let h = try H()
        let tr = try registrationToken(h)
        let tj = try introspected(h)
        let tk = challenge(h, try introspected(h), "+15550123").token
        h.advanceClock(601)
        for (endpoint, token) in [("/register/v1.0/introspect", tr), ("/register/v1.0/challenge", tj), ("/register/v1.0/continue", tk)] {
            let reply = h.post(
                endpoint,
                [
                    "continuation_token": token, "challenge_type": "oob", "challenge_target": "+15550123", "challenge_channel": "sms",
                    "grant_type": "oob", "oob": "12345678",
                ])
            #expect(reply.error == "expired_token" && reply.codes == [55112], "\(endpoint)")
        }
    }

    @Test func tokensOfTheWrongStepAreRefused() throws {
        let h = try H()
        let tr = try registrationToken(h)
        #expect(challenge(h, tr, "+15550123").codes == [901007])
        #expect(h.introspect(tr).codes == [901007], "a registration token is no MFA token")
        #expect(signInAfterRegistration(h, tr).codes == [901007])
        let tj = try #require(h.post("/register/v1.0/introspect", ["continuation_token": tr]).token)
        #expect(h.post("/register/v1.0/continue", ["continuation_token": tj, "grant_type": "oob", "oob": "1"]).codes == [901007])
        let tk = challenge(h, tj, H.katherine, channel: "email").token
        let tz = h.post("/register/v1.0/continue", ["continuation_token": tk, "grant_type": "continuation_token"]).token
        #expect(h.post("/register/v1.0/continue", ["continuation_token": tz, "grant_type": "continuation_token"]).codes == [901007])
        #expect(h.post("/register/v1.0/introspect", ["continuation_token": "nope"]).codes == [55200])
        #expect(h.post("/register/v1.0/continue", ["continuation_token": tk, "grant_type": "password"]).error == "unsupported_grant_type")
        #expect(signInAfterRegistration(h, tz).status == 200)
    }

    @Test func signUpUnderAnMFAPolicyRegistersAMethodFirst() throws {
        var seed = Seed.demo
        seed.apps[0].mfaPolicy = .required
        let h = try H(seed: seed)
        let newUser = "mfa.new@example.com"
        func signUp(capabilities: String?) throws -> H.Reply {
            let start = h.post(
                "/signup/v1.0/start",
                [
                    "username": newUser, "password": "Fresh-Start-2026", "attributes": #"{"displayName":"New"}"#,
                    "challenge_type": H.all, "capabilities": capabilities,
                ])
            let challenged = h.post("/signup/v1.0/challenge", ["continuation_token": start.token, "challenge_type": H.all])
            let done = h.post(
                "/signup/v1.0/continue",
                ["continuation_token": challenged.token, "grant_type": "oob", "oob": h.lastCode(newUser)])
            try #require(done.status == 200, "\(done.json)")
            return h.post(
                "/oauth2/v2.0/token",
                [
                    "continuation_token": done.token, "grant_type": "continuation_token", "username": newUser,
                    "scope": "openid profile offline_access", "challenge_type": H.all, "client_info": "true",
                ])
        }
        let without = try signUp(capabilities: nil)
        #expect(without.status == 200 && without["redirect_reason"] as? String == "Client is missing the registration_required capability")
        _ = h.hook("DELETE", "users", query: ["username": newUser])

        let with = try signUp(capabilities: "registration_required")
        #expect(with.suberror == "registration_required")
        let tj = h.post("/register/v1.0/introspect", ["continuation_token": with.token]).token
        let tk = challenge(h, tj, newUser, channel: "email")
        #expect(tk["challenge_type"] as? String == "preverified")
        let tz = h.post("/register/v1.0/continue", ["continuation_token": tk.token, "grant_type": "continuation_token"]).token
        #expect(signInAfterRegistration(h, tz).status == 200)
        // Registration proved the second factor this time; next time MFA is asked for.
        let next = try h.passwordFirstFactor(newUser, password: "Fresh-Start-2026")
        #expect(next.suberror == "mfa_required")
    }

    @Test func theRequestLogShowsTheContactOnlyMasked() throws {
        let h = try H()
        let tk1 = challenge(h, try introspected(h), "+1 555-0123").token
        let tk2 = challenge(h, tk1, "kj@example.org", channel: "email").token
        let body = String(decoding: h.hook("GET", "requests").body, as: UTF8.self)
        #expect(!body.contains("555-0123") && !body.contains("kj@example.org"))
        let fields = h.hook("GET", "requests").list.filter { $0["endpoint"] as? String == "/register/v1.0/challenge" }
            .compactMap { ($0["fields"] as? [String: String])?["challenge_target"] }
        #expect(fields == ["+*******0123", "**@e*****e.org"])
        let code = try #require(h.lastCode(H.katherine))
        _ = proveCode(h, tk2, code)
        #expect(!String(decoding: h.hook("GET", "requests").body, as: UTF8.self).contains(code))
    }
}
