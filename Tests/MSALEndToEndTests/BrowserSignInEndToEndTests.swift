import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import NativeAuthEmulator

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `acquireToken` end to end: the SDK's loopback listener, PKCE and code redemption against the
/// emulator's authorize page over real HTTP, driven by `HeadlessSignInBrowser`; then the same
/// account through `acquireTokenSilent`, the native `getNativeAuthUserAccount()` and the API.
@Suite(.serialized, .browserSignInTurn) struct BrowserSignInEndToEndTests {
    typealias H = EmulatorHarness
    static let todo = "api://emulator/todolist/ToDoList.Read"
    static let profile = "api://emulator/profile/Profile.Read"

    final class Live: @unchecked Sendable {
        let server: EmulatorServer
        let router: EmulatorRouter
        let app: MSALNativeAuthPublicClientApplication

        init(seed: Seed = .demo) throws {
            var configuration = EmulatorConfiguration()
            configuration.passwordHashIterations = 1000
            router = try EmulatorRouter(seed: seed, configuration: configuration)
            server = try EmulatorServer(router: router, port: 0)
            let config = MSALNativeAuthPublicClientApplicationConfig(
                clientId: H.passwordApp, authority: try MSALCIAMAuthority(url: URL(string: server.authority)!),
                challengeTypes: [.OOB, .password])
            config.tokenCacheLocation = .inMemory
            config.capabilities = [.mfaRequired, .registrationRequired]
            app = try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
        }

        deinit { server.stop() }

        func parameters(_ scopes: [String], browser: HeadlessSignInBrowser, timeout: TimeInterval = 120) -> MSALInteractiveTokenParameters {
            let webview = MSALWebviewParameters()
            webview.browserLauncher = browser
            webview.timeout = timeout
            return MSALInteractiveTokenParameters(scopes: scopes, webviewParameters: webview)
        }

        /// The latest code the emulator mailed to `username`.
        func lastCode(_ username: String) -> String {
            let reply = router.handle(
                EmulatorRequest(method: "GET", path: "/_emulator/mailbox", query: ["username": username], baseURL: ""))
            let mails = (try? JSONSerialization.jsonObject(with: reply.body)) as? [[String: Any]] ?? []
            return mails.last?["code"] as? String ?? ""
        }
    }

    @Test func passwordOnThePageSignsInAndEverySurfaceSeesTheAccount() async throws {
        let live = try Live()
        let browser = HeadlessSignInBrowser(.password(username: H.ada, password: H.adaPassword))
        let result = try await live.app.acquireToken(with: live.parameters([Self.todo], browser: browser))
        #expect(result.account.username == H.ada && result.scopes == [Self.todo] && !result.accessToken.isEmpty)
        #expect(result.idToken != nil && result.tenantProfile.tenantId == Seed.demo.tenant.id)
        let redirect = try await browser.outcome().get()
        #expect(redirect.host == "localhost" && redirect.query?.contains("code=") == true)

        // One cache behind both surfaces: silent is a cache hit, the native account is the same.
        let silent = try await live.app.acquireTokenSilent(with: MSALSilentTokenParameters(scopes: [Self.todo], account: result.account))
        #expect(silent.accessToken == result.accessToken)
        let native = try #require(live.app.getNativeAuthUserAccount())
        #expect(native.account.identifier == result.account.identifier)
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = [Self.profile]
        let profileToken = try await native.getAccessToken(parameters: parameters) // the browser's refresh token works natively
        #expect(!profileToken.accessToken.isEmpty)
    }

    @Test func anEmailCodeOnThePage() async throws {
        let live = try Live()
        let onItsOwnQueue = Locked(false)
        let browser = HeadlessSignInBrowser(
            .emailCode(username: H.grace) { username in
                onItsOwnQueue.withLock { $0 = HeadlessSignInBrowser.isOnItsOwnQueue }
                return live.lastCode(username)
            })
        let result = try await live.app.acquireToken(with: live.parameters([Self.todo], browser: browser))
        #expect(result.account.username == H.grace)
        // The browser stands for another process: its work must not wait for the cooperative pool,
        // which a loaded whole run keeps busy past the app's 120 s.
        #expect(onItsOwnQueue.withLock { $0 })
    }

    @Test func cancelOnThePageIsUserCanceled() async throws {
        let live = try Live()
        do {
            _ = try await live.app.acquireToken(with: live.parameters([Self.todo], browser: HeadlessSignInBrowser(.cancel)))
            Issue.record("a cancelled sign-in returned tokens")
        } catch {
            let error = error as NSError
            #expect(error.domain == MSALErrorDomain && error.code == MSALError.userCanceled.rawValue)
        }
        #expect(try live.app.allAccounts().isEmpty)
    }

    @Test func aDeclinedScopeIsServerDeclinedScopesWithTheTokensOfTheRest() async throws {
        var seed = Seed.demo
        seed.apps[0].requiresConsent = true
        let live = try Live(seed: seed)
        let write = "api://emulator/todolist/ToDoList.ReadWrite"
        let browser = HeadlessSignInBrowser(.password(username: H.ada, password: H.adaPassword), consent: .decline([write]))
        do {
            _ = try await live.app.acquireToken(with: live.parameters([Self.todo, write], browser: browser))
            Issue.record("a declined scope was not reported")
        } catch {
            let error = error as NSError
            #expect(error.code == MSALError.serverDeclinedScopes.rawValue)
            #expect(error.userInfo[MSALGrantedScopesKey] as? [String] == [Self.todo])
            #expect(error.userInfo[MSALDeclinedScopesKey] as? [String] == [write])
            #expect((error.userInfo[MSALInvalidResultKey] as? MSALResult)?.accessToken.isEmpty == false)
        }
    }

