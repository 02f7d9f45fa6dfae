import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How the loopback listener reads a request head: the route it asks for, and the texts of its pages.
extension LoopbackRedirectListener {
    /// What a request head asks for.
    package enum Route: Sendable, Equatable {
        /// Not `GET` on the redirect path or the short address's, or no `code`/`error` in the query.
        case notFound
        /// A malformed request line or query.
        case badRequest
        /// An authorization response whose `state` is missing or different.
        case stateMismatch
        /// The authorization response for this request.
        case response(AuthorizationResponse)
        /// `GET` on the short address's path without an authorization response in its query, from a
        /// browser that names this machine in `Host`: answered with a redirect to the authorize URL.
        case shortAddress
        /// The short address without an authorization response, but `Host` names another machine (a page
        /// that rebound its DNS name to 127.0.0.1, say): refused, so that it cannot read the URL.
        case foreignHost
    }

    /// The query names of an authorization response (RFC 6749 §4.1.2): a request carrying any of
    /// them is never taken for the short address.
    private static let responseNames: Set<String> = ["code", "error", "state"]

    /// Classifies a request head (request line and headers, without the blank line).
    package static func route(_ head: String, requestPath: String, shortAddressPath: String, expectedState: String) -> Route {
        // By Unicode scalar: "\r\n" is one Character in Swift.
        let requestLine = String(String.UnicodeScalarView(head.unicodeScalars.prefix { $0 != "\r" && $0 != "\n" }))
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return .badRequest }
        guard parts[0] == "GET" else { return .notFound }
        let target = parts[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard target[0] == requestPath || target[0] == shortAddressPath else { return .notFound }
        let query = target.count > 1 ? String(target[1]) : ""
        guard let pairs = FormEncoding.decode(Data(query.utf8)) else { return .badRequest }
        if target[0] == shortAddressPath, !pairs.contains(where: { responseNames.contains($0.0) }) {
            return hostIsLoopback(head) ? .shortAddress : .foreignHost
        }
        guard target[0] == requestPath, let response = AuthorizationResponse(query: pairs) else { return .notFound }
        guard let state = response.state, constantTimeEqual(state, expectedState) else { return .stateMismatch }
        return .response(response)
    }

    /// Whether the head has a `Host` header and every one names this machine (`localhost`,
    /// `127.0.0.0/8`, `[::1]`, with any port).
    private static func hostIsLoopback(_ head: String) -> Bool {
        let hosts = head.components(separatedBy: "\r\n").dropFirst().compactMap { line -> Substring? in
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "host" else { return nil }
            return line[line.index(after: colon)...].drop(while: { $0 == " " || $0 == "\t" })
        }
        return !hosts.isEmpty
            && hosts.allSatisfy { value in
                let trimmed = value.trimmingCharacters(in: .whitespaces)
                let name =
                    trimmed.hasPrefix("[")
                    ? trimmed.prefix { $0 != "]" } + "]" : trimmed.prefix { $0 != ":" }
                return !name.isEmpty && MSALAuthority.isLoopback(String(name))
            }
    }

    /// "Authentication failed. {error}: {error_description}." (unescaped; the page escapes it).
    package static func errorText(for response: AuthorizationResponse, error: String) -> String {
        guard let description = response.errorDescription else { return "Authentication failed. \(error)." }
        return "Authentication failed. \(error): \(description)."
    }

    private static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
