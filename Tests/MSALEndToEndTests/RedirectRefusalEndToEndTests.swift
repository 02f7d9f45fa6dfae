import Foundation
import MSAL
import NativeAuthEmulator
import NativeAuthTesting
import TestSupport
import Testing

/// No request the SDK sends follows a redirect (docs/decisions.md, "Redirects"): the emulator over
/// loopback answers a request with a 3xx pointing at a second loopback address, which records
/// every connection; for every redirect status and every kind of request (V1 `initiate`, V2
/// `authorize-challenge`, the token request after a sign-in, a silent refresh and the browser
/// sign-in's code redemption), the call fails with an error naming the status and the host, and
/// nothing reaches that host.
@Suite struct RedirectRefusalEndToEndTests {
    typealias H = EmulatorHarness
    static let statuses = [301, 302, 303, 307, 308]
    static let todo = "api://emulator/todolist/ToDoList.Read"

    /// The emulator, the recorder on 127.0.0.2, and an application against the emulator.
    struct Setup {
        let server: EmulatorServer
        let recorder: ConnectionRecorder
        let app: MSALNativeAuthPublicClientApplication

        init() throws {
            server = try LiveEmulator.start()
            recorder = try ConnectionRecorder()
            let config = MSALNativeAuthPublicClientApplicationConfig(
                clientId: H.passwordApp, authority: try MSALCIAMAuthority(url: URL(string: server.authority)!),
                challengeTypes: [.OOB, .password])
            config.tokenCacheLocation = .inMemory
            app = try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
        }

        /// The next request to `endpoint` (a path suffix) answers `status` pointing at the recorder.
        func redirect(_ endpoint: String, _ status: Int) async throws {
            let added = try await LiveEmulator.post(
                server.baseURL + "/_emulator/faults",
                json: [["endpoint": endpoint, "status": status, "location": recorder.url("/t/oauth2/v2.0/initiate?dc=ESTS-PUB")]])
            #expect(added == 200)
        }

        /// The failure behind an SDK error, checked to name the redirect and its host.
        func expectRefused(_ error: any Error, _ status: Int, sourceLocation: SourceLocation = #_sourceLocation) {
            let failure = (error as? MSALNativeAuthError)?.underlyingError as? MSALNativeAuthNetworkFailure
            let host = "\(recorder.host):\(recorder.port)"
            #expect(failure?.kind == .redirected(status: status, host: host), "\(error)", sourceLocation: sourceLocation)
            let text = (error as? MSALNativeAuthError)?.errorDescription ?? ""
            #expect(text.contains("HTTP \(status)") && text.contains(host), "\(text)", sourceLocation: sourceLocation)
            #expect(!text.contains("dc=ESTS-PUB"), "only the host is named: \(text)", sourceLocation: sourceLocation)
            #expect(recorder.connections.isEmpty, "reached the other host: \(recorder.report)", sourceLocation: sourceLocation)
        }

        func stop() {
            server.stop()
            recorder.stop()
        }
    }

    @Test(arguments: statuses)
    func aV1SignInIsNotSentToTheHostAnInitiateRedirectNames(status: Int) async throws {
        let setup = try Setup()
        defer { setup.stop() }
        try await setup.redirect("/oauth2/v2.0/initiate", status)
        let parameters = MSALNativeAuthSignInParameters(username: H.ada)
        parameters.password = H.adaPassword
        let error = try await #require(throws: SignInStartError.self) { try await setup.app.signIn(parameters: parameters) }
        setup.expectRefused(error, status)
        // The refusal is not retried, and the next attempt signs in.
        guard case .completed = try await setup.app.signIn(parameters: parameters) else {
            Issue.record("no sign-in after the redirect")
            return
        }
        #expect(setup.recorder.connections.isEmpty)
    }

