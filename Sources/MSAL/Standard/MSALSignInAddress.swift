import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where a person signs in when no browser could be started, for example over SSH
/// (docs/usage.md#signing-in-over-ssh). `MSALWebviewParameters.signInAddressHandler` receives it.
///
/// Besides the full authorization URL (about 850 characters) it carries the short address of the
/// SDK's loopback listener, `http://localhost:PORT/` plus a random path, which redirects to that URL
/// while the sign-in waits, and the `ssh -L` line that brings the listener's port (and, when the authority is itself
/// on this machine's loopback, as the emulator is, the authority's port too) to the person's own
/// machine, where the browser is.
///
/// ```swift
/// // given: app: MSALPublicClientApplication
/// let webview = MSALWebviewParameters()
/// webview.signInAddressHandler = { address in
///     print("Open \(address.shortURL) in a browser.")
///     print("On your own machine, forward the port first: \(address.sshCommand)")
/// }
/// let parameters = MSALInteractiveTokenParameters(scopes: ["User.Read"], webviewParameters: webview)
/// let result = try await app.acquireToken(with: parameters)
/// ```
public struct MSALSignInAddress: Sendable, Equatable {
    /// The full authorization URL, as `authorizationURLHandler` receives it.
    public let authorizationURL: URL
    /// The listener's short address, `http://localhost:PORT/` and eight random characters (the
    /// redirect URI's host): opening it while the sign-in waits leads to `authorizationURL`;
    /// afterwards it answers nothing.
    public let shortURL: URL
    /// The listener's port, the one in `shortURL` and in the redirect URI.
    public let port: Int
    /// The ports the person's machine must forward to this one: `port`, then the authority's when
    /// the authority is a loopback address (the emulator); the same number on both ends.
    public let forwardedPorts: [Int]
    /// Who to connect to, `user@address`: the user (`$USER`, else `$LOGNAME`) and the server address
    /// of `$SSH_CONNECTION`, as this machine's SSH server saw the connection. Nil when it is not
    /// known (no `$SSH_CONNECTION`, or a loopback address, as through a tunnel).
    public let sshDestination: String?
    /// The command to run on the person's machine, for example
    /// `ssh -L 43123:localhost:43123 ada@203.0.113.5`: one `-L` for each of `forwardedPorts`, `-p`
    /// when the SSH server's port is not 22, and `user@host` as a placeholder when `sshDestination`
    /// is nil.
    public let sshCommand: String

    /// The placeholder `sshCommand` ends with when the destination is not known.
    public static let sshDestinationPlaceholder = "user@host"

    /// The address for a sign-in whose listener answers at `shortURL`, against `authority`, with
    /// `$SSH_CONNECTION`, `$USER` and `$LOGNAME` read from `environment`.
    package init(authorizationURL: URL, shortURL: URL, authority: URL, environment: [String: String]) {
        self.authorizationURL = authorizationURL
        self.shortURL = shortURL
        port = shortURL.port ?? 80
        var forwards = [(port, Self.bracketed(shortURL.host ?? "localhost"))]
        if let host = authority.host, MSALAuthority.isLoopback(host) {
            let authorityPort = authority.port ?? (authority.scheme?.lowercased() == "https" ? 443 : 80)
            if authorityPort != port { forwards.append((authorityPort, Self.bracketed(host))) }
        }
        forwardedPorts = forwards.map(\.0)
        let server = Self.sshServer(environment)
        let user = environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["LOGNAME"].flatMap { $0.isEmpty ? nil : $0 }
        sshDestination = server.map { address in user.map { "\($0)@\(address.host)" } ?? address.host }
        var words = ["ssh"] + forwards.flatMap { ["-L", "\($0.0):\($0.1):\($0.0)"] }
        if let server, server.port != 22 { words += ["-p", String(server.port)] }
        words.append(sshDestination.map(Self.shellWord) ?? Self.sshDestinationPlaceholder)
        sshCommand = words.joined(separator: " ")
    }

    /// `[::1]` for an IPv6 address (as `ssh -L` wants it), other hosts as they are.
    private static func bracketed(_ host: String) -> String {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return bare.contains(":") ? "[\(bare)]" : bare
    }

    /// The server address and port of `$SSH_CONNECTION` (`client-address client-port
    /// server-address server-port`); nil unless both are valid and the address is not loopback.
    private static func sshServer(_ environment: [String: String]) -> (host: String, port: Int)? {
        let fields = (environment["SSH_CONNECTION"] ?? "").split(separator: " ").map(String.init)
        guard fields.count == 4, let port = Int(fields[3]), (1...65_535).contains(port), isIPAddress(fields[2]),
            !MSALAuthority.isLoopback(fields[2])
        else { return nil }
        return (fields[2], port)
    }

    private static func isIPAddress(_ text: String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return inet_pton(AF_INET, text, &buffer) == 1 || inet_pton(AF_INET6, text, &buffer) == 1
    }

    /// `text` as one shell word: as it is when it holds only characters no shell treats specially,
    /// else in single quotes.
    private static func shellWord(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "@%+=:,./_-".unicodeScalars.contains($0))
        }
        return plain && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
