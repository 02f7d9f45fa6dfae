import Foundation
import TestSupport
import Testing

@testable import MSAL

/// The app's result pages (`successPageHTML`, `errorPageHTML`) on the loopback listener over real
/// sockets: what the browser gets after the redirect, and that the listener's other answers keep
/// the SDK's pages (docs/decisions.md, "The app's result pages").
@Suite(.tags(.concurrency)) struct LoopbackResultPagesTests {
    private static let state = "expected-state_123"
    /// Six 0xAB bytes: the short address's path is then `/q6urq6ur`.
    private static let random = RandomBytes { Array(repeating: 0xAB, count: $0) }

    private static let success = "<!DOCTYPE html><title>Done</title><p>Signed in to Contoso. $code ${error} $$</p>\n"
    private static let failure =
        "<!DOCTYPE html><title>Failed</title><p>$error (${error_subcode}): ${error_description}; $errors $ $$5 ${error</p>\n"

    private func started(_ pages: LoopbackRedirectListener.ResultPages) throws -> (listener: LoopbackRedirectListener, port: UInt16) {
        let listener = try LoopbackRedirectListener(redirectURI: nil, expectedState: Self.state, pages: pages, random: Self.random)
        let url = try listener.start()
        return (listener, UInt16(try #require(url.port)))
    }

    private func status(_ answer: String) -> String {
        answer.components(separatedBy: "\r\n").first ?? ""
    }

    private func body(_ answer: String) -> String {
        answer.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
    }

    @Test func theAppsSuccessPageIsSentExactlyAsGiven() async throws {
        let (listener, port) = try started(.init(successHTML: Self.success, errorHTML: Self.failure))
        async let response = listener.waitForResponse(timeout: LoopbackTestClient.patience)
        let answer = try await LoopbackTestClient.get("/?code=SECRET-CODE&state=\(Self.state)&error_description=x", port: port)
        #expect(status(answer) == "HTTP/1.1 200 OK")
        // Nothing replaced: not the code (a credential), not the other placeholders.
        #expect(body(answer) == Self.success)
        #expect(!answer.contains("SECRET-CODE"))
        #expect(answer.contains("Content-Length: \(Self.success.utf8.count)\r\n"))
        for header in [
            "Content-Type: text/html; charset=utf-8", "Cache-Control: no-store", "Referrer-Policy: no-referrer", "Connection: close",
        ] {
            #expect(answer.contains(header + "\r\n"), "\(header)")
        }
        #expect(try await response.code == "SECRET-CODE")
    }

    @Test func theAppsErrorPageGetsTheRedirectsErrorEscaped() async throws {
        let (listener, port) = try started(.init(successHTML: Self.success, errorHTML: Self.failure))
        async let response = listener.waitForResponse(timeout: LoopbackTestClient.patience)
        let answer = try await LoopbackTestClient.get(
            "/?error=access_denied&error_description=%3Cscript%3Ealert(1)%3C%2Fscript%3E+%22%24error%22&error_subcode=cancel"
                + "&state=\(Self.state)", port: port)
        #expect(status(answer) == "HTTP/1.1 200 OK")
        #expect(
            body(answer)
                == "<!DOCTYPE html><title>Failed</title><p>access_denied (cancel): &lt;script&gt;alert(1)&lt;/script&gt; "
                + "&quot;$error&quot;; $errors $ $5 ${error</p>\n")
        #expect(!answer.contains("<script>"))
        #expect(answer.contains("Cache-Control: no-store\r\n"))
        #expect(try await response.error == "access_denied")
    }

    /// Each page is the app's only when given: the other one stays the SDK's.
    @Test func aPageNotGivenIsTheSDKs() async throws {
        let (errorOnly, errorOnlyPort) = try started(.init(errorHTML: Self.failure))
        async let code = errorOnly.waitForResponse(timeout: LoopbackTestClient.patience)
        let success = try await LoopbackTestClient.get("/?code=C&state=\(Self.state)", port: errorOnlyPort)
        #expect(success.contains("Authentication completed. You can close this window now."))
        #expect(!success.contains("Failed"))
        #expect(try await code.code == "C")

        let (successOnly, successOnlyPort) = try started(.init(successHTML: Self.success))
        async let error = successOnly.waitForResponse(timeout: LoopbackTestClient.patience)
        let failure = try await LoopbackTestClient.get("/?error=server_error&state=\(Self.state)", port: successOnlyPort)
        #expect(failure.contains("Authentication failed. server_error."))
        #expect(!failure.contains("Contoso"))
        #expect(try await error.error == "server_error")
    }

    /// A forged redirect, other paths and the short address keep the SDK's answers: an app's page
    /// only ever answers the redirect that carries the sign-in's `state`.
    @Test func theListenersOtherAnswersKeepTheSDKsPages() async throws {
        let (listener, port) = try started(.init(successHTML: Self.success, errorHTML: Self.failure))
        let authorize = URL(string: "https://login.example/t/oauth2/v2.0/authorize?state=\(Self.state)")!
        #expect(listener.offerShortAddress(redirectingTo: authorize))
        async let response = listener.waitForResponse(timeout: LoopbackTestClient.patience)

        let forged = try await LoopbackTestClient.get("/?error=access_denied&state=attacker", port: port)
        #expect(status(forged) == "HTTP/1.1 400 Bad Request")
        #expect(forged.contains("<p>State mismatch</p>") && !forged.contains("Failed"))
        let forgedCode = try await LoopbackTestClient.get("/?code=FORGED&state=attacker", port: port)
        #expect(forgedCode.contains("<p>State mismatch</p>") && !forgedCode.contains("Contoso"))
        let missing = try await LoopbackTestClient.get("/favicon.ico", port: port)
        #expect(status(missing) == "HTTP/1.1 404 Not Found" && missing.contains("<p>Not found</p>"))
        let short = try await LoopbackTestClient.get("/q6urq6ur", port: port)
        #expect(status(short) == "HTTP/1.1 302 Found")
        #expect(short.contains("Location: \(authorize.absoluteString)\r\n") && short.contains("Continue to sign in"))

        let real = try await LoopbackTestClient.get("/?code=REAL&state=\(Self.state)", port: port)
        #expect(body(real) == Self.success)
        #expect(try await response.code == "REAL")
    }

    @Test func fillingTheErrorPage() {
        func fill(_ template: String, _ response: AuthorizationResponse = AuthorizationResponse(error: "e", errorDescription: "d"))
            -> String
        {
            LoopbackRedirectListener.fillErrorPage(template, with: response)
        }
        #expect(fill("$error:$error_description:$error_subcode.") == "e:d:.")
        #expect(fill("${error}x ${error_description}y") == "ex dy")
        // One pass: a value holding a placeholder is not filled again.
        #expect(fill("$error_description", AuthorizationResponse(error: "e", errorDescription: "$error ${error}")) == "$error ${error}")
        // Other names, an unclosed brace, a lone or final `$` stay; `$$` is `$`.
        #expect(fill("$err $errorx ${nope} ${error $ $") == "$err $errorx ${nope} ${error $ $")
        #expect(fill("$$error $$$error") == "$error $e")
        #expect(fill("€$error€ <b>") == "€e€ <b>")
        #expect(fill("$error", AuthorizationResponse(error: #"'"&<>"#)) == "&#39;&quot;&amp;&lt;&gt;")
    }
}
