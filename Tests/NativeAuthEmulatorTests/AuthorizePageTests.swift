import Foundation
import NativeAuthTesting
import TestSupport
import Testing

@testable import NativeAuthEmulator

/// How the emulator's browser pages look (docs/emulator.md#browser-sign-in-authorization-code-with-pkce):
/// a sign-in page with the app's name on a centred card, usable at phone width, styled inline, with
/// no JavaScript, every interpolated value escaped, and the form contract unchanged.
@Suite struct AuthorizePageTests {
    typealias H = EmulatorHarness
    typealias B = BrowserDriver

    /// Every browser page the emulator shows for the demo seed's password app.
    private func pages() throws -> [(name: String, html: String)] {
        let h = try H()
        var browser = B(h)
        let signIn = browser.authorize(browser.query())
        let otp = browser.submit(browser.authorize(browser.query()), action: "send_code", ["username": H.ada])
        let wrong = browser.submit(browser.authorize(browser.query()), action: "password", ["username": H.ada, "password": "nope"])
        let consent = browser.authorize(browser.query(["prompt": "consent"]))
        let consentPage = browser.submit(consent, action: "password", ["username": H.ada, "password": H.adaPassword])
        let unknown = browser.authorize(browser.query(["client_id": "99999999-0000-4000-8000-000000000000"]))
        let elsewhere = browser.authorize(browser.query(["redirect_uri": "https://evil.example/cb"]))
        _ = browser.submit(signIn, action: "password", ["username": H.ada, "password": H.adaPassword])
        let expired = browser.submit(signIn, action: "password", ["username": H.ada, "password": H.adaPassword]) // single use
        let signedOut = h.send("GET", h.tenant + "/oauth2/v2.0/logout", query: ["client_id": H.passwordApp])
        let found: [(String, Int, String?, String)] = [
            ("sign_in", signIn.status, signIn.step, signIn.html), ("otp", otp.status, otp.step, otp.html),
            ("sign_in with a message", wrong.status, wrong.step, wrong.html),
            ("consent", consentPage.status, consentPage.step, consentPage.html),
            ("unknown client", unknown.status, nil, unknown.html), ("unregistered redirect URI", elsewhere.status, nil, elsewhere.html),
            ("expired page", expired.status, nil, expired.html),
            ("signed out", signedOut.status, nil, String(decoding: signedOut.body, as: UTF8.self)),
        ]
        #expect(found.map(\.1) == [200, 200, 200, 200, 400, 400, 400, 200], "\(found.map(\.1))")
        #expect(found.map(\.2) == ["sign_in", "otp", "sign_in", "consent", nil, nil, nil, nil])
        #expect(wrong.message != nil && expired.errorCode == "AADSTS50089")
        return found.map { ($0.0, $0.3) }
    }

