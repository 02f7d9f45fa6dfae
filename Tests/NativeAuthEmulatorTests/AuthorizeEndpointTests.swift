import Foundation
import MSAL
import TestSupport
import Testing

@testable import NativeAuthEmulator

/// Browser sign-in through the router in-process: the authorize page driven as a form, the
/// redirect, and `grant_type=authorization_code` with every check of docs/emulator.md#browser-sign-in-authorization-code-with-pkce.
@Suite struct AuthorizeEndpointTests {
    typealias H = EmulatorHarness
    typealias B = BrowserDriver

    private func claims(_ token: Any?, _ h: H) throws -> [String: Any] {
        try JWT.verify(try #require(token as? String), keys: h.router.keys)
    }

    @Test func pkceMatchesRFC7636AppendixB() {
        let challenge = Base64URLCoding.encode(BrowserRules.sha256(Data("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk".utf8)))
        #expect(challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(
            BrowserRules.verifierMatches(
                "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", method: "S256"))
    }

    @Test func passwordSignInGivesACodeAndTheCodeTheNativeTokenResponse() throws {
        let h = try H()
        var browser = B(h)
        let page = browser.authorize(browser.query())
        #expect(page.status == 200 && page.step == "sign_in")
        #expect(page.headers["Cache-Control"] == "no-store" && page.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(!page.html.contains("<script"))
        #expect(page.formAction == h.tenant + "/oauth2/v2.0/authorize")
        #expect(Set(page.inputs) == ["flow", "username", "password"] && page.buttons == ["password", "send_code", "cancel"])
        let done = browser.submit(page, action: "password", ["username": H.ada, "password": H.adaPassword])
        #expect(done.status == 302 && done.headers["Cache-Control"] == "no-store")
        let location = try #require(done.location)
        #expect(location.hasPrefix("http://localhost:5001/?code="), "`/` added when the URI has no path")
        let redirect = done.redirect
        #expect(redirect["state"] == "st+te/=1 ü", "state verbatim")
        let code = try #require(redirect["code"])
        #expect(Base64URLCoding.decode(code)?.count ?? 0 >= 16, "at least 128 random bits")
        let clientInfo = try #require(redirect["client_info"])
        let info = try #require(Base64URLCoding.decode(clientInfo))
        #expect(
            String(decoding: info, as: UTF8.self) == #"{"uid":"a1a1a1a1-0000-4000-8000-000000000001","utid":"\#(h.router.seed.tenant.id)"}"#
        )
        let cookie = try #require(done.headers["Set-Cookie"])
        #expect(cookie.hasPrefix("ESTSAUTH=") && cookie.contains("Path=\(h.tenant);") && cookie.contains("HttpOnly"))
        #expect(cookie.contains("SameSite=Lax"))

