import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Which redirect URIs the loopback listener takes: `http://localhost`, `http://127.0.0.1` or
/// `http://[::1]`, with an optional port and path, and nothing else.
extension LoopbackRedirectListener {
    /// Validates a redirect URI for the loopback listener (docs/error-mapping.md#loopback-redirect).
    package static func endpoint(for redirectURI: URL?) throws(InteractiveAuthorizationError) -> Endpoint {
        guard let redirectURI else { return Endpoint(host: "localhost", port: 0, path: "") }
        let text = redirectURI.absoluteString
        guard let components = URLComponents(url: redirectURI, resolvingAgainstBaseURL: false),
            components.scheme?.lowercased() == "http", let host = components.host?.lowercased(),
            components.user == nil, components.password == nil, components.query == nil, components.fragment == nil
        else {
            throw .invalidRedirectURI("the redirect URI \(text) is not http://localhost[:port][/path]")
        }
        guard ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host) else {
            throw .invalidRedirectURI("the redirect URI \(text) is not a loopback address (localhost, 127.0.0.1 or [::1])")
        }
        guard let port = components.port.flatMap(UInt16.init(exactly:)) ?? (components.port == nil ? 0 : nil) else {
            throw .invalidRedirectURI("the redirect URI \(text) has an invalid port")
        }
        return Endpoint(
            host: host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host, port: port, path: components.percentEncodedPath)
    }
}
