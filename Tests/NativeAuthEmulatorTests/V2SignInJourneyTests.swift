import Foundation
import TestSupport
import Testing

@testable import NativeAuthEmulator

/// Native auth V2 sign-in journeys end to end at the HTTP level (docs/protocol.md#native-auth-v2-experimental):
/// entry, interaction, resume, token exchange and a refresh with the V1 refresh grant.
@Suite struct V2SignInJourneyTests {
    typealias H = EmulatorHarness
    typealias C = V2TestClient

    private func claims(_ token: Any?, _ h: H) throws -> [String: Any] {
        try JWT.verify(try #require(token as? String), keys: h.router.keys)
    }

    /// A refresh with the V1 grant works with a V2 refresh token.
    private func refreshes(_ tokens: H.Reply, _ h: H) -> Bool {
        let refreshed = h.post(
            "/oauth2/v2.0/token",
            ["grant_type": "refresh_token", "refresh_token": tokens["refresh_token"] as? String, "scope": C.scope, "client_info": "1"])
        return refreshed.status == 200 && refreshed["access_token"] != nil
    }

    @Test func theEntryAnswers401WithATokenAndTheJourneyLinksUnderTheTenantSegmentUsed() throws {
        let h = try H()
        for tenant in ["emulator.onmicrosoft.com", h.router.seed.tenant.id, "emulator"] {
            let entry = C(h, tenant: tenant).entry()
            #expect(entry.status == 401 && entry.error == "InsufficientAuthorization", "\(entry.json)")
            #expect(entry["error_description"] != nil)
            #expect(entry.headers["Content-Type"]?.hasPrefix("application/json") == true)
            let token = try #require(entry.token)
            #expect(
                Data(base64Encoded: token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "=")?.count
                    == 32)
            #expect(entry["sign_in"] as? String == "/\(tenant)/api/v2.0/signin/start")
            #expect(entry["sign_up"] as? String == "/\(tenant)/api/v2.0/signup/start")
            #expect(entry["reset_password"] as? String == "/\(tenant)/api/v2.0/resetpassword/start")
            #expect(entry.link("signIn") == "/\(tenant)/api/v2.0/signin/start")
            #expect(entry.link("signUp") == "/\(tenant)/api/v2.0/signup/start")
            #expect(entry.link("resetPassword") == "/\(tenant)/api/v2.0/resetpassword/start")
        }
    }

    @Test func emailCodeSignInWithOneMethod() throws {
        let h = try H()
        let c = C(h)
        let started = c.start(H.grace)
        #expect(started.status == 200 && started.headers["Content-Type"]?.hasPrefix("application/hal+json") == true)
        #expect(started.state == "interactionRequired" && started.action == "challenge" && started["scenario"] as? String == "signin")
        #expect((started["challengeContext"] as? [String: Any])?["authenticationFactor"] as? String == "singleFactor")
        #expect(started.link("self") == "/emulator.onmicrosoft.com/api/v2.0/signin/start")
        #expect(started.methods.count == 1 && started.methods[0]["type"] as? String == "email")
        #expect(started.methods[0]["hint"] as? String == "g****e@e****e")
        let id = try #require(started.methods[0]["id"] as? String)
        #expect(started.methodLink("email", "challenge") == "/emulator.onmicrosoft.com/api/v2.0/auth/methods/email/\(id)/challenge")

        let challenged = c.challenge(started, type: "email")
        #expect(challenged.action == "verify" && challenged["id"] as? String == id && challenged["type"] as? String == "email")
        #expect(challenged["hint"] as? String == "g****e@e****e")
        #expect(challenged["codeLength"] as? Int == 8 && (challenged["payload"] as? [String: Any])?["codeLength"] as? Int == 8)
        #expect(challenged.link("resend") == started.methodLink("email", "challenge"))
        #expect(challenged.ct != started.ct)
        let mail = try #require(c.lastMail(H.grace))
        #expect(mail["purpose"] as? String == "sign_in" && mail["api"] as? String == "v2" && mail["channel"] as? String == "email")
        let code = try #require(mail["code"] as? String)
        #expect(code.count == 8 && code.allSatisfy(\.isNumber))

        let verified = c.verify(challenged, ["otp": code])
        #expect(verified.state == "continue" && verified.action == nil && verified.ct != nil)
        #expect(verified.link("continue") == "/emulator.onmicrosoft.com/oauth2/v2.0/authorize-challenge")
        let tokens = try c.finish(verified)
        #expect(try claims(tokens["id_token"], h)["preferred_username"] as? String == H.grace)
        #expect(refreshes(tokens, h))
    }