        let tokens = browser.redeem(code)
        #expect(tokens.status == 200, "\(tokens.json)")
        #expect(tokens["scope"] as? String == B.todoRead && tokens["token_type"] as? String == "Bearer")
        let access = try claims(tokens["access_token"], h)
        #expect(access["aud"] as? String == "33333333-3333-4333-8333-333333333333" && access["scp"] as? String == "ToDoList.Read")
        #expect(access["acrs"] == nil)
        let id = try claims(tokens["id_token"], h)
        #expect(id["nonce"] as? String == "n-0S6_WzA2Mj" && id["aud"] as? String == H.passwordApp)
        #expect(id["auth_time"] as? Int == Int(h.router.now().timeIntervalSince1970))
        // The same account as a native sign-in: same oid, tid and client_info.
        let native = try h.signIn()
        #expect(try self.claims(native["id_token"], h)["oid"] as? String == id["oid"] as? String)
        #expect(native["client_info"] as? String == tokens["client_info"] as? String && id["tid"] as? String == h.router.seed.tenant.id)
        // The API accepts the access token.
        let api = h.send("GET", "/api/todolist", headers: ["Authorization": "Bearer \(tokens["access_token"] as? String ?? "")"])
        #expect(api.status == 200)
        // The refresh token works with the refresh grant, and dies with the session.
        let refresh = try #require(tokens["refresh_token"] as? String)
        let refreshed = h.post(
            "/oauth2/v2.0/token",
            ["grant_type": "refresh_token", "refresh_token": refresh, "scope": "\(B.profileRead) openid offline_access"])
        let refreshedID = try claims(refreshed["id_token"], h)
        #expect(refreshed.status == 200 && refreshedID["auth_time"] as? Int == id["auth_time"] as? Int)
        // Three: the browser's (still valid after its redemption, as Entra's are), the one its
        // refresh gave, and the native sign-in's.
        #expect(h.hook("DELETE", "sessions", query: ["username": H.ada]).json["revoked_refresh_tokens"] as? Int == 3)
        for token in [refresh, refreshed["refresh_token"] as? String] {
            let revoked = h.post("/oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": token, "scope": "openid"])
            #expect(revoked.error == "invalid_grant")
        }
        // The code and the verifier never reach the request log.
        let redeemed = h.hook("GET", "requests").list.first { ($0["fields"] as? [String: String])?["grant_type"] == "authorization_code" }
        let fields = redeemed?["fields"] as? [String: String]
        #expect(fields?["code"] == "<redacted>" && fields?["code_verifier"] == "<redacted>")
    }

    @Test func emailCodeSignInThroughTheMailbox() throws {
        let h = try H()
        var browser = B(h)
        let page = browser.authorize(browser.query(["login_hint": H.grace]))
        #expect(page.html.contains(#"value="grace@example.com""#), "login_hint fills the username")
        let noPassword = browser.submit(page, action: "password", ["username": H.grace, "password": "x"])
        #expect(noPassword.status == 200 && noPassword.message?.contains("no password") == true)
        let otp = browser.submit(noPassword, action: "send_code", ["username": H.grace])
        #expect(otp.status == 200 && otp.step == "otp" && otp.inputs.contains("otp") && otp.buttons.contains("verify_code"))
        let mail = try #require(h.hook("GET", "mailbox", query: ["username": H.grace]).list.last)
        #expect(mail["purpose"] as? String == "browser_sign_in")
        let code = try #require(mail["code"] as? String)
        let wrong = browser.submit(otp, action: "verify_code", ["otp": code == "00000000" ? "11111111" : "00000000"])
        #expect(wrong.status == 200 && wrong.step == "otp" && wrong.message == "That code is incorrect.")
        let done = browser.submit(wrong, action: "verify_code", ["otp": code])
        #expect(done.status == 302)
        // An expired code is refused on the page; a new one works.
        let short = try H { $0.codeLifetime = 60 }
        var later = B(short)
        let sent = later.submit(later.authorize(later.query()), action: "send_code", ["username": H.grace])
        let first = try #require(short.lastCode(H.grace))
        short.advanceClock(61)
        let tooLate = later.submit(sent, action: "verify_code", ["otp": first])
        #expect(tooLate.status == 200 && tooLate.message == "The code has expired: send a new code.")
        let resent = later.submit(tooLate, action: "send_code")
        #expect(short.hook("GET", "mailbox", query: ["username": H.grace]).list.count == 2)
        let second = try #require(short.lastCode(H.grace))
        #expect(later.submit(resent, action: "verify_code", ["otp": second]).status == 302)
        let tokens = browser.redeem(done.redirect["code"])
        #expect(try claims(tokens["id_token"], h)["preferred_username"] as? String == H.grace)
    }

    @Test func cancelRedirectsWithAccessDenied() throws {
        let h = try H()
        var browser = B(h)
        let done = browser.submit(browser.authorize(browser.query()), action: "cancel")
        #expect(done.status == 302 && done.redirect["error"] == "access_denied" && done.redirect["error_subcode"] == "cancel")
        #expect(done.redirect["state"] == "st+te/=1 ü" && done.redirect["code"] == nil)
        #expect(done.redirect["error_description"]?.hasPrefix("AADSTS90091: ") == true)
    }

    @Test func wrongPasswordStaysOnThePageAndEachPageIsSingleUse() throws {
        let h = try H { $0.maxPasswordAttempts = 3 }
        var browser = B(h)
        let page = browser.authorize(browser.query())
        let wrong = browser.submit(page, action: "password", ["username": H.ada, "password": "nope"])
        #expect(wrong.status == 200 && wrong.step == "sign_in" && wrong.message == "Your account or password is incorrect.")
        #expect(wrong.hidden["flow"] != page.hidden["flow"])
        let replay = browser.submit(page, action: "password", ["username": H.ada, "password": H.adaPassword])
        #expect(replay.status == 400 && replay.errorCode == "AADSTS50089")
        let unknownUser = browser.submit(wrong, action: "password", ["username": "nobody@example.com", "password": "x"])
        #expect(unknownUser.status == 200 && unknownUser.message == "Your account or password is incorrect.")
        let locked = browser.submit(unknownUser, action: "password", ["username": H.ada, "password": "nope"])
        #expect(locked.status == 302 && locked.redirect["error"] == "access_denied")
        #expect(locked.redirect["error_description"]?.hasPrefix("AADSTS50053") == true)
        // A page is good for 600 s from the authorize request.
        var late = B(h)
        let stale = late.authorize(late.query())
        h.advanceClock(601)
        let expired = late.submit(stale, action: "password", ["username": H.ada, "password": H.adaPassword])
        #expect(expired.status == 400 && expired.errorCode == "AADSTS50089")
    }

    @Test func unknownClientAndUnregisteredRedirectURIAnswerAPageNotARedirect() throws {
        let h = try H()
        var browser = B(h)
        let unknown = browser.authorize(browser.query(["client_id": "99999999-0000-4000-8000-000000000000"]))
        #expect(unknown.status == 400 && unknown.location == nil && unknown.errorCode == "AADSTS700016")
        #expect(unknown.headers["Cache-Control"] == "no-store")
        let elsewhere = browser.authorize(browser.query(["redirect_uri": "https://evil.example/cb"]))
        #expect(elsewhere.status == 400 && elsewhere.location == nil && elsewhere.errorCode == "AADSTS50011")
        #expect(browser.authorize(browser.query(["redirect_uri": nil])).errorCode == "AADSTS900144")
    }

    @Test func loopbackRedirectURIsIgnoreThePortButNotHostOrPath() throws {
        var seed = Seed.demo
        seed.apps[0].redirectUris = ["http://localhost", "http://127.0.0.1/callback", "https://app.example/cb", "http://[::1]/"]
        let h = try H(seed: seed)
        var browser = B(h)
        func status(_ uri: String) -> Int { browser.authorize(browser.query(["redirect_uri": uri])).status }
        #expect(status("http://localhost") == 200)
        #expect(status("http://localhost:1234") == 200)
        #expect(status("http://localhost:1234/") == 200, "an empty path and / are the same path")
        #expect(status("http://localhost:1234/callback") == 400)
        #expect(status("http://127.0.0.1:1234") == 400, "host must match")
        #expect(status("http://127.0.0.1:8080/callback") == 200)
        #expect(status("http://127.0.0.1:8080/callback/") == 400)
        #expect(status("http://[::1]:9999/") == 200)
        #expect(status("https://app.example/cb") == 200)
        #expect(status("https://app.example:444/cb") == 400, "not loopback: exact")
        #expect(status("https://localhost:1234") == 400, "https is not the loopback rule")
        // The code goes to the URI as sent, port included.
        var other = B(h)
        let redirect = try other.signIn(other.query(["redirect_uri": "http://127.0.0.1:8080/callback"]))
        #expect(redirect["code"] != nil)
        #expect(other.redeem(redirect["code"], redirectUri: "http://127.0.0.1:8080/callback").status == 200)
    }

    @Test func requestFaultsRedirectWithAnError() throws {
        let h = try H()
        var browser = B(h)
        let noPKCE = browser.authorize(browser.query(["code_challenge": nil]))
        #expect(noPKCE.status == 302 && noPKCE.redirect["error"] == "invalid_request" && noPKCE.redirect["state"] == "st+te/=1 ü")
        #expect(noPKCE.redirect["error_description"]?.hasPrefix("AADSTS9002325: ") == true)
        #expect(browser.authorize(browser.query(["code_challenge_method": "S512"])).redirect["error"] == "invalid_request")
        #expect(browser.authorize(browser.query(["code_challenge": "short"])).redirect["error"] == "invalid_request")
        #expect(browser.authorize(browser.query(["response_type": "token"])).redirect["error"] == "unsupported_response_type")
        #expect(browser.authorize(browser.query(["prompt": "sometimes"])).redirect["error"] == "invalid_request")
        #expect(browser.authorize(browser.query(["claims": "{not json"])).redirect["error"] == "invalid_request")
        let badScope = browser.authorize(browser.query(scope: "api://elsewhere/Read openid"))
        #expect(badScope.redirect["error"] == "invalid_scope" && badScope.redirect["error_description"]?.hasPrefix("AADSTS70011") == true)
        let none = browser.authorize(browser.query(["prompt": "none"]))
        #expect(none.redirect["error"] == "login_required" && none.redirect["error_description"]?.hasPrefix("AADSTS50058") == true)
        // plain is allowed (RFC 7636), and its verifier is the challenge itself.
        var plain = B(h)
        let redirect = try plain.signIn(plain.query(["code_challenge": plain.verifier, "code_challenge_method": "plain"]))
        #expect(plain.redeem(redirect["code"]).status == 200)
    }

    @Test func tokenChecksRunInTheDocumentedOrder() throws {
        let h = try H()
        var browser = B(h)
        let code = try #require(try browser.signIn()["code"])
        #expect(browser.redeem(nil).codes == [900144])
        let unknownClient = browser.redeem(code, clientId: "99999999-0000-4000-8000-000000000000")
        #expect(unknownClient.error == "invalid_client")
        let otherClient = browser.redeem(code, clientId: H.codeApp)
        #expect(otherClient.error == "invalid_grant" && otherClient.codes == [700005])
        #expect(browser.redeem("not-a-code").error == "invalid_grant")
        let otherURI = browser.redeem(code, redirectUri: "http://localhost:5002")
        #expect(otherURI.error == "invalid_grant" && otherURI.codes == [500112])
        let noVerifier = h.post(
            "/oauth2/v2.0/token", ["grant_type": "authorization_code", "code": code, "redirect_uri": B.redirectUri, "scope": "openid"])
        #expect(noVerifier.error == "invalid_grant" && noVerifier.codes == [50148])
        #expect(browser.redeem(code, verifier: "too-short").codes == [50148])
        let wrongVerifier = browser.redeem(code, verifier: Base64URLCoding.encode(Secrets.randomBytes(32)))
        #expect(wrongVerifier.error == "invalid_grant" && wrongVerifier.codes == [50148])
        let outside = browser.redeem(code, scope: "\(B.todoWrite) openid")
        #expect(outside.error == "invalid_scope" && outside.codes == [70011])
        #expect(browser.redeem(code, scope: "\(B.profileRead) openid").error == "invalid_scope")
        // None of the failures burnt the code.
        #expect(browser.redeem(code).status == 200)
    }

    @Test func aReusedCodeFailsAndRevokesTheTokensItGave() throws {
        let h = try H()
        var browser = B(h)
        let code = try #require(try browser.signIn()["code"])
        let first = browser.redeem(code)
        let rt = try #require(first["refresh_token"] as? String)
        let rotated = h.post("/oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": rt, "scope": "openid offline_access"])
        let rt2 = try #require(rotated["refresh_token"] as? String)
        let native = try #require(try h.signIn()["refresh_token"] as? String)
        let again = browser.redeem(code)
        #expect(again.error == "invalid_grant" && again.codes == [54005])
        let afterReplay = h.post("/oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": rt2, "scope": "openid"])
        #expect(afterReplay.error == "invalid_grant", "the rotated refresh token descends from the replayed code")
        let original = h.post("/oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": rt, "scope": "openid"])
        #expect(original.error == "invalid_grant", "so does the one the code gave, though redeeming it did not retire it")
        let unrelated = h.post("/oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": native, "scope": "openid"])
        #expect(unrelated.status == 200, "other sign-ins keep their tokens")
    }

    @Test func concurrentRedemptionsOfOneCodeGiveOneSuccessAndRevokeIt() throws {
        let h = try H()
        var browser = B(h)
        let code = try #require(try browser.signIn()["code"])
        let replies = Locked<[H.Reply]>([])
        let driver = browser
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            let reply = driver.redeem(code)
            replies.withLock { $0.append(reply) }
        }
        let all = replies.withLock { $0 }
        #expect(all.filter { $0.status == 200 }.count == 1)
        #expect(all.filter { $0.codes == [54005] }.count == 5)
        let rt = try #require(all.first { $0.status == 200 }?["refresh_token"] as? String)
        let refreshed = h.post("/oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": rt, "scope": "openid"])
        #expect(refreshed.error == "invalid_grant", "replays revoke what the code gave, however they interleave")
    }

    @Test func customSchemeRedirectURIsGetNoAddedSlash() {
        #expect(BrowserRules.redirectLocation("msauth.com.example.app://auth", [("code", "c")]) == "msauth.com.example.app://auth?code=c")
        #expect(BrowserRules.redirectLocation("http://localhost:5000", [("code", "c")]) == "http://localhost:5000/?code=c")
        #expect(
            BrowserRules.redirectLocation("http://localhost:5000/cb?x=1", [("state", "a b")]) == "http://localhost:5000/cb?x=1&state=a%20b")
        #expect(BrowserRules.redirectLocation("http://localhost:5000", []) == "http://localhost:5000/")
    }

    @Test func codesExpireAfter600SecondsOfTheEmulatorClock() throws {
        let h = try H()
        var browser = B(h)
        let code = try #require(try browser.signIn()["code"])
        h.advanceClock(599)
        var second = B(h)
        let fresh = try #require(try second.signIn()["code"])
        h.advanceClock(2)
        let expired = browser.redeem(code)
        #expect(expired.error == "invalid_grant" && expired.codes == [70008])
        #expect(second.redeem(fresh).status == 200)
    }

    @Test func theSSOCookieAnswersAtOnceUnlessPromptAsksForThePage() throws {
        let h = try H()
        var browser = B(h)
        _ = try browser.signIn()
        let silent = browser.authorize(browser.query())
        #expect(silent.status == 302 && silent.redirect["code"] != nil, "SSO: no page")
        let none = browser.authorize(browser.query(["prompt": "none"]))
        #expect(none.status == 302 && none.redirect["code"] != nil)
        let tokens = browser.redeem(none.redirect["code"])
        #expect(try claims(tokens["id_token"], h)["preferred_username"] as? String == H.ada)
        for prompt in ["login", "select_account"] {
            let page = browser.authorize(browser.query(["prompt": prompt]))
            #expect(page.status == 200 && page.step == "sign_in", "\(prompt)")
        }
        let otherUser = browser.authorize(browser.query(["login_hint": H.grace]))
        #expect(otherUser.status == 200, "a login_hint for another user shows the page")
        // The cookie is bound to the tenant path it was set for, and worthless without the session.
        var stranger = B(h)
        stranger.cookies = ["ESTSAUTH": "forged"]
        #expect(stranger.authorize(stranger.query()).status == 200)
        // Sessions end: after their lifetime, and when the user's sessions are revoked.
        h.advanceClock(24 * 3600 + 1)
        #expect(browser.authorize(browser.query()).status == 200)
        _ = try browser.signIn()
        #expect(browser.authorize(browser.query()).status == 302)
        #expect(h.hook("DELETE", "sessions", query: ["username": H.ada]).json["ended_browser_sessions"] as? Int == 1)
        #expect(browser.authorize(browser.query()).status == 200)
    }

    @Test func consentDeclineAndPartialConsent() throws {
        var seed = Seed.demo
        seed.apps[0].requiresConsent = true
        let h = try H(seed: seed)
        var browser = B(h)
        let scope = "\(B.todoRead) \(B.todoWrite) openid profile offline_access"
        let page = browser.authorize(browser.query(scope: scope))
        let consent = browser.submit(page, action: "password", ["username": H.ada, "password": H.adaPassword])
        #expect(consent.status == 200 && consent.step == "consent" && consent.headers["Set-Cookie"] != nil)
        #expect(consent.checkboxes == [B.todoRead, B.todoWrite] && consent.buttons == ["accept", "decline"])
        let declined = browser.submit(consent, action: "decline")
        #expect(declined.redirect["error"] == "access_denied" && declined.redirect["error_description"]?.hasPrefix("AADSTS65004") == true)

        // Signed in (the cookie), so the next request goes straight to the consent page.
        let again = browser.authorize(browser.query(scope: scope))
        #expect(again.status == 200 && again.step == "consent")
        let partial = browser.submit(again, action: "accept", scopes: [B.todoRead])
        #expect(partial.status == 302)
        let tokens = browser.redeem(partial.redirect["code"], scope: scope)
        #expect(tokens.status == 200 && tokens["scope"] as? String == B.todoRead, "the declined scope is absent")
        #expect(try claims(tokens["access_token"], h)["scp"] as? String == "ToDoList.Read")
        // Consent is remembered for what was granted; the declined scope is asked for again.
        #expect(browser.authorize(browser.query()).status == 302)
        #expect(browser.authorize(browser.query(scope: scope)).step == "consent")
        #expect(browser.authorize(browser.query(scope: scope, ["prompt": "none"])).redirect["error"] == "consent_required")
        // prompt=consent shows the page even for an app that does not ask.
        let plain = try H()
        var other = B(plain)
        let first = other.authorize(other.query(["prompt": "consent"]))
        let shown = other.submit(first, action: "password", ["username": H.ada, "password": H.adaPassword])
        #expect(shown.step == "consent")
        #expect(other.redeem(other.submit(shown, action: "accept").redirect["code"]).status == 200)
    }

    @Test func logoutEndsTheBrowserSessionButNotTheTokens() throws {
        let h = try H()
        var browser = B(h)
        let code = try #require(try browser.signIn()["code"])
        let rt = try #require(browser.redeem(code)["refresh_token"] as? String)
        let old = browser.cookies
        let out = browser.h.send(
            "GET", h.tenant + "/oauth2/v2.0/logout", query: ["post_logout_redirect_uri": "http://localhost:7000", "state": "bye"],
            headers: browser.cookieHeader)
        #expect(out.status == 302 && out.headers["Location"] == "http://localhost:7000/?state=bye")
        #expect(out.headers["Set-Cookie"]?.hasPrefix("ESTSAUTH=; Path=\(h.tenant); Max-Age=0") == true)
        browser.cookies = old // even a browser that kept the cookie has no session now
        #expect(browser.authorize(browser.query()).status == 200)
        let page = h.send("POST", h.tenant + "/oauth2/v2.0/logout", body: Data("post_logout_redirect_uri=https%3A%2F%2Fevil.example".utf8))
        #expect(page.status == 200 && String(decoding: page.body, as: UTF8.self).contains("signed-out"))
        let refreshed = h.post("/oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": rt, "scope": "openid"])
        #expect(refreshed.status == 200, "refresh tokens stay valid")
    }

    @Test func discoveryListsTheBrowserEndpoints() throws {
        let h = try H()
        let document = h.send("GET", h.tenant + "/v2.0/.well-known/openid-configuration").json
        let tenantBase = "\(h.base)/\(h.router.seed.tenant.id)"
        #expect(document["authorization_endpoint"] as? String == "\(tenantBase)/oauth2/v2.0/authorize")
        #expect(document["end_session_endpoint"] as? String == "\(tenantBase)/oauth2/v2.0/logout")
        #expect(document["code_challenge_methods_supported"] as? [String] == ["S256", "plain"])
        #expect(document["claims_parameter_supported"] as? Bool == true)
        #expect(h.send("GET", "/\(h.router.seed.tenant.id)/oauth2/v2.0/authorize", query: ["client_id": H.passwordApp]).status == 400)
    }
}
