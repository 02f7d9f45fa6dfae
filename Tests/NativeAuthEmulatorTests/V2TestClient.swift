import Foundation
import TestSupport
import Testing

@testable import NativeAuthEmulator

/// A native auth V2 client over the in-process harness (`EmulatorHarness`): it posts the form
/// requests of the OAuth endpoints and follows the hrefs of HAL answers with JSON bodies, as an SDK does.
struct V2TestClient {
    typealias H = EmulatorHarness
    static let barbara = "barbara@example.com"
    static let barbaraPassword = "Substitution-Principle-1987"
    static let margaret = "margaret@example.com"
    static let hedy = "hedy@example.com"
    static let alanPassword = "Turing-Machine-1936"
    static let katherinePassword = "Orbital-Mechanics-1962"
    static let scope = "openid profile offline_access"

    let h: H
    /// The tenant segment the client uses (`emulator.onmicrosoft.com`, the tenant id or the subdomain).
    var tenant: String

    init(_ h: H, tenant: String? = nil) {
        self.h = h
        self.tenant = tenant ?? "\(h.router.seed.tenant.subdomain).onmicrosoft.com"
    }

    /// POSTs a form to `/T/oauth2/v2.0/{endpoint}`.
    func form(_ endpoint: String, _ fields: [String: String?], headers: [String: String] = [:]) -> H.Reply {
        let body = fields.compactMap { key, value in value.map { "\(Self.escape(key))=\(Self.escape($0))" } }.sorted().joined(
            separator: "&")
        return h.send(
            "POST", "/\(tenant)/oauth2/v2.0/\(endpoint)", body: Data(body.utf8),
            headers: ["Content-Type": "application/x-www-form-urlencoded"].merging(headers) { _, new in new })
    }

    /// The entry: 401 with a token and the journey links.
    func entry(clientId: String = H.passwordApp, scope: String? = V2TestClient.scope, extra: [String: String?] = [:]) -> H.Reply {
        var fields: [String: String?] = ["client_id": clientId, "response_type": "code", "scope": scope]
        fields.merge(extra) { _, new in new }
        return form("authorize-challenge", fields)
    }

    /// Sends `body` as JSON to an href of an answer (relative, as the emulator writes them by default).
    func follow(_ href: String?, _ body: [String: Any], method: String = "POST", headers: [String: String] = [:]) -> H.Reply {
        let data = (try? JSONSerialization.data(withJSONObject: body)) ?? Data()
        // An absolute href (hook `href_style: absolute`) names the harness's base URL; a templated one
        // (`templated`) starts with `{tenant}`, which the client replaces with its tenant segment.
        let path =
            href.map { ($0.hasPrefix(h.base) ? String($0.dropFirst(h.base.count)) : $0).replacingOccurrences(of: "{tenant}", with: tenant) }
            ?? "/missing-href"
        return h.send(
            method, path, body: data,
            headers: ["Content-Type": "application/json", "Accept": "application/hal+json"].merging(headers) { _, new in new })
    }

    /// The entry, then `signin/start` for `username`.
    func start(_ username: String, clientId: String = H.passwordApp, extra: [String: String?] = [:]) -> H.Reply {
        let entry = entry(clientId: clientId, extra: extra)
        return follow(entry["sign_in"] as? String, ["username": username, "continuationToken": entry.token ?? ""])
    }

    /// Resumes with a `continue` answer's token.
    func resume(_ answer: H.Reply) -> H.Reply {
        form("authorize-challenge", ["continuation_token": answer.ct])
    }

    /// Redeems a resume's code.
    func redeem(_ code: String?, clientId: String = H.passwordApp, scope: String? = V2TestClient.scope, extra: [String: String?] = [:])
        -> H.Reply
    {
        var fields: [String: String?] = [
            "grant_type": "authorization_code", "code": code, "client_id": clientId, "scope": scope, "client_info": "1",
        ]
        fields.merge(extra) { _, new in new }
        return form("token", fields)
    }

    /// Resume and token exchange after a `continue` answer; returns the token response.
    func finish(_ answer: H.Reply, clientId: String = H.passwordApp) throws -> H.Reply {
        try #require(answer.status == 200 && answer["state"] as? String == "continue", "not continue: \(answer.json)")
        let resumed = resume(answer)
        try #require(resumed.status == 200, "resume failed: \(resumed.json)")
        let tokens = redeem(resumed["code"] as? String, clientId: clientId)
        try #require(tokens.status == 200, "token failed: \(tokens.json)")
        return tokens
    }

    /// Challenges the listed method of `type` in `answer`.
    func challenge(_ answer: H.Reply, type: String) -> H.Reply {
        follow(answer.methodLink(type, "challenge"), ["continuationToken": answer.ct ?? ""])
    }

    /// Verifies with `answer`'s `verify` link.
    func verify(_ answer: H.Reply, _ fields: [String: Any]) -> H.Reply {
        var body = fields
        body["continuationToken"] = answer.ct ?? ""
        return follow(answer.link("verify"), body)
    }

    /// A password sign-in up to the answer after the password.
    func password(_ username: String, _ password: String) -> H.Reply {
        let started = start(username)
        let asked = challenge(started, type: "password")
        return verify(asked, ["password": password])
    }

    /// The newest code mailed to `username`, with its mailbox entry.
    func lastMail(_ username: String) -> [String: Any]? {
        h.hook("GET", "mailbox", query: ["username": username]).list.last
    }

    private static func escape(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed)!
    }
}

extension EmulatorHarness.Reply {
    /// The HAL answer's `continuationToken` (or the entry's `continuation_token`).
    var ct: String? { json["continuationToken"] as? String ?? json["continuation_token"] as? String }
    /// A relation's href in `_links`.
    func link(_ relation: String) -> String? { ((json["_links"] as? [String: Any])?[relation] as? [String: Any])?["href"] as? String }
    /// `_embedded.methods`.
    var methods: [[String: Any]] { (json["_embedded"] as? [String: Any])?["methods"] as? [[String: Any]] ?? [] }
    /// The href of `relation` of the first listed method of `type`.
    func methodLink(_ type: String, _ relation: String) -> String? {
        let method = methods.first { $0["type"] as? String == type }
        return ((method?["_links"] as? [String: Any])?[relation] as? [String: Any])?["href"] as? String
    }
    /// The nested HAL error: `error.code`, `error.innerError.code`, `error.message`.
    var hal: (code: String?, inner: String?, message: String?) {
        let error = json["error"] as? [String: Any]
        return (error?["code"] as? String, (error?["innerError"] as? [String: Any])?["code"] as? String, error?["message"] as? String)
    }
    var action: String? { json["action"] as? String }
    var state: String? { json["state"] as? String }
}