    @Test func passwordSignInGivesTheTokenResponseOfV1ForTheSameUser() throws {
        let h = try H()
        let c = C(h)
        let started = c.start(H.ada)
        #expect(started.methods.count == 1 && started.methods[0]["type"] as? String == "password" && started.methods[0]["hint"] == nil)
        let asked = c.challenge(started, type: "password")
        #expect(asked.action == "verify" && asked["type"] as? String == "password" && (asked["payload"] as? [String: Any])?.isEmpty == true)
        let v2 = try c.finish(c.verify(asked, ["password": H.adaPassword]))
        let v1 = try h.signIn()
        #expect(Set(v2.json.keys) == Set(v1.json.keys))
        #expect(v2["client_info"] as? String == v1["client_info"] as? String)
        #expect(v2["scope"] as? String == v1["scope"] as? String)
        let (v2Id, v1Id) = (try claims(v2["id_token"], h), try claims(v1["id_token"], h))
        for claim in ["oid", "sub", "tid", "preferred_username", "email", "name", "aud", "iss"] {
            #expect(v2Id[claim] as? String == v1Id[claim] as? String, "\(claim)")
        }
        #expect(refreshes(v2, h))
        // `client_info=true` (iOS) works as `1` (JS).
        let again = c.resume(c.verify(c.challenge(c.start(H.ada), type: "password"), ["password": H.adaPassword]))
        let withTrue = c.redeem(again["code"] as? String, extra: ["client_info": "true"])
        #expect(withTrue["client_info"] as? String == v1["client_info"] as? String)
    }

    @Test func severalFirstFactorsAreOfferedInSeedOrderAndBothBranchesSignIn() throws {
        let h = try H()
        let c = C(h)
        let started = c.start(C.barbara)
        #expect(started.methods.map { $0["type"] as? String } == ["password", "email"])
        #expect(started.methods[1]["hint"] as? String == "b****a@e****e")
        let byPassword = c.verify(c.challenge(started, type: "password"), ["password": C.barbaraPassword])
        _ = try c.finish(byPassword)

        let again = c.start(C.barbara)
        let byCode = c.challenge(again, type: "email")
        let code = try #require(c.lastMail(C.barbara)?["code"] as? String)
        _ = try c.finish(c.verify(byCode, ["otp": code]))
    }

    /// A list of methods stays usable while one of its methods is being verified (MSAL lets an app pick
    /// again on the same state): after a wrong code the app picks another method, or the same one, with the
    /// list's token; passing the factor retires it.
    @Test func aMethodListIsPickedFromAgainUntilTheFactorIsPassed() throws {
        let h = try H()
        let c = C(h)
        let started = c.start(C.barbara)
        let byPassword = c.challenge(started, type: "password")
        let wrong = c.verify(byPassword, ["password": "not-" + C.barbaraPassword])
        #expect(wrong.status == 400 && wrong.hal.inner == "invalidUserNameOrPassword", "\(wrong.json)")
        let byCode = c.challenge(started, type: "email")
        #expect(byCode.status == 200 && byCode.action == "verify", "\(byCode.json)")
        let code = try #require(c.lastMail(C.barbara)?["code"] as? String)
        let mfaOrDone = c.verify(byCode, ["otp": code])
        #expect(mfaOrDone.status == 200, "\(mfaOrDone.json)")
        // The factor is passed: the first-factor list is retired.
        #expect(c.challenge(started, type: "email").hal.inner == "invalidContinuationToken")
        _ = try c.finish(mfaOrDone)

        let mfa = c.password(H.alan, C.alanPassword)
        let byEmail = c.challenge(mfa, type: "email")
        let wrongCode = c.verify(byEmail, ["otp": "00000000"])
        #expect(wrongCode.status == 400 && wrongCode.hal.inner == "invalidOneTimeCode")
        let bySMS = c.challenge(mfa, type: "sms")
        #expect(bySMS.status == 200 && bySMS.action == "riskverify", "\(bySMS.json)")
        let emailAgain = c.challenge(mfa, type: "email")
        #expect(emailAgain.action == "verify", "\(emailAgain.json)")
        let mfaCode = try #require(c.lastMail(H.alan)?["code"] as? String)
        _ = try c.finish(c.verify(emailAgain, ["otp": mfaCode]))
    }

