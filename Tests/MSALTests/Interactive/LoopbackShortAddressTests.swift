import Foundation
import TestSupport
import Testing

@testable import MSAL

/// The loopback listener's short address (docs/usage.md#signing-in-over-ssh) over real sockets:
/// `GET` on its path without an authorization response is redirected to the authorize URL while the sign-in
/// waits, and never otherwise.
@Suite(.tags(.concurrency)) struct LoopbackShortAddressTests {
    private static let state = "expected-state_123"
    /// Six 0xAB bytes, the listeners' randomness here: the short address's path is then this.
    private static let random = RandomBytes { Array(repeating: 0xAB, count: $0) }
    private static let path = "/q6urq6ur"

    /// An authorize URL like the SDK's, with `&` to escape on the page; unique per test, so that an
    /// answer from another test's listener given the same port later can never carry it.
    private static func authorizeURL(port: UInt16) -> URL {
        URL(
            string: "https://login.example/contoso.onmicrosoft.com/oauth2/v2.0/authorize?client_id=c&response_type=code"
                + "&redirect_uri=http%3A%2F%2Flocalhost%3A\(port)&state=\(state)&nonce=\(UUID().uuidString)")!
    }

    private func started(_ redirectURI: String? = nil) throws -> (listener: LoopbackRedirectListener, port: UInt16, target: URL) {
        let listener = try LoopbackRedirectListener(
            redirectURI: redirectURI.map { URL(string: $0)! }, expectedState: Self.state, random: Self.random)
        let url = try listener.start()
        let port = UInt16(try #require(url.port))
        let target = Self.authorizeURL(port: port)
        #expect(listener.offerShortAddress(redirectingTo: target))
        return (listener, port, target)
    }

    private func status(_ answer: String) -> String {
        answer.components(separatedBy: "\r\n").first ?? ""
    }

    /// The value of header `name` in an answer's head.
    private func header(_ name: String, _ answer: String) -> String? {
        let head = answer.components(separatedBy: "\r\n\r\n").first ?? ""
        return head.components(separatedBy: "\r\n").dropFirst().first { $0.lowercased().hasPrefix(name.lowercased() + ": ") }.map {
            String($0.dropFirst(name.count + 2))
        }
    }

    @Test func theShortAddressRedirectsToExactlyTheAuthorizeURLAndTheSignInGoesOn() async throws {
        let (listener, port, target) = try started()
        #expect(listener.shortAddress?.absoluteString == "http://localhost:\(port)\(Self.path)")
        async let response = listener.waitForResponse(timeout: LoopbackTestClient.patience)

        let answer = try await LoopbackTestClient.get(Self.path, port: port)
        #expect(status(answer) == "HTTP/1.1 302 Found")
        #expect(header("Location", answer) == target.absoluteString)
        #expect(header("Cache-Control", answer) == "no-store" && header("Referrer-Policy", answer) == "no-referrer")
        #expect(header("Connection", answer) == "close")
        // The link for a client that does not follow redirects, its `&` escaped.
        let escaped = target.absoluteString.replacingOccurrences(of: "&", with: "&amp;")
        #expect(answer.contains(#"<a href="\#(escaped)">"#), "\(answer)")
        // Asked again (a reload, a second tab): the same answer while the sign-in waits.
        #expect(header("Location", try await LoopbackTestClient.get(Self.path + "?from=bookmark", port: port)) == target.absoluteString)

        let real = try await LoopbackTestClient.get("/?code=REAL&state=\(Self.state)", port: port)
        #expect(status(real) == "HTTP/1.1 200 OK")
        #expect(try await response.code == "REAL")
    }

    /// A query with any of `code`, `error`, `state` is an authorization response (or a forged one)
    /// and keeps today's answers: never the redirect to the authorize URL.
    @Test func aQueryWithAResponseParameterIsNeverTheShortAddress() async throws {
        let (listener, port, authorizeURL) = try started()
        async let response = listener.waitForResponse(timeout: LoopbackTestClient.patience)
        let cases: [(String, String)] = [
            ("/?state=attacker", "HTTP/1.1 404 Not Found"),
            ("/?state=\(Self.state)", "HTTP/1.1 404 Not Found"),
            ("/?state=", "HTTP/1.1 404 Not Found"),
            ("/?code=", "HTTP/1.1 404 Not Found"),
            ("/?code=FORGED&state=attacker", "HTTP/1.1 400 Bad Request"),
            ("/?code=FORGED", "HTTP/1.1 400 Bad Request"),
            ("/?error=access_denied", "HTTP/1.1 400 Bad Request"),
            ("/?x=1&state=attacker", "HTTP/1.1 404 Not Found"),
        ]
        for (target, expected) in cases {
            let answer = try await LoopbackTestClient.get(target, port: port)
            #expect(status(answer) == expected, "\(target)")
            #expect(header("Location", answer) == nil && !answer.contains(authorizeURL.absoluteString), "\(target)")
        }
        let real = try await LoopbackTestClient.get("/?code=REAL&state=\(Self.state)", port: port)
        #expect(status(real) == "HTTP/1.1 200 OK")
        #expect(try await response.code == "REAL")
    }

    /// With a redirect path of its own the short address is still `/`, and neither takes the
    /// other's requests: `/` never ends the wait, the redirect path never redirects.
    @Test func aRedirectURIWithAPathKeepsBothApart() async throws {
        let (listener, port, target) = try started("http://localhost/callback")
        #expect(listener.shortAddress?.absoluteString == "http://localhost:\(port)\(Self.path)")
        async let response = listener.waitForResponse(timeout: LoopbackTestClient.patience)
        #expect(header("Location", try await LoopbackTestClient.get(Self.path, port: port)) == target.absoluteString)
        for (path, expected) in [
            ("/callback", "HTTP/1.1 404 Not Found"), ("/callback/", "HTTP/1.1 404 Not Found"),
            ("/?code=C&state=\(Self.state)", "HTTP/1.1 404 Not Found"), ("/index.html", "HTTP/1.1 404 Not Found"),
        ] {
            #expect(status(try await LoopbackTestClient.get(path, port: port)) == expected, "\(path)")
        }
        let real = try await LoopbackTestClient.get("/callback?code=C&state=\(Self.state)", port: port)
        #expect(status(real) == "HTTP/1.1 200 OK")
        #expect(try await response.code == "C")
    }

    @Test func beforeTheURLIsOfferedTheShortAddressAnswersNotFound() async throws {
        let listener = try LoopbackRedirectListener(redirectURI: nil, expectedState: Self.state, random: Self.random)
        #expect(listener.shortAddress == nil)
        #expect(!listener.offerShortAddress(redirectingTo: Self.authorizeURL(port: 1)), "not started")
        let port = UInt16(try #require(try listener.start().port))
        defer { listener.cancel() }
        let answer = try await LoopbackTestClient.get(Self.path, port: port)
        #expect(status(answer) == "HTTP/1.1 404 Not Found")
        #expect(header("Location", answer) == nil)
    }

    /// A page whose DNS name was rebound to 127.0.0.1 sends its own name in `Host`: it gets no
    /// redirect (whose Location it could read). Loopback names, with or without a port, do.
    @Test func onlyALoopbackHostGetsTheRedirect() async throws {
        let (listener, port, target) = try started()
        defer { listener.cancel() }
        func ask(_ host: String?) async throws -> String {
            let line = host.map { "Host: \($0)\r\n" } ?? ""
            return try await LoopbackTestClient.exchange("GET \(Self.path) HTTP/1.1\r\n\(line)Accept: text/html\r\n\r\n", port: port)
        }
        for host in ["localhost:\(port)", "127.0.0.1:\(port)", "[::1]:\(port)", "LOCALHOST", "127.0.0.1"] {
            #expect(header("Location", try await ask(host)) == target.absoluteString, "Host: \(host)")
        }
        for host in ["evil.example:\(port)", "localhost.evil.example", "127.0.0.1.evil.example", "", nil] {
            let answer = try await ask(host)
            #expect(status(answer) == "HTTP/1.1 403 Forbidden", "Host: \(host ?? "(none)")")
            #expect(header("Location", answer) == nil && !answer.contains("login.example"), "Host: \(host ?? "(none)")")
        }
        // A second Host naming another machine spoils the first.
        let two = try await LoopbackTestClient.exchange(
            "GET \(Self.path) HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n", port: port)
        #expect(status(two) == "HTTP/1.1 403 Forbidden")
    }

    /// Once the redirect ended the sign-in the short address hands out nothing: the listener's
    /// sockets are closed, and the URL is forgotten even before they are (and cannot be offered again).
    @Test func afterTheSignInTheShortAddressIsGone() async throws {
        let (listener, port, target) = try started()
        let sockets = OwnSockets.tcp(localPorts: [port]).filter(\.isListening)
        #expect(listener.shortAddressTarget == target)
        _ = try await LoopbackTestClient.get("/?code=C&state=\(Self.state)", port: port)
        #expect(try await listener.waitForResponse(timeout: LoopbackTestClient.patience).code == "C")
        #expect(listener.shortAddressTarget == nil)
        #expect(!listener.offerShortAddress(redirectingTo: target))
        #expect(listener.shortAddressTarget == nil)
        #expect(!sockets.isEmpty && OwnSockets.stillOpen(sockets) == [])
        await expectNoRedirect(to: target, port: port)
    }

    @Test func afterACancelTheShortAddressIsGone() async throws {
        let (listener, port, target) = try started()
        let sockets = OwnSockets.tcp(localPorts: [port]).filter(\.isListening)
        listener.cancel()
        // At once, before the listener's thread has closed anything.
        #expect(listener.shortAddressTarget == nil)
        #expect(!listener.offerShortAddress(redirectingTo: target))
        await #expect(throws: InteractiveAuthorizationError.cancelled(.cancelCalled)) {
            try await listener.waitForResponse(timeout: LoopbackTestClient.patience)
        }
        #expect(!sockets.isEmpty && OwnSockets.stillOpen(sockets) == [])
        await expectNoRedirect(to: target, port: port)
    }

    @Test func afterATimeoutTheShortAddressIsGone() async throws {
        let (listener, port, target) = try started()
        await #expect(throws: InteractiveAuthorizationError.cancelled(.timedOut(seconds: 0.1))) {
            try await listener.waitForResponse(timeout: 0.1)
        }
        #expect(listener.shortAddressTarget == nil)
        await expectNoRedirect(to: target, port: port)
    }

    /// The port refuses the connection, or (given to another test's listener meanwhile) answers
    /// without this test's URL, which is unique.
    private func expectNoRedirect(to target: URL, port: UInt16, sourceLocation: SourceLocation = #_sourceLocation) async {
        do {
            let answer = try await LoopbackTestClient.get(Self.path, port: port)
            #expect(!answer.contains(target.absoluteString), sourceLocation: sourceLocation)
        } catch let error as LoopbackTestClient.ConnectFailed {
            #expect(error.errno == ECONNREFUSED, sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func routeTellsTheShortAddressFromAResponse() {
        func route(_ head: String, path: String = "/") -> LoopbackRedirectListener.Route {
            LoopbackRedirectListener.route(head, requestPath: path, shortAddressPath: "/s", expectedState: "S")
        }
        #expect(route("GET /s HTTP/1.1\r\nHost: localhost:1") == .shortAddress)
        #expect(route("GET /s?a=b HTTP/1.1\r\nhost:127.0.0.1") == .shortAddress)
        #expect(route("GET /s HTTP/1.1\r\nHost: localhost", path: "/cb") == .shortAddress)
        #expect(route("GET /s?state=S HTTP/1.1\r\nHost: localhost") == .notFound)
        #expect(route("GET / HTTP/1.1\r\nHost: localhost") == .notFound)
        #expect(route("GET /s/ HTTP/1.1\r\nHost: localhost") == .notFound)
        #expect(route("GET /?code=a&state=S HTTP/1.1\r\nHost: localhost") == .response(AuthorizationResponse(code: "a", state: "S")))
        #expect(route("GET /?code=a&state=S HTTP/1.1\r\nHost: localhost", path: "/cb") == .notFound)
        #expect(route("GET /cb HTTP/1.1\r\nHost: localhost", path: "/cb") == .notFound)
        #expect(route("GET /s HTTP/1.1\r\nHost: example.com") == .foreignHost)
        #expect(route("GET /s HTTP/1.1") == .foreignHost)
        #expect(route("HEAD /s HTTP/1.1\r\nHost: localhost") == .notFound)
        #expect(route("GET /s?%ZZ HTTP/1.1\r\nHost: localhost") == .badRequest)
    }

    /// Another user of the machine can see the listener's port, not the path: `/` and a wrong
    /// path hand out nothing, and each listener draws its own path.
    @Test func onlyTheRandomPathIsTheShortAddress() async throws {
        let listener = try LoopbackRedirectListener(redirectURI: nil, expectedState: Self.state)
        let port = UInt16(try #require(try listener.start().port))
        defer { listener.cancel() }
        let target = Self.authorizeURL(port: port)
        #expect(listener.offerShortAddress(redirectingTo: target))
        let path = listener.shortAddressPath
        #expect(
            path.count == 9 && path.hasPrefix("/") && path.dropFirst().allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        let other = try LoopbackRedirectListener(redirectURI: nil, expectedState: Self.state)
        #expect(other.shortAddressPath != path)
        for guess in ["/", "/?x=1", Self.path, path + "x", String(path.dropLast())] {
            let answer = try await LoopbackTestClient.get(guess, port: port)
            #expect(status(answer) == "HTTP/1.1 404 Not Found", "\(guess)")
            #expect(!answer.contains("login.example"), "\(guess)")
        }
        #expect(header("Location", try await LoopbackTestClient.get(path, port: port)) == target.absoluteString)
    }
}
