import CCrypto
import Foundation

/// What browser sign-in remembers (inside `EmulatorWorld`, under its one lock): the sign-in pages
/// in progress, the authorization codes, the SSO sessions behind the cookie, and the consents given.
struct BrowserState {
    /// Pending authorize requests by the page's hidden `flow` value (single use: every answer
    /// carries a new one).
    var pages: [String: PendingAuthorization] = [:]
    var codes: [String: AuthorizationCodeRecord] = [:]
    /// SSO sessions by cookie value.
    var sessions: [String: BrowserSession] = [:]
    /// Scopes a user consented to for a client: key `username|client_id` (lower-cased), values
    /// `{api app id}/{scope name}`.
    var consents: [String: Set<String>] = [:]
}

/// An authorize request waiting for the person at the page.
struct PendingAuthorization {
    enum Step {
        /// Username and password, or "send code".
        case signIn
        /// A code was mailed to `username`.
        case otp(username: String, code: OneTimeCode)
        /// Signed in; waiting for the consent page's answer.
        case consent(username: String, authTime: Date, acrs: Set<String>)
    }

    var request: AuthorizeRequest
    var step: Step = .signIn
    var createdAt: Date
    var passwordAttempts = 0
    var codeAttempts = 0
}

/// A validated authorize request.
struct AuthorizeRequest {
    var clientId: String
    /// Exactly as sent (the token call must repeat it byte for byte).
    var redirectUri: String
    var state: String?
    /// The requested scopes as sent, split on spaces, de-duplicated.
    var scopes: [String]
    var challenge: String
    var method: String
    var nonce: String?
    var claims: String?
    /// `acrs` values the `claims` parameter asks for in the access token.
    var acrs: [String]
    var prompt: Set<String>
    var loginHint: String?
    /// The tenant path segment the request used (the cookie's path).
    var tenantSegment: String

    /// The requested scopes that are not OIDC scopes.
    var resourceScopes: [String] { scopes.filter { !EmulatorRouter.oidcScopes.contains($0.lowercased()) } }
}

struct AuthorizationCodeRecord {
    var id: String
    var clientId: String
    var redirectUri: String
    var username: String
    /// All scopes the authorize request asked for (a token call may ask for these, no others).
    var requestedScopes: [String]
    /// Resource scopes granted (`{api app id}/{name}`): declined ones are missing.
    var grantedScopes: Set<String>
    var challenge: String
    var method: String
    var nonce: String?
    var claims: String?
    var acrs: [String]
    /// Authentication contexts the session had satisfied (carried into the refresh tokens).
    var satisfiedAcrs: Set<String>
    var issuedAt: Date
    var authTime: Date
    var redeemed = false
    /// Redeemed again: the tokens issued from it are revoked.
    var replayed = false
}

/// The browser's SSO session.
struct BrowserSession {
    var username: String
    var authTime: Date
    /// Authentication contexts satisfied by the interactive sign-in.
    var acrs: Set<String>
    var expiresAt: Date
}

/// Where a refresh token came from; kept when it rotates.
struct TokenLineage {
    /// The authorization code it descends from (revoked together when that code is replayed).
    var codeId: String?
    /// Authentication contexts the sign-in satisfied (a refresh with a `claims` request for them succeeds).
    var acrs: Set<String> = []
    var authTime: Date?
}

/// What `issueTokens` adds for the browser flow and its refresh tokens.
struct TokenExtras {
    var nonce: String?
    var authTime: Date?
    /// `acrs` claim of the access token.
    var acrs: [String] = []
    var lineage = TokenLineage()
}