    @Test(arguments: statuses)
    func aV2SignInIsNotSentToTheHostAnAuthorizeChallengeRedirectNames(status: Int) async throws {
        let setup = try Setup()
        defer { setup.stop() }
        try await setup.redirect("/authorize-challenge", status)
        let error = try await #require(throws: MSALNativeAuthFlowError.self) {
            try await setup.app.signInV2(parameters: MSALNativeAuthSignInParametersV2(username: H.ada))
        }
        setup.expectRefused(error, status)
    }

    @Test(arguments: statuses)
    func theTokenRequestAfterASignInIsNotFollowed(status: Int) async throws {
        let setup = try Setup()
        defer { setup.stop() }
        try await setup.redirect("/oauth2/v2.0/token", status)
        let parameters = MSALNativeAuthSignInParameters(username: H.ada)
        parameters.password = H.adaPassword
        let error = try await #require(throws: SignInStartError.self) { try await setup.app.signIn(parameters: parameters) }
        setup.expectRefused(error, status)
    }

    @Test(arguments: statuses)
    func aV2TokenRequestIsNotFollowed(status: Int) async throws {
        let setup = try Setup()
        defer { setup.stop() }
        guard
            case .passwordRequired(let password) = try await setup.app.signInV2(
                parameters: MSALNativeAuthSignInParametersV2(username: H.ada))
        else { throw EndToEndFailure("no password step") }
        try await setup.redirect("/oauth2/v2.0/token", status)
        let error = try await #require(throws: MSALNativeAuthFlowError.self) { try await password.submitPassword(H.adaPassword) }
        setup.expectRefused(error, status)
    }

    @Test(arguments: statuses)
    func refreshesOnBothSurfacesAreNotFollowed(status: Int) async throws {
        let setup = try Setup()
        defer { setup.stop() }
        let parameters = MSALNativeAuthSignInParameters(username: H.ada)
        parameters.password = H.adaPassword
        guard case .completed(let account) = try await setup.app.signIn(parameters: parameters) else {
            throw EndToEndFailure("no sign-in")
        }
        // The native refresh.
        try await setup.redirect("/oauth2/v2.0/token", status)
        let refresh = MSALNativeAuthGetAccessTokenParameters()
        refresh.scopes = [Self.todo]
        refresh.forceRefresh = true
        let error = try await #require(throws: RetrieveAccessTokenError.self) { try await account.getAccessToken(parameters: refresh) }
        setup.expectRefused(error, status)
        // The standard surface's silent refresh: MSAL's error, with the status and the host.
        try await setup.redirect("/oauth2/v2.0/token", status)
        let silent = MSALSilentTokenParameters(scopes: [Self.todo], account: try setup.app.account(forUsername: H.ada))
        silent.forceRefresh = true
        do {
            _ = try await setup.app.acquireTokenSilent(with: silent)
            Issue.record("a redirected refresh gave a token")
        } catch let error as NSError {
            #expect(error.domain == MSALErrorDomain && error.userInfo[MSALHTTPResponseCodeKey] as? String == String(status), "\(error)")
            #expect(error.localizedDescription.contains("\(setup.recorder.host):\(setup.recorder.port)"), "\(error)")
        }
        #expect(setup.recorder.connections.isEmpty, "reached the other host: \(setup.recorder.report)")
    }

}

extension RedirectRefusalEndToEndTests {
    /// The browser sign-in's code redemption: one browser sign-in at a time in the process.
    @Suite(.serialized, .browserSignInTurn) struct CodeRedemption {
        @Test(arguments: RedirectRefusalEndToEndTests.statuses)
        func theBrowserSignInsCodeRedemptionIsNotFollowed(status: Int) async throws {
            let setup = try RedirectRefusalEndToEndTests.Setup()
            defer { setup.stop() }
            try await setup.redirect("/oauth2/v2.0/token", status)
            let browser = HeadlessSignInBrowser(.password(username: H.ada, password: H.adaPassword))
            let webview = MSALWebviewParameters()
            webview.browserLauncher = browser
            webview.timeout = 120
            do {
                _ = try await setup.app.acquireToken(
                    with: MSALInteractiveTokenParameters(scopes: [RedirectRefusalEndToEndTests.todo], webviewParameters: webview))
                Issue.record("a redirected code redemption gave a token")
            } catch let error as NSError {
                #expect(error.domain == MSALErrorDomain && error.userInfo[MSALHTTPResponseCodeKey] as? String == String(status), "\(error)")
                #expect(error.localizedDescription.contains("\(setup.recorder.host):\(setup.recorder.port)"), "\(error)")
            }
            #expect(setup.recorder.connections.isEmpty, "reached the other host: \(setup.recorder.report)")
        }
    }
}
