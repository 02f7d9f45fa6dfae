import Foundation

/// The `GET {authority}/oauth2/v2.0/authorize` request of a browser sign-in (docs/error-mapping.md#authorize-request), as a value
/// that renders one URL. Pure: the secrets and the correlation id are inputs, so the same input
/// always gives the same URL.
///
/// ```swift
/// // given: authority: URL, clientId: String, listenerURI: String
/// let secrets = AuthorizationSecrets.generate()
/// var request = AuthorizationRequest(
///     authorizeEndpoint: AuthorizationRequest.authorizeEndpoint(authority: authority),
///     clientId: clientId, redirectURI: listenerURI, scopes: ["User.Read"],
///     secrets: secrets, correlationId: UUID())
/// request.prompt = .login
/// let url = try request.url()
/// ```
package struct AuthorizationRequest: Sendable, Equatable {
    /// `{authority}/oauth2/v2.0/authorize`; any query of its own (`dc`, `slice`) is kept first.
    package var authorizeEndpoint: URL
    /// `client_id`.
    package var clientId: String
    /// `redirect_uri`, byte for byte as the token request will send it (RFC 6749 §4.1.3).
    package var redirectURI: String
    /// The app's scopes; sent first in `scope`.
    package var scopes: [String]
    /// Scopes to consent to now without a token for them (`extraScopesToConsent`); sent last in `scope`.
    package var extraScopesToConsent: [String] = []
    /// PKCE challenge, `state` and `nonce`.
    package var secrets: AuthorizationSecrets
    /// `client-request-id`.
    package var correlationId: UUID
    /// `prompt`; `.promptIfNecessary` sends none.
    package var prompt: MSALPromptType = .selectAccount
    /// `login_hint`: the account's username, else the app's hint.
    package var loginHint: String?
    /// `domain_hint`.
    package var domainHint: String?
    /// `claims`: the claims request as JSON text (with `xms_cc` capabilities merged in by the caller).
    package var claims: String?
    /// `instance_aware=true` when the app supports several clouds.
    package var instanceAware = false
    /// `x-app-name`, sent when not empty.
    package var appName: String?
    /// `x-app-ver`, sent when not empty.
    package var appVersion: String?
    /// The app's `extraQueryParameters`, appended sorted by name. A name the request already sends
    /// (for example `claims` with a claims request) is refused rather than sent twice.
    package var extraQueryParameters: [String: String] = [:]

    /// A request with the required values; set the optional ones afterwards.
    package init(
        authorizeEndpoint: URL, clientId: String, redirectURI: String, scopes: [String], secrets: AuthorizationSecrets,
        correlationId: UUID
    ) {
        self.authorizeEndpoint = authorizeEndpoint
        self.clientId = clientId
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.secrets = secrets
        self.correlationId = correlationId
    }

    /// `{authority}/oauth2/v2.0/authorize`, the path appended as the native-auth endpoints are.
    package static func authorizeEndpoint(authority: URL) -> URL {
        var components = URLComponents(url: authority, resolvingAgainstBaseURL: false)!
        while components.path.hasSuffix("/") { components.path.removeLast() }
        components.path += "/oauth2/v2.0/authorize"
        return components.url!
    }

    /// `scope`: the app's scopes, `openid profile offline_access`, then the extra scopes; blank ones
    /// dropped, duplicates (ignoring case) dropped, first spelling and order kept.
    package var scope: [String] {
        var seen = Set<String>()
        var out: [String] = []
        for scope in Scopes.withDefaults(scopes) + extraScopesToConsent {
            let trimmed = scope.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, seen.insert(trimmed.lowercased()).inserted else { continue }
            out.append(trimmed)
        }
        return out
    }

    /// The query parameters in the order sent, absent values left out.
    ///
    /// Throws `.invalidParameter` (-42000) when an extra query parameter repeats one of them.
    package func parameters() throws(InteractiveAuthorizationError) -> [(String, String)] {
        var fields: [(String, String?)] = [
            ("client_id", clientId),
            ("response_type", "code"),
            ("redirect_uri", redirectURI),
            ("scope", Scopes.wire(scope)),
            ("state", secrets.state),
            ("code_challenge", secrets.pkce.challenge),
            ("code_challenge_method", PKCE.method),
            ("client_info", "1"),
            ("prompt", prompt.wireValue),
            ("login_hint", nonEmpty(loginHint)),
            ("domain_hint", nonEmpty(domainHint)),
            ("claims", nonEmpty(claims)),
            ("nonce", secrets.nonce),
            ("instance_aware", instanceAware ? "true" : nil),
            ("client-request-id", correlationId.uuidString),
            ("return-client-request-id", "true"),
            ("x-client-SKU", NativeAuthClient.sku),
            ("x-client-Ver", MSALNativeAuthSDK.version),
            ("x-client-OS", NativeAuthClient.operatingSystemVersion),
            ("x-client-CPU", MemoryLayout<Int>.size == 8 ? "64" : "32"),
            ("x-app-name", nonEmpty(appName)),
            ("x-app-ver", nonEmpty(appVersion)),
        ]
        let sent = Set(fields.compactMap { $0.1 == nil ? nil : $0.0.lowercased() })
        for name in extraQueryParameters.keys.sorted() {
            guard !sent.contains(name.lowercased()) else {
                let detail = name.lowercased() == "claims" ? " (claims belong in the claims request, not in both places)" : ""
                throw .invalidParameter("extraQueryParameters repeats the parameter \(name), which the request already sends\(detail)")
            }
            fields.append((name, extraQueryParameters[name]))
        }
        return fields.compactMap { name, value in value.map { (name, $0) } }
    }

    /// The URL to open in the browser.
    package func url() throws(InteractiveAuthorizationError) -> URL {
        let query = String(decoding: FormEncoding.encode(try parameters()), as: UTF8.self)
        var text = authorizeEndpoint.absoluteString
        if let fragment = text.firstIndex(of: "#") { text = String(text[..<fragment]) }
        let separator = text.contains("?") ? (text.hasSuffix("?") || text.hasSuffix("&") ? "" : "&") : "?"
        guard let url = URL(string: text + separator + query) else {
            throw .invalidParameter("the authorize endpoint \(authorizeEndpoint.absoluteString) does not form a URL")
        }
        return url
    }

    private func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