    @Test func emailMFAWithResend() throws {
        let h = try H()
        let c = C(h)
        let mfa = c.password(H.alan, C.alanPassword)
        #expect(mfa.action == "challenge" && mfa.state == "interactionRequired", "\(mfa.json)")
        #expect((mfa["challengeContext"] as? [String: Any])?["authenticationFactor"] as? String == "multiFactor")
        #expect(mfa.methods.map { $0["id"] as? String } == [H.alanEmailMethod, H.alanSMSMethod])
        #expect(mfa.methods.map { $0["hint"] as? String } == ["a****p@e****e", "+*******0100"])
        let challenged = c.challenge(mfa, type: "email")
        #expect(challenged.action == "verify" && challenged["codeLength"] as? Int == 8)
        let first = try #require(c.lastMail(H.alan))
        #expect(
            first["purpose"] as? String == "mfa" && first["target"] as? String == "alan.backup@example.net"
                && first["api"] as? String == "v2")
        // Resend: the challenge link again with the verify step's token; the first code is retired.
        let resent = c.follow(challenged.link("resend"), ["continuationToken": challenged.ct ?? ""])
        #expect(resent.action == "verify", "\(resent.json)")
        let second = try #require(c.lastMail(H.alan)?["code"] as? String)
        let stale = c.verify(resent, ["otp": first["code"] as? String ?? ""])
        #expect(stale.status == 400 && stale.hal.inner == "invalidOneTimeCode")
        // The token of the state that asked for the resend still works (it is the same step).
        let tokens = try c.finish(c.verify(challenged, ["otp": second]))
        #expect(refreshes(tokens, h))
    }

    @Test func smsMFAGoesThroughOneRiskHopBeforeEverySend() throws {
        let h = try H()
        let c = C(h)
        let mfa = c.password(H.alan, C.alanPassword)
        let hop = c.challenge(mfa, type: "sms")
        #expect(
            hop.action == "riskverify" && hop.link("riskverify") == "/emulator.onmicrosoft.com/api/v2.0/risk/phone/verify", "\(hop.json)")
        #expect(c.lastMail(H.alan) == nil)
        let challenged = c.follow(hop.link("riskverify"), ["continuationToken": hop.ct ?? ""])
        #expect(challenged.action == "verify" && challenged["type"] as? String == "sms" && challenged["hint"] as? String == "+*******0100")
        #expect(challenged["codeLength"] as? Int == 6 && (challenged["payload"] as? [String: Any])?["codeLength"] as? Int == 6)
        let mail = try #require(c.lastMail(H.alan))
        #expect(mail["channel"] as? String == "sms" && mail["target"] as? String == "+15550100" && (mail["code"] as? String)?.count == 6)
        // The hop's token is spent once the code is sent.
        #expect(c.follow(hop.link("riskverify"), ["continuationToken": hop.ct ?? ""]).hal.inner == "invalidContinuationToken")
        // A resend hops again.
        let again = c.follow(challenged.link("resend"), ["continuationToken": challenged.ct ?? ""])
        #expect(again.action == "riskverify")
        let resent = c.follow(again.link("riskverify"), ["continuationToken": again.ct ?? ""])
        let code = try #require(c.lastMail(H.alan)?["code"] as? String)
        _ = try c.finish(c.verify(resent, ["otp": code]))
    }

    @Test func withoutRiskVerificationTheSMSIsSentAtOnce() throws {
        var seed = Seed.demo
        seed.apps[0].smsRiskVerification = .never
        let h = try H(seed: seed)
        let c = C(h)
        #expect(c.challenge(c.password(H.alan, C.alanPassword), type: "sms").action == "verify")
        // The hook overrides the app.
        #expect(h.hook("POST", "v2", json: ["sms_risk_verification": "always"]).status == 200)
        #expect(c.challenge(c.password(H.alan, C.alanPassword), type: "sms").action == "riskverify")
    }

    @Test func aPhoneTheServiceRefusesAtTheRiskHopLeavesTheSelectionUsable() throws {
        var seed = Seed.demo
        seed.users[2].strongAuthMethods[1].target = "+15550199" // in the app's blocked_contacts
        let h = try H(seed: seed)
        let c = C(h)
        let mfa = c.password(H.alan, C.alanPassword)
        let hop = c.challenge(mfa, type: "sms")
        let refused = c.follow(hop.link("riskverify"), ["continuationToken": hop.ct ?? ""])
        #expect(refused.status == 400 && refused.hal.code == "accessDenied" && refused.hal.inner == "providerBlockedByRep")
        #expect(refused.hal.message?.hasPrefix("AADSTS550024:") == true)
        #expect(c.challenge(mfa, type: "email").action == "verify")
    }

    @Test func justInTimeRegistrationOfTheOwnAddressIsPreverifiedAndTheNextSignInAsksMFA() throws {
        let h = try H()
        let c = C(h)
        let register = c.password(H.katherine, C.katherinePassword)
        #expect(register.action == "register", "\(register.json)")
        #expect((register["challengeContext"] as? [String: Any])?["authenticationFactor"] as? String == "multiFactor")
        #expect(register.methods.map { $0["type"] as? String } == ["email", "sms"])
        #expect(register.methodLink("email", "enroll") == "/emulator.onmicrosoft.com/api/v2.0/auth/methods/email/register")
        let done = c.follow(register.methodLink("email", "enroll"), ["continuationToken": register.ct ?? "", "target": H.katherine])
        #expect(done.state == "continue", "\(done.json)")
        #expect(c.lastMail(H.katherine) == nil)
        _ = try c.finish(done)
        let next = c.password(H.katherine, C.katherinePassword)
        #expect(next.action == "challenge" && next.methods.map { $0["hint"] as? String } == ["k****e@e****e"])
    }

    @Test func justInTimeRegistrationOfAPhoneHopsThenActivates() throws {
        let h = try H()
        let c = C(h)
        let register = c.password(H.katherine, C.katherinePassword)
        let hop = c.follow(register.methodLink("sms", "enroll"), ["continuationToken": register.ct ?? "", "target": "+1 555-0123"])
        #expect(hop.action == "riskverify", "\(hop.json)")
        let activate = c.follow(hop.link("riskverify"), ["continuationToken": hop.ct ?? ""])
        #expect(activate.action == "activate" && activate["type"] as? String == "sms" && activate["hint"] as? String == "+*******0123")
        #expect(activate["codeLength"] as? Int == 6 && activate.link("resend")?.hasSuffix("/challenge") == true)
        let mail = try #require(c.lastMail(H.katherine))
        #expect(mail["purpose"] as? String == "registration" && mail["target"] as? String == "+15550123")
        let wrong = c.follow(activate.link("activate"), ["continuationToken": activate.ct ?? "", "code": "000000"])
        #expect(wrong.status == 400 && wrong.hal.inner == "invalidOneTimeCode")
        let done = c.follow(activate.link("activate"), ["continuationToken": activate.ct ?? "", "code": mail["code"] as? String ?? ""])
        _ = try c.finish(done)
        let next = c.password(H.katherine, C.katherinePassword)
        #expect(next.methods.map { $0["hint"] as? String } == ["+*******0123"])
    }

    @Test func justInTimeContactsThatAreMalformedOrBlockedAreRefusedAndTheTokenStaysUsable() throws {
        let h = try H()
        let c = C(h)
        let register = c.password(H.katherine, C.katherinePassword)
        let enroll = register.methodLink("sms", "enroll")
        for bad in ["555", "", "katherine@example.com"] {
            let refused = c.follow(enroll, ["continuationToken": register.ct ?? "", "target": bad])
            #expect(refused.status == 400 && refused.hal.code == "invalidRequest" && refused.hal.inner == "invalidVerificationContact")
            #expect(refused.hal.message?.hasPrefix("AADSTS901001:") == true)
        }
        // The blocked contact: refused at the risk hop…
        let hop = c.follow(enroll, ["continuationToken": register.ct ?? "", "target": "+15550199"])
        let blocked = c.follow(hop.link("riskverify"), ["continuationToken": hop.ct ?? ""])
        #expect(blocked.hal.code == "accessDenied" && blocked.hal.inner == "providerBlockedByRep")
        // …or at once without risk verification.
        #expect(h.hook("POST", "v2", json: ["sms_risk_verification": "never"]).status == 200)
        let direct = c.follow(enroll, ["continuationToken": register.ct ?? "", "target": "+15550199"])
        #expect(direct.hal.inner == "providerBlockedByRep" && direct.hal.message?.hasPrefix("AADSTS550024:") == true)
        let good = c.follow(enroll, ["continuationToken": register.ct ?? "", "target": "+15550123"])
        #expect(good.action == "activate")
    }

    @Test func theBrowserFallbackForBrowserOnlyUsersAndTheHooksList() throws {
        let h = try H()
        let c = C(h)
        let hedy = c.start(C.hedy)
        #expect(hedy.status == 400 && hedy.state == "webFallbackRequired")
        #expect(hedy.hal.code == "invalid_grant" && hedy.hal.inner == "web_redirect_required")
        #expect(hedy.hal.message == "Sign-in must continue in a web browser.")
        #expect(h.hook("POST", "v2", json: ["web_fallback_for": ["ADA@example.com"]]).status == 200)
        #expect(c.start(H.ada).state == "webFallbackRequired")
        #expect(c.start(H.grace).action == "challenge")
        // V1: the 200 redirect for the browser-only user.
        let v1 = h.challenge(h.initiate(C.hedy).token)
        #expect(v1.status == 200 && v1["challenge_type"] as? String == "redirect")
    }

    @Test func mfaIsAskedForTheAppsPolicyAndForClaimsAskingAcrs() throws {
        var seed = Seed.demo
        seed.apps[1].mfaPolicy = .required
        let h = try H(seed: seed)
        let c = C(h)
        // App policy: ada has no method, so she registers one.
        let entry = c.entry(clientId: H.codeApp)
        let started = c.follow(entry["sign_in"] as? String, ["username": H.ada, "continuationToken": entry.token ?? ""])
        let policy = c.verify(c.challenge(started, type: "password"), ["password": H.adaPassword])
        #expect(policy.action == "register", "\(policy.json)")
        // Claims asking for an authentication context, on the app without a policy.
        let acrsRequest = #"{"access_token":{"acrs":{"essential":true,"value":"c1"}}}"#
        let asked = c.start(H.ada, extra: ["claims": acrsRequest])
        let needsMFA = c.verify(c.challenge(asked, type: "password"), ["password": H.adaPassword])
        #expect(needsMFA.action == "register")
        let done = c.follow(needsMFA.methodLink("email", "enroll"), ["continuationToken": needsMFA.ct ?? "", "target": H.ada])
        let tokens = try c.finish(done)
        #expect(try claims(tokens["access_token"], h)["acrs"] as? [String] == ["c1"])
        // Without claims, the password alone signs ada in.
        #expect(c.password(H.ada, H.adaPassword).state == "continue")
    }
}
