import Foundation
import TestSupport
import Testing

@testable import NativeAuthEmulator

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Browser sign-in over libmicrohttpd on 127.0.0.1: the page, the form post, the cookie and the
/// redirect as real HTTP, redirects not followed (the test reads `Location` as a browser would).
@Suite struct AuthorizeLiveServerTests {
    typealias H = EmulatorHarness

    private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }

    private static func send(_ session: URLSession, _ request: URLRequest) async throws -> (HTTPURLResponse, String) {
        let (data, response) = try await session.data(for: request)
        return (response as! HTTPURLResponse, String(decoding: data, as: UTF8.self))
    }

    @Test func signInOverHTTPThenSSOWithTheCookie() async throws {
        var configuration = EmulatorConfiguration()
        configuration.passwordHashIterations = 1000
        var seed = Seed.demo
        seed.apps[0].redirectUris = ["http://127.0.0.1"]
        let server = try EmulatorServer(router: try EmulatorRouter(seed: seed, configuration: configuration), port: 0)
        defer { server.stop() }
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.httpShouldSetCookies = false
        let session = URLSession(configuration: sessionConfiguration, delegate: NoRedirects(), delegateQueue: nil)
        let verifier = Base64URLCoding.encode(Secrets.randomBytes(32))
        let challenge = Base64URLCoding.encode(BrowserRules.sha256(Data(verifier.utf8)))
        let redirectUri = "http://127.0.0.1:1"
        var components = URLComponents(string: server.authority + "/oauth2/v2.0/authorize")!
        components.queryItems = [
            URLQueryItem(name: "client_id", value: H.passwordApp), URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "redirect_uri", value: redirectUri), URLQueryItem(name: "scope", value: "openid offline_access"),
            URLQueryItem(name: "state", value: "live-state"), URLQueryItem(name: "code_challenge", value: challenge),
            URLQueryItem(name: "code_challenge_method", value: "S256"),
        ]
        let authorizeURL = components.url!

        let (pageResponse, html) = try await Self.send(session, URLRequest(url: authorizeURL))
        #expect(pageResponse.statusCode == 200 && pageResponse.value(forHTTPHeaderField: "Cache-Control") == "no-store")
        let flowRange = try #require(html.range(of: #"name="flow" id="flow" value="[^"]*""#, options: .regularExpression))
        let flow = String(html[flowRange].split(separator: "\"").last!)

        var post = URLRequest(url: URL(string: server.authority + "/oauth2/v2.0/authorize")!)
        post.httpMethod = "POST"
        post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let fields = [("flow", flow), ("username", H.ada), ("password", H.adaPassword), ("action", "password")]
        post.httpBody = Data(fields.map { "\($0.0)=\(BrowserRules.percentEncode($0.1))" }.joined(separator: "&").utf8)
        let (redirect, _) = try await Self.send(session, post)
        #expect(redirect.statusCode == 302)
        let location = try #require(redirect.value(forHTTPHeaderField: "Location"))
        let items = URLComponents(string: location)?.queryItems ?? []
        #expect(location.hasPrefix(redirectUri + "/?code=") && items.first { $0.name == "state" }?.value == "live-state")
        let code = try #require(items.first { $0.name == "code" }?.value)
        let cookie = try #require(redirect.value(forHTTPHeaderField: "Set-Cookie")?.split(separator: ";").first.map(String.init))

        var token = URLRequest(url: URL(string: server.authority + "/oauth2/v2.0/token")!)
        token.httpMethod = "POST"
        token.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let form = [
            ("client_id", H.passwordApp), ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectUri),
            ("code_verifier", verifier), ("scope", "openid offline_access"), ("client_info", "1"),
        ]
        token.httpBody = Data(form.map { "\($0.0)=\(BrowserRules.percentEncode($0.1))" }.joined(separator: "&").utf8)
        let (tokenResponse, tokenBody) = try await Self.send(session, token)
        #expect(tokenResponse.statusCode == 200, "\(tokenBody)")
        #expect(tokenBody.contains("\"id_token\"") && tokenBody.contains("\"refresh_token\"") && tokenBody.contains("\"client_info\""))

        // The cookie alone answers the next request with a code.
        var again = URLRequest(url: authorizeURL)
        again.setValue(cookie, forHTTPHeaderField: "Cookie")
        let (sso, _) = try await Self.send(session, again)
        #expect(sso.statusCode == 302 && sso.value(forHTTPHeaderField: "Location")?.contains("code=") == true)
    }
}
