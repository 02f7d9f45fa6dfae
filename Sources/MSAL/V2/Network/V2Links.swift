import Foundation

/// Where native auth V2 sends its interaction requests: the hrefs the server returns, resolved and
/// checked here before anything is sent (docs/decisions.md#v2-links). The SDK builds only the
/// authorize-challenge and token URLs itself.
///
/// Resolution: a relative href (`/T/api/v2.0/signin/start`) is taken against the authority's origin
/// with its path and query kept as given; a leading `{tenant}` segment becomes the authority's tenant
/// segment. Nothing is added: the configured `dc` slice goes only on the URLs the SDK builds, as in
/// MSAL 2.19.2 (docs/compatibility.md#native-auth-v2).
/// Validation: the result must have the authority's scheme, host and port, no user-info, no
/// fragment and no empty path segment; a network-path href (`//host/…`) is refused outright, and
/// `http` is followed only for a loopback authority (the V1 rule for the authority itself).
package struct V2Links: Sendable {
    package let authority: URL

    package init(authority: URL) {
        self.authority = authority
    }

    /// Why an href is not followed; the flow fails with a general error and sends nothing.
    package struct Refusal: Error, Sendable, Equatable {
        package let message: String
    }

    /// The absolute URL `href` names, or why the SDK will not send a request there.
    package func resolve(_ href: String) throws(Refusal) -> URL {
        let text = href.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw Refusal(message: "The server sent an empty link") }
        guard !text.hasPrefix("//") else { throw refused("a network-path link") }
        var raw = text
        if raw.hasPrefix("{tenant}") || raw.hasPrefix("/{tenant}") {
            let rest = raw.drop { $0 == "/" }.dropFirst("{tenant}".count)
            raw = "/" + tenantSegment + rest
        }
        guard var components = URLComponents(string: raw) else { throw refused("a link that is not a URL") }
        if components.scheme == nil {
            guard components.host == nil, raw.hasPrefix("/") else { throw refused("a relative link without a leading '/'") }
            var origin = URLComponents(url: authority, resolvingAgainstBaseURL: false)!
            origin.percentEncodedPath = components.percentEncodedPath
            origin.percentEncodedQuery = components.percentEncodedQuery
            origin.fragment = components.fragment
            components = origin
        }
        try check(components)
        guard let url = components.url else { throw refused("a link that is not a URL") }
        return url
    }

    /// `url`, an absolute URL a saved state holds (already resolved when it was saved), if it
    /// passes the checks `resolve` makes.
    package func check(absolute url: String) throws(Refusal) -> URL {
        guard let components = URLComponents(string: url), components.scheme != nil, let parsed = components.url else {
            throw refused("a link that is not an absolute URL")
        }
        try check(components)
        return parsed
    }

    /// The first path segment of the authority (`contoso.onmicrosoft.com`, a tenant id).
    private var tenantSegment: String {
        authority.path.split(separator: "/").first.map(String.init) ?? ""
    }

    private func check(_ components: URLComponents) throws(Refusal) {
        let scheme = components.scheme?.lowercased()
        guard scheme == authority.scheme?.lowercased(),
            scheme == "https" || (scheme == "http" && MSALAuthority.isLoopback(authority.host ?? ""))
        else { throw refused("a link with another scheme") }
        guard components.host?.lowercased() == authority.host?.lowercased() else { throw refused("a link to another host") }
        guard effectivePort(components.port, scheme) == effectivePort(authority.port, scheme) else {
            throw refused("a link to another port")
        }
        guard components.user == nil, components.password == nil else { throw refused("a link with user information") }
        guard components.fragment == nil else { throw refused("a link with a fragment") }
        let segments = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard components.percentEncodedPath.hasPrefix("/"), !segments.contains(where: \.isEmpty) else {
            throw refused("a link with an empty path segment")
        }
    }

    private func effectivePort(_ port: Int?, _ scheme: String?) -> Int {
        port ?? (scheme == "http" ? 80 : 443)
    }

    private func refused(_ what: String) -> Refusal {
        Refusal(message: "The server sent \(what); the SDK follows links only to the authority's origin")
    }
}