enum BrowserRules {
    /// `acrs` values asked for in `claims` (`{"access_token":{"acrs":{"essential":true,"value":"c1"}}}`
    /// or `"values":[…]`); nil when `claims` is not a JSON object.
    static func requestedAcrs(_ claims: String?) -> [String]? {
        guard let claims else { return [] }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(claims.utf8))) as? [String: Any] else { return nil }
        guard let access = object["access_token"] as? [String: Any], let acrs = access["acrs"] as? [String: Any] else { return [] }
        var values: [String] = []
        if let value = acrs["value"] as? String { values.append(value) }
        for value in acrs["values"] as? [String] ?? [] where !values.contains(value) { values.append(value) }
        return values
    }

    /// The `claims` value that asks for `acrs`.
    static func acrsClaimsRequest(_ values: [String]) -> String {
        let inner = values.count == 1 ? #""value":"\#(values[0])""# : #""values":[\#(values.map { "\"\($0)\"" }.joined(separator: ","))]"#
        return #"{"access_token":{"acrs":{"essential":true,\#(inner)}}}"#
    }

    /// Registered-URI matching: exact, except loopback `http` URIs (`localhost`, `127.0.0.1`,
    /// `[::1]`), where the port is ignored and host, path and query must match (RFC 8252 §7.3).
    /// An empty path and `/` are the same path.
    static func redirectURIMatches(registered: String, requested: String) -> Bool {
        if registered == requested { return true }
        guard let wanted = URLComponents(string: registered), let got = URLComponents(string: requested),
            wanted.scheme?.lowercased() == "http", got.scheme?.lowercased() == "http",
            let wantedHost = loopbackHost(wanted), let gotHost = loopbackHost(got), wantedHost == gotHost,
            got.user == nil, got.password == nil, got.fragment == nil
        else { return false }
        func path(_ c: URLComponents) -> String { c.percentEncodedPath.isEmpty ? "/" : c.percentEncodedPath }
        return path(wanted) == path(got) && wanted.percentEncodedQuery == got.percentEncodedQuery
    }

    private static func loopbackHost(_ components: URLComponents) -> String? {
        guard var host = components.host?.lowercased() else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return ["localhost", "127.0.0.1", "::1"].contains(host) ? host : nil
    }

    /// `redirect_uri` with `/` added when an `http(s)` URI has no path, then `?`/`&` and the parameters.
    static func redirectLocation(_ redirectUri: String, _ parameters: [(String, String)]) -> String {
        var base = redirectUri
        if let components = URLComponents(string: redirectUri), ["http", "https"].contains(components.scheme?.lowercased() ?? ""),
            components.host != nil, components.percentEncodedPath.isEmpty
        {
            let cut = base.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? base.endIndex
            base.insert("/", at: cut)
        }
        if let hash = base.firstIndex(of: "#") { base = String(base[..<hash]) }
        guard !parameters.isEmpty else { return base }
        let query = parameters.map { "\(percentEncode($0.0))=\(percentEncode($0.1))" }.joined(separator: "&")
        return base + (base.contains("?") ? "&" : "?") + query
    }

    static func percentEncode(_ text: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// RFC 7636 §4.1: 43–128 characters of `[A-Za-z0-9-._~]` (verifiers, and challenges of both methods).
    static func isPKCEValue(_ text: String) -> Bool {
        (43...128).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    return true
                case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                    return true
                default:
                    return false
                }
            }
    }

    /// RFC 7636 §4.6, compared in constant time.
    static func verifierMatches(_ verifier: String, challenge: String, method: String) -> Bool {
        let derived = method == "S256" ? Base64URLCoding.encode(sha256(Data(verifier.utf8))) : verifier
        return Secrets.constantTimeEqual(derived, challenge)
    }

    static func sha256(_ data: Data) -> Data {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 32
        let ok = data.withUnsafeBytes { raw in EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_sha256(), nil) }
        return ok == 1 ? Data(digest.prefix(Int(length))) : Data()
    }

    /// A form body where names may repeat (the consent page's checkboxes); nil when malformed.
    static func parseForm(_ body: Data) -> [(String, String)]? {
        guard let text = String(data: body, encoding: .utf8) else { return nil }
        var fields: [(String, String)] = []
        for piece in text.split(separator: "&", omittingEmptySubsequences: true) {
            let halves = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String? { String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = decode(halves[0]), let value = halves.count > 1 ? decode(halves[1]) : "" else { return nil }
            fields.append((name, value))
        }
        return fields
    }

    /// The value of cookie `name` in a `Cookie` header.
    static func cookie(_ name: String, in header: String?) -> String? {
        for pair in (header ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}
