import Foundation
import Testing

@testable import MSAL

/// What the loopback redirect listener makes of a redirect URI and of a request head, and the texts
/// of its default pages: the pure parts, without sockets (the listener over sockets:
/// `LoopbackRedirectListenerTests`).
@Suite struct LoopbackRequestParsingTests {
    @Test func redirectURIsThatCannotBeServedAreRefused() {
        for text in [
            "https://localhost", "http://example.com", "http://localhost:8080/?x=1", "http://localhost#f", "http://user@localhost",
            "http://localhost:70000", "msauth.com.example://auth", "http://10.0.0.1:8080",
        ] {
            #expect(throws: InteractiveAuthorizationError.self, "\(text)") {
                try LoopbackRedirectListener.endpoint(for: URL(string: text)!)
            }
        }
        #expect(InteractiveAuthorizationError.invalidRedirectURI("x").internalErrorCode == -42_011)
    }

    @Test func redirectURIsThatCanBeServed() throws {
        let cases: [(String?, LoopbackRedirectListener.Endpoint)] = [
            (nil, .init(host: "localhost", port: 0, path: "")),
            ("http://localhost", .init(host: "localhost", port: 0, path: "")),
            ("http://localhost/", .init(host: "localhost", port: 0, path: "/")),
            ("http://LOCALHOST:8400/cb", .init(host: "localhost", port: 8400, path: "/cb")),
            ("http://127.0.0.1:0", .init(host: "127.0.0.1", port: 0, path: "")),
            ("http://[::1]:8400", .init(host: "[::1]", port: 8400, path: "")),
        ]
        for (text, expected) in cases {
            #expect(try LoopbackRedirectListener.endpoint(for: text.map { URL(string: $0)! }) == expected)
        }
    }

    @Test func routeClassifiesRequestHeads() {
        func route(_ head: String) -> LoopbackRedirectListener.Route {
            LoopbackRedirectListener.route(head, requestPath: "/", shortAddressPath: "/s", expectedState: "S")
        }
        #expect(route("GET /?code=a+b%2Bc&state=S HTTP/1.1\r\nHost: x") == .response(AuthorizationResponse(code: "a b+c", state: "S")))
        #expect(route("GET /?code=a&state=S&state=T HTTP/1.1") == .response(AuthorizationResponse(code: "a", state: "S")))
        #expect(route("GET /?state=S HTTP/1.1") == .notFound)
        #expect(route("GET /?code=&state=S HTTP/1.1") == .notFound)
        #expect(route("GET /?code=a&state=s HTTP/1.1") == .stateMismatch)
        #expect(route("GET /?code=a&state=S%ZZ HTTP/1.1") == .badRequest)
        #expect(route("HEAD /?code=a&state=S HTTP/1.1") == .notFound)
        #expect(route("GET /?code=a&state=S HTTP/2") == .badRequest)
        #expect(route("GET  /?code=a&state=S HTTP/1.1") == .badRequest)
        #expect(route("GET http://localhost/?code=a&state=S HTTP/1.1") == .notFound)
    }

    @Test func routeRefusesAStateThatIsOnlyAPrefixOrLonger() {
        func route(_ state: String) -> LoopbackRedirectListener.Route {
            LoopbackRedirectListener.route(
                "GET /?code=a&state=\(state) HTTP/1.1", requestPath: "/", shortAddressPath: "/s", expectedState: "ST")
        }
        #expect(route("S") == .stateMismatch)
        #expect(route("") == .stateMismatch)
        #expect(route("STT") == .stateMismatch)
        #expect(route("ST") == .response(AuthorizationResponse(code: "a", state: "ST")))
    }

    @Test func errorTextWithoutDescription() {
        #expect(
            LoopbackRedirectListener.errorText(for: AuthorizationResponse(error: "server_error"), error: "server_error")
                == "Authentication failed. server_error.")
        #expect(HTMLText.escape(#"<a href="x">'&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    }
}
