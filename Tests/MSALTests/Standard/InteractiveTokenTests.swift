import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// `acquireToken` over the stub transport: a launcher plays the browser by calling the SDK's
/// loopback listener with the authorize URL's `state`, and the stub answers the code redemption.
/// Checks the token request (docs/error-mapping.md#code-redemption), the nonce rule, the authorize URL's essentials
/// (docs/error-mapping.md#authorize-request) and the app's result pages.
@Suite(.serialized, .browserSignInTurn) struct InteractiveTokenTests {
    /// A "browser" that records the authorize URL and lands on the redirect with a code (or with
    /// `redirectQuery`), keeping the page the listener answers.
    final class RedirectingLauncher: MSALBrowserLauncher, @unchecked Sendable {
        private let lock = NSLock()
        private let redirectQuery: String
        private var seen: URL?
        private var landing: LoopbackTestClient.PendingAnswer?
        var url: URL? { lock.withLock { seen } }

        init(redirectQuery: String = "code=CODE-1") {
            self.redirectQuery = redirectQuery
        }

        func open(_ url: URL) async throws {
            lock.withLock { seen = url }
            let query = Dictionary(
                (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") },
                uniquingKeysWith: { first, _ in first })
            let redirect = try #require(query["redirect_uri"].flatMap(URLComponents.init(string:)))
            let target = "/?\(redirectQuery)&state=\(query["state"] ?? "")"
            let answer = LoopbackTestClient.startGet(target, port: UInt16(redirect.port ?? 0))
            lock.withLock { landing = answer }
        }

        /// The listener's whole answer to the redirect (head and page), once it has come.
        func redirectAnswer() async -> String? {
            await lock.withLock { landing }?.value
        }

        func query(_ name: String) -> String? {
            url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value }
        }
    }

    private func parameters(_ launcher: RedirectingLauncher) -> MSALInteractiveTokenParameters {
        let webview = MSALWebviewParameters()
        webview.browserLauncher = launcher
        webview.timeout = 120
        let parameters = MSALInteractiveTokenParameters(scopes: ["api://todo/ToDoList.Read"], webviewParameters: webview)
        parameters.loginHint = "ada@contoso.com"
        parameters.promptType = .login
        return parameters
    }

    @Test func theCodeIsRedeemedWithTheVerifierAndTheSameRedirectURI() async throws {
        let h = try Harness()
        let launcher = RedirectingLauncher()
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody(scope: "api://todo/ToDoList.Read"))) { request in
            let form = request.formFields
            guard form["grant_type"] == "authorization_code", form["code"] == "CODE-1" else { return "not the code grant: \(form)" }
            guard form["redirect_uri"] == launcher.query("redirect_uri") else { return "another redirect_uri" }
            guard let verifier = form["code_verifier"], PKCE.challenge(for: verifier) == launcher.query("code_challenge") else {
                return "the verifier does not match the challenge"
            }
            guard form["scope"] == "api://todo/ToDoList.Read openid profile offline_access" else { return "scope \(form["scope"] ?? "")" }
            return nil
        }
        let result = try await h.app.acquireToken(with: parameters(launcher))
        #expect(result.account.username == Fixture.username && result.scopes == ["api://todo/ToDoList.Read"])
        #expect(h.stub.mismatches.isEmpty)
        #expect(launcher.query("code_challenge_method") == "S256" && launcher.query("prompt") == "login")
        #expect(launcher.query("login_hint") == "ada@contoso.com" && launcher.query("client_info") == "1")
        #expect(launcher.url?.path == "/contoso.onmicrosoft.com/oauth2/v2.0/authorize")
        #expect(try h.app.allAccounts().count == 1)
    }

    @Test func anIdTokenWithAnotherNonceIsRefused() async throws {
        let h = try Harness()
        var body = Fixture.tokenBody()
        body["id_token"] = Fixture.idToken(extra: ["nonce": "not-the-one-sent"])
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, body))
        do {
            _ = try await h.app.acquireToken(with: parameters(RedirectingLauncher()))
            Issue.record("a foreign nonce was accepted")
        } catch {
            let error = error as NSError
            #expect(error.code == MSALError.internal.rawValue)
            #expect(error.userInfo[MSALInternalErrorCodeKey] as? Int == MSALInternalError.internalErrorInvalidResponse.rawValue)
        }
        #expect(try h.app.allAccounts().isEmpty, "nothing cached from a refused answer")
    }

    /// `successPageHTML` and `errorPageHTML` reach the SDK's listener: they are what the browser
    /// shows after the redirect (docs/decisions.md, "The app's result pages").
    @Test func theAppsPagesAreWhatTheBrowserGetsAfterTheRedirect() async throws {
        let h = try Harness()
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody(scope: "api://todo/ToDoList.Read")))
        func withPages(_ launcher: RedirectingLauncher) -> MSALInteractiveTokenParameters {
            let withPages = parameters(launcher)
            withPages.webviewParameters.successPageHTML = "<p>Welcome back to Contoso</p>"
            withPages.webviewParameters.errorPageHTML = "<p>Not signed in: $error ($error_subcode)</p>"
            return withPages
        }
        let signedIn = RedirectingLauncher()
        _ = try await h.app.acquireToken(with: withPages(signedIn))
        let success = try #require(await signedIn.redirectAnswer())
        #expect(success.hasPrefix("HTTP/1.1 200 OK\r\n") && success.hasSuffix("\r\n\r\n<p>Welcome back to Contoso</p>"), "\(success)")

        let cancelled = RedirectingLauncher(redirectQuery: "error=access_denied&error_subcode=cancel")
        do {
            _ = try await h.app.acquireToken(with: withPages(cancelled))
            Issue.record("a cancelled sign-in gave tokens")
        } catch {
            #expect((error as NSError).msalCode == .userCanceled)
        }
        let failure = try #require(await cancelled.redirectAnswer())
        #expect(failure.hasSuffix("\r\n\r\n<p>Not signed in: access_denied (cancel)</p>"), "\(failure)")
        #expect(h.stub.mismatches.isEmpty)
    }

    @Test func aRefusedCodeIsTheServersAnswerAsMSALMapsIt() async throws {
        let h = try Harness()
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(400, Fixture.apiError("invalid_grant", codes: [54005])))
        do {
            _ = try await h.app.acquireToken(with: parameters(RedirectingLauncher()))
            Issue.record("a refused code gave tokens")
        } catch {
            let error = error as NSError
            #expect(error.userInfo[MSALInternalErrorCodeKey] as? Int == MSALInternalError.internalErrorInvalidGrant.rawValue)
            #expect(error.userInfo[MSALSTSErrorCodesKey] as? [Int] == [54005])
        }
    }
}
