import Foundation
import NativeAuthTesting
import TestSupport
import Testing

@testable import NativeAuthEmulator

/// A headless browser for the authorize pages: keeps the SSO cookie, reads the page's form (hidden
/// inputs, checkboxes, buttons) from its HTML and posts it back, as a person's browser would.
struct BrowserDriver {
    typealias H = EmulatorHarness
    static let redirectUri = "http://localhost:5001"
    static let todoRead = "api://emulator/todolist/ToDoList.Read"
    static let todoWrite = "api://emulator/todolist/ToDoList.ReadWrite"
    static let profileRead = "api://emulator/profile/Profile.Read"

    let h: H
    var cookies: [String: String] = [:]
    let verifier: String
    var challenge: String { Base64URLCoding.encode(BrowserRules.sha256(Data(verifier.utf8))) }

    init(_ h: H) {
        self.h = h
        verifier = Base64URLCoding.encode(Secrets.randomBytes(32))
    }

    /// The query of a typical MSAL authorize request (`overrides` win; a nil value removes one).
    func query(scope: String = "\(todoRead) openid profile offline_access", _ overrides: [String: String?] = [:]) -> [String: String] {
        var query: [String: String?] = [
            "client_id": H.passwordApp, "response_type": "code", "redirect_uri": Self.redirectUri, "scope": scope,
            "state": "st+te/=1 ü", "code_challenge": challenge, "code_challenge_method": "S256", "client_info": "1",
            "nonce": "n-0S6_WzA2Mj",
        ]
        for (key, value) in overrides { query[key] = value }
        return query.compactMapValues { $0 }
    }

    var cookieHeader: [String: String] {
        cookies.isEmpty ? [:] : ["Cookie": cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")]
    }

    mutating func authorize(_ query: [String: String], tenant: String? = nil) -> Page {
        let reply = h.send("GET", (tenant ?? h.tenant) + "/oauth2/v2.0/authorize", query: query, headers: cookieHeader)
        keepCookies(reply)
        return Page(reply)
    }

    /// Submits the page's form: its hidden inputs, then `fields`, then the button `action`.
    /// `scopes`: the checkboxes left checked (nil: as the page has them).
    mutating func submit(_ page: Page, action: String, _ fields: [String: String] = [:], scopes: [String]? = nil) -> Page {
        var pairs = page.hidden.map { ($0.key, $0.value) }
        for (key, value) in fields { pairs.append((key, value)) }
        for scope in scopes ?? page.checkboxes { pairs.append(("scope", scope)) }
        pairs.append(("action", action))
        let body = pairs.map { "\(BrowserRules.percentEncode($0.0))=\(BrowserRules.percentEncode($0.1))" }.joined(separator: "&")
        let reply = h.send(
            "POST", page.formAction ?? (h.tenant + "/oauth2/v2.0/authorize"), body: Data(body.utf8),
            headers: cookieHeader.merging(["Content-Type": "application/x-www-form-urlencoded"]) { _, new in new })
        keepCookies(reply)
        return Page(reply)
    }

    private mutating func keepCookies(_ reply: H.Reply) {
        guard let header = reply.headers["Set-Cookie"], let pair = header.split(separator: ";").first else { return }
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let value = parts.count > 1 ? String(parts[1]) : ""
        if value.isEmpty || header.contains("Max-Age=0") { cookies[String(parts[0])] = nil } else { cookies[String(parts[0])] = value }
    }

    /// Password sign-in from a fresh authorize request; returns the redirect's parameters.
    mutating func signIn(
        username: String = H.ada, password: String = H.adaPassword, _ query: [String: String]? = nil
    ) throws -> [String: String] {
        let page = authorize(query ?? self.query())
        try #require(page.status == 200 && page.step == "sign_in", "expected the sign-in page, got \(page.status) \(page.html)")
        let done = submit(page, action: "password", ["username": username, "password": password])
        try #require(done.status == 302, "expected the redirect, got \(done.status) \(done.html)")
        return done.redirect
    }

    /// `grant_type=authorization_code`.
    func redeem(
        _ code: String?, verifier: String? = nil, redirectUri: String = redirectUri,
        scope: String = "\(todoRead) openid profile offline_access", clientId: String = H.passwordApp
    ) -> H.Reply {
        h.post(
            "/oauth2/v2.0/token",
            [
                "grant_type": "authorization_code", "code": code, "redirect_uri": redirectUri, "code_verifier": verifier ?? self.verifier,
                "scope": scope, "client_info": "1",
            ], clientId: clientId)
    }
}

/// One answer of the authorize endpoint, with its form read out of the HTML (`HTMLForm`, shipped
/// in NativeAuthTesting).
struct Page {
    var status: Int
    var headers: [String: String]
    var html: String
    private var form: HTMLForm { HTMLForm(html: html) }

    init(_ reply: EmulatorHarness.Reply) {
        status = reply.status
        headers = reply.headers
        html = String(decoding: reply.body, as: UTF8.self)
    }

    var formAction: String? { form.action }
    var step: String? { form.step }
    var hidden: [String: String] { form.hidden }
    var inputs: [String] { form.inputs }
    var checkboxes: [String] { form.checkboxes }
    var buttons: [String] { form.buttons }
    var message: String? { form.message }
    var errorCode: String? { form.errorCode }
    var location: String? { headers["Location"] }
    /// The redirect's query parameters.
    var redirect: [String: String] {
        guard let location, let items = URLComponents(string: location)?.queryItems else { return [:] }
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
    }
}
