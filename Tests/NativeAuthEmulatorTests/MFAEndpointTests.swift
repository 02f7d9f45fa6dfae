import Foundation
import TestSupport
import Testing

@testable import NativeAuthEmulator

@Suite struct MFAEndpointTests {
    typealias H = EmulatorHarness

    private func claims(_ token: Any?, _ h: H) throws -> [String: Any] {
        try JWT.verify(try #require(token as? String), keys: h.router.keys)
    }

    @Test func theDemoSeedHasAnMFAUserAndAJITUser() throws {
        let alan = try #require(Seed.demo.users.first { $0.username == H.alan })
        #expect(alan.mfaRequired && alan.objectId == "a1a1a1a1-0000-4000-8000-000000000003")
        #expect(alan.strongAuthMethods.map(\.id) == [H.alanEmailMethod, H.alanSMSMethod])
        #expect(alan.strongAuthMethods.map(\.target) == ["alan.backup@example.net", "+15550100"])
        let katherine = try #require(Seed.demo.users.first { $0.username == H.katherine })
        #expect(katherine.mfaRequired && katherine.strongAuthMethods.isEmpty)
        #expect(Seed.demo.apps.allSatisfy { $0.mfaPolicy == .off && $0.blockedContacts == ["+15550199"] })
    }

    @Test func seedFieldsDecodeWithDefaults() throws {
        let json = #"""
            {"tenant": {"subdomain": "x", "id": "t"},
             "apps": [{"client_id": "a", "mfa_policy": "required", "blocked_contacts": ["+15550199"]}, {"client_id": "b"}],
             "users": [{"username": "u@example.com", "mfa_required": true,
                        "strong_auth_methods": [{"id": "m1", "channel": "sms", "target": "+15550100", "blocked": true},
                                                {"id": "m2", "channel": "email", "target": "v@example.net"}]},
                       {"username": "w@example.com"}],
             "apis": []}
            """#
        let seed = try Seed.load(from: Data(json.utf8))
        #expect(seed.apps[0].mfaPolicy == .required && seed.apps[0].blockedContacts == ["+15550199"])
        #expect(seed.apps[1].mfaPolicy == .off && seed.apps[1].blockedContacts.isEmpty)
        #expect(seed.users[0].mfaRequired && seed.users[0].strongAuthMethods.count == 2)
        #expect(seed.users[0].strongAuthMethods[0].blocked && !seed.users[0].strongAuthMethods[1].blocked)
        #expect(!seed.users[1].mfaRequired && seed.users[1].strongAuthMethods.isEmpty)
        #expect(throws: EmulatorError.self) {
            try Seed.load(from: Data(json.replacingOccurrences(of: #""channel": "sms""#, with: #""channel": "fax""#).utf8))
        }
        // A method whose target does not fit its channel is refused at start.
        var bad = Seed.demo
        bad.users[2].strongAuthMethods[1].target = "not-a-phone"
        #expect(throws: EmulatorError.self) { try EmulatorRouter(seed: bad) }
        bad = Seed.demo
        bad.users[2].strongAuthMethods[1].id = H.alanEmailMethod
        #expect(throws: EmulatorError.self) { try EmulatorRouter(seed: bad) }
    }

    @Test func withTheCapabilityAnMFAUserGetsMFARequired() throws {
        let h = try H()
        let reply = try h.passwordFirstFactor(H.alan, password: H.alanPassword)
        #expect(reply.status == 400 && reply.error == "invalid_grant" && reply.suberror == "mfa_required")
        #expect(reply.codes == [50076] && reply.token != nil)
        #expect((reply["error_description"] as? String)?.hasPrefix("AADSTS50076: ") == true)
        for key in ["timestamp", "trace_id", "correlation_id"] { #expect(reply[key] != nil, "\(key)") }
        #expect(reply["access_token"] == nil)
    }

    @Test func withoutTheCapabilityTheServiceRedirects() throws {
        let h = try H()
        for capabilities in [nil, "registration_required", "something_else"] {
            let reply = try h.passwordFirstFactor(H.alan, password: H.alanPassword, capabilities: capabilities)
            #expect(reply.status == 200, "\(capabilities ?? "none")")
            #expect(reply["challenge_type"] as? String == "redirect")
            #expect(reply["redirect_reason"] as? String == "Client is missing the mfa_required capability")
            #expect(reply["access_token"] == nil)
        }
        let jit = try h.passwordFirstFactor(H.katherine, password: H.katherinePassword, capabilities: "mfa_required")
        #expect(jit.status == 200 && jit["redirect_reason"] as? String == "Client is missing the registration_required capability")
    }

    @Test func capabilitiesUnderEitherNameSplitOnSpacesAndCommas() throws {
        let h = try H()
        for (name, value) in [("capabilities", "registration_required,mfa_required"), ("capability", "foo, mfa_required")] {
            let initiated = h.post("/oauth2/v2.0/initiate", ["username": H.alan, "challenge_type": H.all, name: value])
            let challenged = h.challenge(initiated.token)
            let reply = h.passwordGrant(try #require(challenged.token), username: H.alan, password: H.alanPassword)
            #expect(reply.suberror == "mfa_required", "\(name)=\(value)")
        }
    }

    @Test func usersWithoutMFAAreUnaffected() throws {
        let h = try H()
        let reply = try h.passwordFirstFactor(H.ada, password: H.adaPassword)
        #expect(reply.status == 200 && reply["access_token"] != nil)
    }

    @Test func theAppPolicyRequiresMFAForEveryUser() throws {
        var seed = Seed.demo
        seed.apps[0].mfaPolicy = .required
        let h = try H(seed: seed)
        let ada = try h.passwordFirstFactor(H.ada, password: H.adaPassword)
        #expect(ada.error == "invalid_grant" && ada.suberror == "registration_required" && ada.codes == [50079])
        #expect((ada["error_description"] as? String)?.hasPrefix("AADSTS50079: ") == true)
        // The other app's policy is off.
        let code = h.challenge(h.initiate(H.grace, clientId: H.codeApp).token, clientId: H.codeApp)
        let grace = h.post(
            "/oauth2/v2.0/token",
            ["continuation_token": code.token, "grant_type": "oob", "oob": h.lastCode(H.grace), "scope": "openid"],
            clientId: H.codeApp)
        #expect(grace.status == 200)
    }

    @Test func introspectListsTheMethodsMasked() throws {
        let h = try H()
        let tm = try h.alanMFAToken()
        let reply = h.introspect(tm)
        #expect(reply.status == 200 && reply.token != nil && reply.token != tm)
        let methods = try #require(reply["methods"] as? [[String: String]])
        #expect(methods.count == 2)
        #expect(
            methods[0] == [
                "id": H.alanEmailMethod, "challenge_type": "oob", "challenge_channel": "email", "login_hint": "a*********p@e*****e.net",
            ])
        #expect(methods[1] == ["id": H.alanSMSMethod, "challenge_type": "oob", "challenge_channel": "sms", "login_hint": "+*******0100"])
        // The mfa_required token moved on.
        #expect(h.introspect(tm).codes == [55200])
    }

    @Test func challengeWithIdSendsACodeToThatMethod() throws {
        let h = try H()
        let ti = try #require(h.introspect(try h.alanMFAToken()).token)
        let reply = h.mfaChallenge(ti, id: H.alanSMSMethod)
        #expect(reply.status == 200 && reply.token != nil)
        #expect(reply["challenge_type"] as? String == "oob" && reply["binding_method"] as? String == "prompt")
        #expect(reply["challenge_channel"] as? String == "sms" && reply["challenge_target_label"] as? String == "+*******0100")
        #expect(reply["code_length"] as? Int == 8 && reply["interval"] as? Int == 300)
        let mail = try #require(h.lastMail(H.alan))
        #expect(mail["purpose"] as? String == "mfa" && mail["channel"] as? String == "sms" && mail["target"] as? String == "+15550100")
        #expect(mail["to"] as? String == H.alan)
        #expect((mail["code"] as? String)?.count == 8)

        // The email method, with no challenge_type at all (the docs' request).
        let email = h.mfaChallenge(reply.token, id: H.alanEmailMethod, types: nil)
        #expect(email.status == 200 && email["challenge_channel"] as? String == "email")
        #expect(email["challenge_target_label"] as? String == "a*********p@e*****e.net")
        #expect(h.lastMail(H.alan)?["target"] as? String == "alan.backup@example.net")
        #expect(h.lastMail(H.alan)?["channel"] as? String == "email")
    }

    @Test func wrongCodeKeepsTheTokenThenTheRightCodeGivesVerifiedTokens() throws {
        let h = try H()
        let tc = try #require(h.mfaChallenge(h.introspect(try h.alanMFAToken()).token, id: H.alanSMSMethod).token)
        let code = try #require(h.lastCode(H.alan))
        let wrong = h.mfaGrant(tc, code: code == "00000000" ? "11111111" : "00000000")
        #expect(wrong.status == 400 && wrong.error == "invalid_grant" && wrong.suberror == "invalid_oob_value" && wrong.codes == [50181])
        let right = h.mfaGrant(tc, code: code)
        #expect(right.status == 200, "\(right.json)")
        let id = try claims(right["id_token"], h)
        #expect(id["preferred_username"] as? String == H.alan && id["oid"] as? String == "a1a1a1a1-0000-4000-8000-000000000003")
        #expect(id["name"] as? String == "Alan Turing" && id["aud"] as? String == H.passwordApp && id["iss"] as? String == h.router.issuer)
        let access = try claims(right["access_token"], h)
        #expect(access["azp"] as? String == H.passwordApp && access["oid"] as? String == id["oid"] as? String)
        #expect(right["refresh_token"] != nil && right["client_info"] != nil)
        // The flow is over.
        #expect(h.mfaGrant(tc, code: code).status == 400)
    }

    @Test func theDocsOOBGrantAndAnOptionalChallengeTypeCompleteMFATooButAnMFACodeIsNoFirstFactor() throws {
        let h = try H()
        let tc = try #require(h.mfaChallenge(h.introspect(try h.alanMFAToken()).token, id: H.alanEmailMethod).token)
        let code = try #require(h.lastCode(H.alan))
        #expect(h.mfaGrant(tc, code: code, grantType: "oob").status == 200)

        let again = try #require(h.mfaChallenge(h.introspect(try h.alanMFAToken()).token, id: H.alanEmailMethod).token)
        let reply = h.post(
            "/oauth2/v2.0/token",
            ["continuation_token": again, "grant_type": "mfa_oob", "oob": h.lastCode(H.alan), "challenge_type": "oob", "scope": "openid"])
        #expect(reply.status == 200)

        // A first-factor code token is not an MFA token.
        let first = h.challenge(h.initiate(H.grace, clientId: H.codeApp).token, clientId: H.codeApp)
        let misuse = h.mfaGrant(first.token, code: try #require(h.lastCode(H.grace)), clientId: H.codeApp)
        #expect(misuse.error == "invalid_request" && misuse.codes == [901007])
    }

    @Test func resendSendsANewCodeAndTheOldOneStopsWorking() throws {
        let h = try H()
        let tc1 = try #require(h.mfaChallenge(h.introspect(try h.alanMFAToken()).token, id: H.alanSMSMethod).token)
        let code1 = try #require(h.lastCode(H.alan))
        let tc2 = try #require(h.mfaChallenge(tc1, id: H.alanSMSMethod).token)
        let code2 = try #require(h.lastCode(H.alan))
        #expect(h.hook("GET", "mailbox", query: ["username": H.alan]).list.count == 2)
        if code1 != code2 {
            #expect(h.mfaGrant(tc2, code: code1).suberror == "invalid_oob_value", "the previous code is retired")
        }
        // The resend stays on the code step, so the token of the state that asked for it still
        // works (MSAL's end-to-end tests rely on it): the new code redeems with either token.
        #expect(h.mfaGrant(tc1, code: code2).status == 200)
    }

    @Test func theResendingTokenAndTheNewOneBothTakeTheNewCode() throws {
        let h = try H()
        let tc1 = try #require(h.mfaChallenge(h.introspect(try h.alanMFAToken()).token, id: H.alanSMSMethod).token)
        let tc2 = try #require(h.mfaChallenge(tc1, id: H.alanSMSMethod).token)
        #expect(h.mfaGrant(tc2, code: try #require(h.lastCode(H.alan))).status == 200)
    }

    @Test func theAttemptLimitEndsTheFlow() throws {
        let h = try H { $0.maxCodeAttempts = 3 }
        let tc = try #require(h.mfaChallenge(h.introspect(try h.alanMFAToken()).token, id: H.alanSMSMethod).token)
        let code = try #require(h.lastCode(H.alan))
        let wrong = code == "12345678" ? "87654321" : "12345678"
        for _ in 0..<3 { #expect(h.mfaGrant(tc, code: wrong).suberror == "invalid_oob_value") }
        let after = h.mfaGrant(tc, code: code)
        #expect(after.status == 400 && after.error == "invalid_grant" && after.suberror == nil)
    }

    @Test func mfaCodesExpire() throws {
        let h = try H { $0.codeLifetime = 60 }
        let tc = try #require(h.mfaChallenge(h.introspect(try h.alanMFAToken()).token, id: H.alanSMSMethod).token)
        let code = try #require(h.lastCode(H.alan))
        h.advanceClock(61)
        #expect(h.mfaGrant(tc, code: code).suberror == "invalid_oob_value")
    }

    @Test func aBlockedMethodIsRefusedAndTheTokenStaysUsable() throws {
        var seed = Seed.demo
        seed.users[2].strongAuthMethods[1].blocked = true
        let h = try H(seed: seed)
        let ti = try #require(h.introspect(try h.alanMFAToken()).token)
        let blocked = h.mfaChallenge(ti, id: H.alanSMSMethod)
        #expect(blocked.status == 400 && blocked.error == "access_denied" && blocked.suberror == "provider_blocked_by_rep")
        #expect(blocked.codes == [550024])
        #expect(h.hook("GET", "mailbox", query: ["username": H.alan]).list.isEmpty, "nothing is sent to a blocked method")
        let other = h.mfaChallenge(ti, id: H.alanEmailMethod)
        #expect(other.status == 200)
        #expect(h.mfaGrant(other.token, code: try #require(h.lastCode(H.alan))).status == 200)
    }

    @Test func unknownIdAndIdWithAFirstFactorTokenAreInvalidRequests() throws {
        let h = try H()
        let ti = try #require(h.introspect(try h.alanMFAToken()).token)
        let unknown = h.mfaChallenge(ti, id: "00000000-0000-0000-0000-000000000000")
        #expect(unknown.status == 400 && unknown.error == "invalid_request" && unknown.codes == [90100])
        #expect(h.mfaChallenge(ti, id: H.alanEmailMethod.uppercased()).status == 200, "the token survived; ids compare case-insensitively")

        let t0 = try #require(h.initiate(H.alan).token)
        let firstFactor = h.mfaChallenge(t0, id: H.alanEmailMethod)
        #expect(firstFactor.error == "invalid_request" && firstFactor.codes == [901007])
        #expect(h.challenge(t0)["challenge_type"] as? String == "password", "and that token still works for its own step")
    }

    @Test func tokensOfTheWrongStepOrExpiredAreRefused() throws {
        let h = try H()
        let tm = try h.alanMFAToken()
        // The mfa_required token is for introspect only.
        #expect(h.mfaChallenge(tm, id: H.alanEmailMethod).codes == [901007])
        #expect(h.mfaGrant(tm, code: "12345678").codes == [901007])
        let ti = try #require(h.introspect(tm).token)
        #expect(h.introspect(ti).codes == [901007])
        #expect(h.challenge(ti).codes == [901007], "an MFA token without id is no first-factor token")
        #expect(h.mfaGrant(ti, code: "12345678").codes == [901007])
        #expect(h.post("/register/v1.0/introspect", ["continuation_token": ti]).codes == [901007])
        // Another client's token is unknown to it.
        #expect(h.introspect(try h.alanMFAToken(), clientId: H.codeApp).codes == [55200])
        #expect(h.introspect("not-a-token").error == "invalid_request")

        let fresh = try h.alanMFAToken()
        let ti2 = try #require(h.introspect(try h.alanMFAToken()).token)
        h.advanceClock(601)
        let expired = h.introspect(fresh)
        #expect(expired.error == "expired_token" && expired.codes == [552003])
        #expect(h.mfaChallenge(ti2, id: H.alanEmailMethod).codes == [552003])
    }

    @Test func theNextSignInAfterMFAAsksAgain() throws {
        let h = try H()
        let tc = try #require(h.mfaChallenge(h.introspect(try h.alanMFAToken()).token, id: H.alanEmailMethod).token)
        #expect(h.mfaGrant(tc, code: try #require(h.lastCode(H.alan))).status == 200)
        #expect(try h.passwordFirstFactor(H.alan, password: H.alanPassword).suberror == "mfa_required")
        // A wrong password never reaches MFA.
        let wrong = try h.passwordFirstFactor(H.alan, password: "Wrong-Password-1")
        #expect(wrong.codes == [50126] && wrong.suberror == nil)
    }

    @Test func anEmailCodeFirstFactorAlsoLeadsToMFA() throws {
        let h = try H()
        let added = h.hook(
            "POST", "users",
            json: [
                "username": "otp.mfa@example.com", "mfa_required": true,
                "strong_auth_methods": [["id": "m-1", "channel": "sms", "target": "+44 20 7946 0000"]],
            ])
        #expect(added.status == 201)
        let initiated = h.post(
            "/oauth2/v2.0/initiate", ["username": "otp.mfa@example.com", "challenge_type": H.all, "capabilities": "mfa_required"],
            clientId: H.codeApp)
        let challenged = h.challenge(initiated.token, clientId: H.codeApp)
        #expect(challenged["challenge_type"] as? String == "oob")
        let first = h.post(
            "/oauth2/v2.0/token",
            ["continuation_token": challenged.token, "grant_type": "oob", "oob": h.lastCode("otp.mfa@example.com"), "scope": "openid"],
            clientId: H.codeApp)
        #expect(first.suberror == "mfa_required", "\(first.json)")
        let methods = h.introspect(first.token, clientId: H.codeApp)["methods"] as? [[String: String]]
        #expect(methods?.first?["login_hint"] == "+*******0000")
        // The add-user hook validates methods.
        let bad = h.hook(
            "POST", "users",
            json: ["username": "bad@example.com", "strong_auth_methods": [["id": "x", "channel": "email", "target": "+15550100"]]])
        #expect(bad.status == 400)
    }

    @Test func signInAfterResetUsesTheResetFlowsCapabilities() throws {
        let h = try H()
        func reset(capabilities: String?, newPassword: String) throws -> H.Reply {
            let start = h.post(
                "/resetpassword/v1.0/start", ["username": H.alan, "challenge_type": "oob redirect", "capabilities": capabilities])
            let challenge = h.post("/resetpassword/v1.0/challenge", ["continuation_token": start.token, "challenge_type": "oob redirect"])
            let verified = h.post(
                "/resetpassword/v1.0/continue",
                ["continuation_token": challenge.token, "grant_type": "oob", "oob": h.lastCode(H.alan)])
            let submit = h.post("/resetpassword/v1.0/submit", ["continuation_token": verified.token, "new_password": newPassword])
            let done = h.post("/resetpassword/v1.0/poll_completion", ["continuation_token": submit.token])
            try #require(done["status"] as? String == "succeeded", "\(done.json)")
            return h.post(
                "/oauth2/v2.0/token",
                [
                    "continuation_token": done.token, "grant_type": "continuation_token", "username": H.alan,
                    "scope": "openid profile offline_access", "challenge_type": H.all, "client_info": "true",
                ])
        }
        let withCapability = try reset(capabilities: "mfa_required", newPassword: "Enigma-Broken-1941")
        #expect(withCapability.suberror == "mfa_required" && withCapability.codes == [50076])
        let mail = h.hook("GET", "mailbox", query: ["username": H.alan]).list
        #expect(mail.last?["purpose"] as? String == "reset_password" && mail.last?["channel"] as? String == "email")
        #expect(mail.last?["target"] as? String == H.alan)
        let tc = h.mfaChallenge(h.introspect(withCapability.token).token, id: H.alanSMSMethod)
        #expect(h.mfaGrant(tc.token, code: try #require(h.lastCode(H.alan))).status == 200)

        let without = try reset(capabilities: nil, newPassword: "Bletchley-Park-1939")
        #expect(without.status == 200 && without["challenge_type"] as? String == "redirect")
    }

    @Test func faultsAndTheRequestLogCoverTheNewEndpoints() throws {
        let h = try H()
        let tm = try h.alanMFAToken()
        _ = h.hook("POST", "faults", json: [["endpoint": "/oauth2/v2.0/introspect", "status": 503]])
        #expect(h.introspect(tm).status == 503)
        let ti = h.introspect(tm).token
        let tc = h.mfaChallenge(ti, id: H.alanSMSMethod).token
        let code = try #require(h.lastCode(H.alan))
        #expect(h.mfaGrant(tc, code: code).status == 200)
        let log = h.hook("GET", "requests").list
        let introspects = log.filter { $0["endpoint"] as? String == "/oauth2/v2.0/introspect" }
        #expect(introspects.count == 1 && introspects[0]["status"] as? Int == 200, "the faulted request never reached the endpoint")
        let grant = try #require(log.last?["fields"] as? [String: String])
        #expect(grant["grant_type"] == "mfa_oob" && grant["oob"] == "<redacted>" && grant["continuation_token"] == "<redacted>")
        #expect(!String(decoding: h.hook("GET", "requests").body, as: UTF8.self).contains(code))
    }
}