    @Test func everyPageIsACardUsableAtPhoneWidthWithoutScript() throws {
        for (name, html) in try pages() {
            #expect(html.contains(#"<meta name="viewport" content="width=device-width, initial-scale=1">"#), "\(name)")
            #expect(html.contains(#"<main class="card">"#) && html.contains("<style>\n"), "\(name)")
            #expect(html.contains("@media (max-width:480px)"), "\(name): a phone layout")
            #expect(!html.lowercased().contains("<script"), "\(name)")
            #expect(html.range(of: #"\son[a-z]+\s*="#, options: [.regularExpression, .caseInsensitive]) == nil, "\(name): event handlers")
            #expect(
                html.range(of: #"<link|\ssrc=|url\(|@import|javascript:"#, options: .regularExpression) == nil, "\(name): nothing fetched")
        }
    }

    /// The app's registered name on the pages of a request from it; the emulator's own name where
    /// no app is known.
    @Test func theAppsNameHeadsThePage() throws {
        let app = Seed.demo.apps[0].name
        #expect(app == "Demo app (email + password)")
        for (name, html) in try pages() {
            let expected = ["unknown client", "expired page"].contains(name) ? AuthorizePage.emulatorName : app
            #expect(html.contains(#"<p class="app" id="app-name">\#(expected)</p>"#), "\(name)")
            #expect(html.contains("<title>") && html.contains(" · \(expected)</title>"), "\(name)")
        }
    }

    @Test func theFormContractIsUnchangedAndTheMainActionComesFirst() throws {
        let h = try H()
        var browser = B(h)
        let page = browser.authorize(browser.query())
        #expect(page.formAction == h.tenant + "/oauth2/v2.0/authorize" && page.step == "sign_in")
        #expect(Set(page.inputs) == ["flow", "username", "password"])
        // Enter presses a form's first button: the main action.
        #expect(page.buttons == ["password", "send_code", "cancel"])
        #expect(page.html.contains(#"<button type="submit" name="action" value="password" id="action-password" class="primary">"#))
        let otp = browser.submit(page, action: "send_code", ["username": H.ada])
        #expect(otp.buttons == ["verify_code", "send_code", "cancel"] && Set(otp.inputs) == ["flow", "username", "otp"])
        let consent = browser.submit(
            browser.authorize(browser.query(["prompt": "consent"])), action: "password", ["username": H.ada, "password": H.adaPassword])
        #expect(consent.buttons == ["accept", "decline"] && consent.checkboxes == [B.todoRead])
    }

    /// Every value a request, a seed or a message puts on a page is escaped.
    @Test func everyInterpolatedValueIsEscaped() throws {
        let hostile = #"<script>alert("x")</script> & 'y'"#
        let escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;"
        var seed = Seed.demo
        seed.apps[0].name = hostile
        let h = try H(seed: seed)
        var browser = B(h)
        let page = browser.authorize(browser.query(["login_hint": hostile]))
        #expect(page.status == 200 && page.step == "sign_in")
        #expect(page.html.contains(#"<p class="app" id="app-name">\#(escaped)</p>"#))
        #expect(page.html.contains("<title>Sign in · \(escaped)</title>"))
        #expect(page.html.contains("to continue to \(escaped)</p>"))
        #expect(page.html.contains(#"id="username" value="\#(escaped)""#))
        #expect(!page.html.contains("<script"), "\(page.html)")
        #expect(HTMLForm(html: page.html).inputs.contains("username"), "the form still reads")

        let direct = AuthorizePage.page(
            form: .consent(appName: hostile, username: hostile, scopes: [hostile]), flow: hostile, action: hostile, appName: hostile,
            message: hostile, notice: hostile)
        let html = String(decoding: direct.body, as: UTF8.self)
        #expect(!html.contains("<script") && !html.contains(#"alert("x")"#), "\(html)")
        for fragment in [
            #"action="\#(escaped)""#, #"name="flow" id="flow" value="\#(escaped)""#, #"<p id="notice">\#(escaped)</p>"#,
            #"<p id="message" role="alert">\#(escaped)</p>"#, #"value="\#(escaped)" checked>"#,
            "<h1>Permissions requested</h1>\n<p class=\"lead\">\(escaped) would like to, for \(escaped):</p>",
        ] {
            #expect(html.contains(fragment), "\(fragment)")
        }
        let error = String(decoding: AuthorizePage.error(status: 400, code: 1, description: hostile, appName: hostile).body, as: UTF8.self)
        #expect(error.contains(#"<p id="error-description">AADSTS1: \#(escaped)</p>"#) && !error.contains("<script"))
        let otp = AuthorizePage.page(
            form: .otp(username: hostile, maskedAddress: hostile), flow: "f", action: "/a", appName: "A", message: nil, notice: nil)
        let otpHTML = String(decoding: otp.body, as: UTF8.self)
        #expect(otpHTML.contains("We emailed a code to \(escaped).") && !otpHTML.contains("<script"))
    }

    /// Inline styles are what the page's Content-Security-Policy allows, and all it allows.
    @Test func thePolicyAllowsTheInlineStyleAndNoScript() throws {
        let h = try H()
        var browser = B(h)
        let page = browser.authorize(browser.query())
        #expect(page.headers["Content-Security-Policy"] == "default-src 'none'; style-src 'unsafe-inline'")
    }
}