    /// `email` is granted with the id token, never as a scope of the access token: asking for it
    /// is not a declined scope (Sources/MSAL/Standard/MSALPublicClientApplication+Interactive.swift).
    @Test func askingForEmailBesideAnAPIIsNotADeclinedScope() async throws {
        let live = try Live()
        let browser = HeadlessSignInBrowser(.password(username: H.ada, password: H.adaPassword))
        let result = try await live.app.acquireToken(with: live.parameters([Self.todo, "email"], browser: browser))
        #expect(!result.accessToken.isEmpty)
        #expect(!result.scopes.contains("email"))
    }

    @Test func noBrowserAndNoHandlerFailsAtOnceNamingTheHandler() async throws {
        let live = try Live()
        let webview = MSALWebviewParameters()
        webview.browserLauncher = RefusingLauncher()
        do {
            _ = try await live.app.acquireToken(with: MSALInteractiveTokenParameters(scopes: [Self.todo], webviewParameters: webview))
            Issue.record("no browser, yet a result")
        } catch {
            let error = error as NSError
            #expect(error.code == MSALError.internal.rawValue)
            #expect(error.userInfo[MSALInternalErrorCodeKey] as? Int == MSALInternalError.internalErrorNoViewController.rawValue)
            #expect(error.localizedDescription.contains("authorizationURLHandler"))
        }
    }

    @Test func theURLHandlerGetsTheURLWhenNoBrowserStarts() async throws {
        let live = try Live()
        let webview = MSALWebviewParameters()
        webview.browserLauncher = RefusingLauncher()
        let browser = HeadlessSignInBrowser(.password(username: H.ada, password: H.adaPassword))
        // As over SSH: the app shows the URL and the person opens it elsewhere.
        webview.authorizationURLHandler = { url in Task { try? await browser.open(url) } }
        webview.timeout = 120
        let result = try await live.app.acquireToken(with: MSALInteractiveTokenParameters(scopes: [Self.todo], webviewParameters: webview))
        #expect(result.account.username == H.ada)
    }

    /// Over SSH, as a person does it: the app shows the short address; opened, it leads through
    /// the SDK's listener to the emulator's page; the sign-in ends as with a started browser. The
    /// emulator is on loopback, so the ssh line forwards its port too; both handlers are called.
    @Test func theShortAddressWhenNoBrowserStarts() async throws {
        let live = try Live()
        let webview = MSALWebviewParameters()
        webview.browserLauncher = RefusingLauncher()
        let browser = HeadlessSignInBrowser(.password(username: H.ada, password: H.adaPassword))
        let shown = Locked<(address: MSALSignInAddress?, url: URL?)>((nil, nil))
        webview.signInAddressHandler = { address in
            shown.withLock { $0.address = address }
            Task {
                try? await browser.open(address.shortURL)
                // A page that went wrong ends the sign-in now rather than at its timeout.
                if case .failure = await browser.outcome() { MSALPublicClientApplication.cancelCurrentWebAuthSession() }
            }
        }
        webview.authorizationURLHandler = { url in shown.withLock { $0.url = url } }
        webview.timeout = 120
        let result = try await live.app.acquireToken(with: MSALInteractiveTokenParameters(scopes: [Self.todo], webviewParameters: webview))
        #expect(result.account.username == H.ada)

        let (address, url) = shown.withLock { $0 }
        let shortAddress = try #require(address)
        #expect(url == shortAddress.authorizationURL)
        let redirect = try await browser.outcome().get()
        let port = try #require(redirect.port)
        let emulatorPort = try #require(URL(string: live.server.authority)?.port)
        #expect(
            shortAddress.shortURL.absoluteString.hasPrefix("http://localhost:\(port)/") && shortAddress.shortURL.path.count == 9
                && shortAddress.port == port)
        #expect(shortAddress.forwardedPorts == [port, emulatorPort])
        #expect(
            shortAddress.sshCommand.hasPrefix("ssh -L \(port):localhost:\(port) -L \(emulatorPort):127.0.0.1:\(emulatorPort) "),
            "\(shortAddress.sshCommand)")
        // The sign-in is over: the short address hands out nothing any more.
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        if let (_, response) = try? await session.data(from: shortAddress.shortURL) {
            #expect(response.url != shortAddress.authorizationURL)
        }
    }

    @Test func theCompletionFormAndCancelCurrentWebAuthSession() async throws {
        let live = try Live()
        let webview = MSALWebviewParameters()
        webview.browserLauncher = SilentLauncher() // "opens" the URL; nobody signs in
        let error: NSError? = await withCheckedContinuation { continuation in
            live.app.acquireToken(with: MSALInteractiveTokenParameters(scopes: [Self.todo], webviewParameters: webview)) { result, error in
                continuation.resume(returning: result == nil ? error.map { $0 as NSError } : nil)
            }
            Task {
                while !MSALPublicClientApplication.cancelCurrentWebAuthSession() { try await Task.sleep(nanoseconds: 20_000_000) }
            }
        }
        #expect(error?.code == MSALError.userCanceled.rawValue)
    }

    /// A launcher that cannot start anything.
    struct RefusingLauncher: MSALBrowserLauncher {
        struct NoBrowser: Error {}
        func open(_ url: URL) async throws { throw NoBrowser() }
    }

    /// A launcher that "opens" the page and leaves it.
    struct SilentLauncher: MSALBrowserLauncher {
        func open(_ url: URL) async throws {}
    }
}
