import Foundation
import NativeAuthEmulator
import Testing

/// An in-process emulator with helpers to call it as a client would (the emulator's own tests and
/// the end-to-end tests of the SDK against it).
package struct EmulatorHarness {
    package static let passwordApp = Seed.demo.apps[0].clientId
    package static let codeApp = Seed.demo.apps[1].clientId
    package static let ada = "ada@example.com"
    package static let adaPassword = "Analytical-Engine-1843"
    package static let grace = "grace@example.com"
    package static let all = "oob password redirect"

    package let router: EmulatorRouter
    package let base = "http://127.0.0.1:9"
    package var tenant: String { "/\(router.seed.tenant.subdomain).onmicrosoft.com" }

    /// `frozenAt`: the emulator's wall clock stands still there (default: the real clock), e.g. to
    /// issue several tokens in one second.
    package init(seed: Seed = .demo, frozenAt: Date? = nil, configure: (inout EmulatorConfiguration) -> Void = { _ in }) throws {
        var configuration = EmulatorConfiguration()
        configuration.passwordHashIterations = 1000
        configure(&configuration)
        router = try EmulatorRouter(seed: seed, configuration: configuration, now: { frozenAt ?? Date() })
    }

    package struct Reply {
        package var status: Int
        package var headers: [String: String]
        package var body: Data
        package var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:] }
        package var list: [[String: Any]] { ((try? JSONSerialization.jsonObject(with: body)) as? [[String: Any]]) ?? [] }
        package var error: String? { json["error"] as? String }
        package var suberror: String? { json["suberror"] as? String }
        package var codes: [Int] { json["error_codes"] as? [Int] ?? [] }
        package var token: String? { json["continuation_token"] as? String }
        package subscript(key: String) -> Any? { json[key] }
    }

    /// POSTs a form to a native-auth endpoint (path relative to the authority).
    @discardableResult
    package func post(_ endpoint: String, _ fields: [String: String?], clientId: String? = passwordApp, headers: [String: String] = [:])
        -> Reply
    {
        var all = fields
        if all["client_id"] == nil, let clientId { all["client_id"] = clientId }
        let body = all.compactMap { key, value in value.map { "\(escape(key))=\(escape($0))" } }.sorted().joined(separator: "&")
        return send(
            "POST", tenant + endpoint, body: Data(body.utf8),
            headers: ["Content-Type": "application/x-www-form-urlencoded"].merging(headers) { _, new in new })
    }

    package func send(_ method: String, _ path: String, query: [String: String] = [:], body: Data = Data(), headers: [String: String] = [:])
        -> Reply
    {
        let response = router.handle(EmulatorRequest(method: method, path: path, query: query, headers: headers, body: body, baseURL: base))
        return Reply(status: response.status, headers: response.headers, body: response.body)
    }

    package func hook(_ method: String, _ name: String, query: [String: String] = [:], json: Any? = nil) -> Reply {
        let body = json.map { (try? JSONSerialization.data(withJSONObject: $0)) ?? Data() } ?? Data()
        return send(method, "/_emulator/" + name, query: query, body: body, headers: ["Content-Type": "application/json"])
    }

    private func escape(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed)!.replacingOccurrences(of: "%20", with: "+")
    }

    /// The latest code mailed to `username`.
    package func lastCode(_ username: String) -> String? {
        hook("GET", "mailbox", query: ["username": username]).list.last?["code"] as? String
    }

    package func advanceClock(_ seconds: Int) {
        _ = hook("POST", "clock", json: ["advance_seconds": seconds])
    }

    // MARK: Flows

    package func initiate(_ username: String, clientId: String = passwordApp, types: String = all) -> Reply {
        post("/oauth2/v2.0/initiate", ["username": username, "challenge_type": types], clientId: clientId)
    }

    package func challenge(_ token: String?, clientId: String = passwordApp, types: String = all) -> Reply {
        post("/oauth2/v2.0/challenge", ["continuation_token": token, "challenge_type": types], clientId: clientId)
    }

    /// initiate + challenge for a password user; returns the token for the password grant.
    package func passwordToken(_ username: String = ada) throws -> String {
        let initiated = initiate(username).token
        let first = try #require(initiated)
        let challenged = challenge(first).token
        return try #require(challenged)
    }

    package func passwordGrant(
        _ token: String, username: String = ada, password: String = adaPassword,
        scope: String = "openid profile offline_access"
    ) -> Reply {
        post(
            "/oauth2/v2.0/token",
            [
                "continuation_token": token, "grant_type": "password", "username": username, "password": password,
                "scope": scope, "challenge_type": Self.all, "client_info": "true",
            ])
    }

    /// A full password sign-in; returns the token response.
    package func signIn(scope: String = "openid profile offline_access") throws -> Reply {
        let reply = passwordGrant(try passwordToken(), scope: scope)
        try #require(reply.status == 200, "sign-in failed: \(reply.json)")
        return reply
    }
}
