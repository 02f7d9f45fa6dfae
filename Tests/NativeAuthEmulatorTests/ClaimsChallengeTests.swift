import Foundation
import TestSupport
import Testing

@testable import NativeAuthEmulator

/// The conditional-access path of MSAL's error handling, offline: sample API 2 (`profile`) with
/// `required_acrs: ["c1"]` challenges tokens without `acrs`, a refresh cannot satisfy it, a native
/// sign-in without the MFA capability is sent to the browser, and browser sign-in with the `claims`
/// parameter satisfies it.
@Suite struct ClaimsChallengeTests {
    typealias H = EmulatorHarness
    typealias B = BrowserDriver

    static func harness() throws -> H {
        var seed = Seed.demo
        seed.apis[1].requiredAcrs = ["c1"]
        return try H(seed: seed)
    }

    private func callProfile(_ h: H, _ token: Any?) -> H.Reply {
        h.send("GET", "/api/profile", headers: ["Authorization": "Bearer \(token as? String ?? "")"])
    }

    @Test func theSeedFieldIsReadFromJSON() throws {
        let json = #"""
            {"tenant": {"subdomain": "t", "id": "5c3b1c2e-8a4f-4f5e-9d7a-0e6b2a9c1d00"},
             "apps": [{"client_id": "c", "redirect_uris": ["http://127.0.0.1/cb"], "requires_consent": true}], "users": [],
             "apis": [{"name": "p", "app_id": "a", "identifier_uri": "api://p", "scopes": ["R"], "path": "/p", "required_scope": "R",
                       "required_acrs": ["c1"]}]}
            """#
        let seed = try Seed.load(from: Data(json.utf8))
        #expect(seed.apps[0].redirectUris == ["http://127.0.0.1/cb"] && seed.apps[0].requiresConsent)
        #expect(seed.apis[0].requiredAcrs == ["c1"])
        let defaults = try Seed.load(from: Data(json.replacingOccurrences(of: #""required_acrs": ["c1"]"#, with: #""x": 1"#).utf8))
        #expect(defaults.apis[0].requiredAcrs == nil && Seed.demo.apps[0].redirectUris == ["http://localhost"])
        #expect(!Seed.demo.apps[0].requiresConsent)
    }

    @Test func apiTwoChallengesNativeGrantsCannotAnswerTheBrowserCan() throws {
        let h = try Self.harness()
        let scope = "\(B.profileRead) openid profile offline_access"
        let claimsRequest = #"{"access_token":{"acrs":{"essential":true,"value":"c1"}}}"#

        // 1. A native sign-in's token is challenged.
        let native = try h.signIn(scope: scope)
        let challenged = callProfile(h, native["access_token"])
        #expect(challenged.status == 401 && challenged.error == "insufficient_claims")
        let header = try #require(challenged.headers["WWW-Authenticate"])
        let authorizationURI = "\(h.base)/\(h.router.seed.tenant.id)/oauth2/v2.0/authorize"
        #expect(header.hasPrefix(#"Bearer realm="", authorization_uri="\#(authorizationURI)", error="insufficient_claims", claims=""#))
        let encoded = try #require(header.split(separator: "claims=\"").last?.dropLast())
        let decoded = try #require(Data(base64Encoded: String(encoded)))
        #expect(String(decoding: decoded, as: UTF8.self) == claimsRequest)
        // The other API does not care.
        let todo = try h.signIn(scope: "\(B.todoRead) openid")
        #expect(h.send("GET", "/api/todolist", headers: ["Authorization": "Bearer \(todo["access_token"] as? String ?? "")"]).status == 200)

        // 2. The refresh grant with those claims: interaction required; the refresh token survives.
        let rt = try #require(native["refresh_token"] as? String)
        let refresh = h.post(
            "/oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": rt, "scope": scope, "claims": claimsRequest])
        #expect(refresh.status == 400 && refresh.error == "invalid_grant" && refresh.codes == [50076] && refresh.suberror == "basic_action")
        #expect(h.post("/oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": rt, "scope": scope]).status == 200)
        // A native sign-in asking for c1 needs a second factor; this client declared no capability,
        // so it is sent to the browser (EntraFidelityTests covers the MFA path).
        let password = h.post(
            "/oauth2/v2.0/token",
            [
                "continuation_token": try h.passwordToken(), "grant_type": "password", "username": H.ada, "password": H.adaPassword,
                "scope": scope, "challenge_type": H.all, "claims": claimsRequest,
            ])
        #expect(password.status == 200 && password["challenge_type"] as? String == "redirect" && password["access_token"] == nil)

        // 3. The browser: an SSO session without c1 is not enough, the page is shown.
        var browser = B(h)
        _ = try browser.signIn(browser.query(scope: scope))
        let none = browser.authorize(browser.query(scope: scope, ["claims": claimsRequest, "prompt": "none"]))
        #expect(none.redirect["error"] == "interaction_required")
        let page = browser.authorize(browser.query(scope: scope, ["claims": claimsRequest]))
        #expect(page.status == 200 && page.html.contains("c1"))
        let done = browser.submit(page, action: "password", ["username": H.ada, "password": H.adaPassword])
        let tokens = browser.redeem(done.redirect["code"], scope: scope)
        #expect(tokens.status == 200)
        let access = try JWT.verify(try #require(tokens["access_token"] as? String), keys: h.router.keys)
        #expect(access["acrs"] as? [String] == ["c1"])
        let answered = callProfile(h, tokens["access_token"])
        #expect(answered.status == 200 && answered["name"] as? String == "Ada Lovelace")

        // 4. The browser's refresh token now satisfies c1, and the session answers c1 silently.
        let browserRT = try #require(tokens["refresh_token"] as? String)
        let stepUpRefresh = h.post(
            "/oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": browserRT, "scope": scope, "claims": claimsRequest])
        #expect(stepUpRefresh.status == 200 && callProfile(h, stepUpRefresh["access_token"]).status == 200)
        let silent = browser.authorize(browser.query(scope: scope, ["claims": claimsRequest, "prompt": "none"]))
        #expect(silent.redirect["code"] != nil)
    }
}
