import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MultiAPIDemoKit
@testable import NativeAuthEmulator

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// "Continue in browser" against the embedded emulator: MSAL's `acquireToken` on the demo's
/// application, with `HeadlessSignInBrowser` as the test browser launcher (it fills the emulator's
/// page over HTTP and follows the redirect to the SDK's listener).
///
/// `HeadlessSignInBrowser.swift` and `HTMLForm.swift` in this folder are symbolic links to
/// Sources/NativeAuthTesting: Package.swift does not list NativeAuthTesting among this test target's
/// dependencies. Once it does, delete the links and `import NativeAuthTesting`.
///
/// Serialized: MSAL runs one browser sign-in per process, and `cancelCurrentWebAuthSession()` is
/// process-wide.
@Suite(.serialized, .browserSignInTurn) @MainActor struct BrowserControllerTests {
    static let ada = "ada@example.com"
    static let adaPassword = "Analytical-Engine-1843"

    /// Waits (bounded, longer than the shared default: a browser sign-in is slower) for `condition`.
    private func until(_ controller: DemoController, _ what: String, _ condition: (DemoModel) -> Bool) async throws {
        try await MultiAPIDemoTests.until(controller, what, attempts: 1500, condition)
    }

    private func signIn(_ controller: DemoController, _ email: String, _ password: String) async throws {
        for character in email { controller.handle(.character(character)) }
        controller.handle(.tab)
        for character in password { controller.handle(.character(character)) }
        controller.handle(.enter)
    }

    /// Signs Ada in natively, then presses API 2, which answers with a claims challenge.
    private func claimsChallenge(_ browser: (any MSALBrowserLauncher)?) async throws -> (DemoController, DemoEnvironment) {
        let environment = try DemoEnvironment.embedded(logger: nil, conditionalAccess: true, browserLauncher: browser)
        let controller = DemoController(environment: environment, size: .init(columns: 80, rows: 24))
        #expect(controller.model.result.contains("Conditional access: API 2 asks for authentication context c1"))
        try await signIn(controller, Self.ada, Self.adaPassword)
        try await until(controller, "sign-in") { $0.signedInAs == Self.ada }
        controller.perform(.press(.api2))
        try await until(controller, "the offer") { $0.browserOffered }
        return (controller, environment)
    }

    /// Presses "Continue in browser" (the focus is on it) and waits until the sign-in is under way.
    private func pressContinue(_ controller: DemoController) async throws {
        #expect(controller.model.focus == .button(.continueInBrowser))
        controller.handle(.enter)
        #expect(controller.model.busy && controller.model.result.hasPrefix("Opening the browser to sign in"))
        #expect(!controller.model.browserOffered, "no button while the browser sign-in runs")
    }

    /// The claims of an access token (its payload, decoded).
    private func claims(_ token: String) throws -> [String: Any] {
        var payload = String(token.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(
            of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        let data = try #require(Data(base64Encoded: payload))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func api2ClaimsChallengeThenTheBrowserThenAPI2Succeeds() async throws {
        let browser = HeadlessSignInBrowser(.password(username: Self.ada, password: Self.adaPassword))
        let (controller, environment) = try await claimsChallenge(browser)
        defer { environment.stop() }
        #expect(controller.model.result.hasPrefix("API 2 asks for a stronger sign-in (HTTP 401, a claims challenge"))
        #expect(controller.model.result.contains(#""acrs":{"essential":true,"value":"c1"}"#))
        let request = try #require(controller.browserSignIn)
        #expect(request.scopes == environment.api2?.scopes && request.retryURL == environment.api2?.url)
        #expect(request.claims?.jsonString().contains("c1") == true)
        #expect(controller.accessTokenAPI2 == nil, "the refused token is let go")

        try await pressContinue(controller)
        // Signed in with the browser, then API 2 again with the new token: 200.
        try await until(controller, "API 2") { $0.result.hasPrefix("Accessed API successfully") && $0.result.contains("profile") }
        #expect(controller.model.signedInAs == Self.ada && controller.model.focus == .button(.api1) && !controller.model.browserOffered)
        let token = try #require(controller.accessTokenAPI2)
        #expect(try claims(token)["acrs"] as? [String] == ["c1"], "the new token carries the authentication context")
        let redirect = try await browser.outcome().get()
        #expect(redirect.query?.contains("code=") == true)

        // Both API buttons work as after a native sign-in; API 2 reuses the held token.
        controller.handle(.enter) // API 1 has the focus
        try await until(controller, "API 1") { $0.result.hasPrefix("Accessed API successfully") && $0.result.contains("todolist") }
        controller.perform(.press(.api2))
        #expect(!controller.model.result.hasPrefix("Retrieving"))
        try await until(controller, "API 2 again") { $0.result.contains("profile") }
        #expect(controller.accessTokenAPI2 == token)
        #expect(environment.nativeAuth.getNativeAuthUserAccount()?.account.username == Self.ada)
    }

    @Test func aSignInThatNeedsABrowserFinishesThereAndTheAPIsWork() async throws {
        // A tenant configuration without capabilities: Alan's MFA makes the native sign-in answer "browser required".
        let server = try EmulatorServer(router: try EmulatorRouter(), port: 0)
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString)/cache.json")
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent()) }
        let configuration = try DemoConfiguration.load(
            Data(
                """
                {"client_id": "\(Seed.demo.apps[0].clientId)", "authority": "\(server.authority)", "cache_file": "\(cache.path)",
                 "capabilities": [],
                 "api1": {"url": "\(server.baseURL)/api/todolist", "scopes": ["api://emulator/todolist/ToDoList.Read"]},
                 "api2": {"url": "\(server.baseURL)/api/profile", "scopes": ["api://emulator/profile/Profile.Read"]}}
                """.utf8))
        let browser = HeadlessSignInBrowser(.password(username: "alan@example.com", password: "Turing-Machine-1936"))
        let environment = try DemoEnvironment.tenant(configuration, logger: nil, browserLauncher: browser)
        let controller = DemoController(environment: environment, size: .init(columns: 80, rows: 24))
        try await signIn(controller, "alan@example.com", "Turing-Machine-1936")
        try await until(controller, "the offer") { $0.browserOffered }
        #expect(controller.model.result.hasPrefix("Signing in needs a web browser: "), "\(controller.model.result)")
        #expect(controller.model.prompt == nil && controller.model.signedInAs == nil)
        #expect(controller.browserSignIn?.scopes == ["api://emulator/todolist/ToDoList.Read"], "API 1's scopes by default")
        #expect(controller.browserSignIn?.claims == nil && controller.browserSignIn?.retryURL == nil)

        try await pressContinue(controller)
        try await until(controller, "signed in") { $0.signedInAs == "alan@example.com" }
        #expect(controller.model.result == "Signed in with the browser: alan@example.com")
        #expect(controller.model.focus == .button(.api1) && controller.accessTokenAPI1 != nil)
        controller.handle(.enter)
        try await until(controller, "API 1") { $0.result.contains("todolist") }
        controller.perform(.press(.api2))
        try await until(controller, "API 2") { $0.result.hasPrefix("Accessed API successfully") && $0.result.contains("profile") }

        // The cache file holds the account: the next start restores it.
        let again = DemoController(
            environment: try DemoEnvironment.tenant(configuration, logger: nil), size: .init(columns: 80, rows: 24))
        #expect(again.model.result == "Account found in cache: alan@example.com")
    }

    @Test func aV2SignInThatNeedsABrowserFinishesThere() async throws {
        // Hedy is browser-only in the emulator: V2 answers the browser fallback (DemoController+V2.swift).
        let browser = HeadlessSignInBrowser(.password(username: "hedy@example.com", password: "Frequency-Hopping-1942"))
        let environment = try DemoEnvironment.embedded(logger: nil, signInV2: true, browserLauncher: browser)
        defer { environment.stop() }
        let controller = DemoController(environment: environment, size: .init(columns: 80, rows: 24))
        try await signIn(controller, "hedy@example.com", "Frequency-Hopping-1942")
        try await until(controller, "the offer") { $0.browserOffered }
        #expect(controller.model.result.hasPrefix("Signing in needs a web browser: "), "\(controller.model.result)")
        try await pressContinue(controller)
        try await until(controller, "signed in") { $0.signedInAs == "hedy@example.com" }
        #expect(controller.model.result == "Signed in with the browser: hedy@example.com")
        controller.handle(.enter) // API 1 has the focus and the browser's token
        try await until(controller, "API 1") { $0.result.hasPrefix("Accessed API successfully") && $0.result.contains("todolist") }
    }

    /// Whether MSAL's default launcher has nothing to start here ($BROWSER, a display, WSL), so that
    /// a refusing launcher means "no browser" (MSAL tries those after the app's launcher).
    nonisolated static var noSystemBrowser: Bool {
        let environment = ProcessInfo.processInfo.environment
        return ["BROWSER", "DISPLAY", "WAYLAND_DISPLAY"].allSatisfy { (environment[$0] ?? "").isEmpty } && !onWSL
    }

    /// Windows Subsystem for Linux, where MSAL also tries `wslview`.
    nonisolated static var onWSL: Bool {
        ((try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)) ?? "").lowercased().contains("microsoft")
    }

    @Test(.enabled(if: noSystemBrowser, "MSAL would start the browser that $BROWSER or the display names"))
    func withoutABrowserTheAddressIsShownAndTheSignInWaitsForIt() async throws {
        let (controller, environment) = try await claimsChallenge(RefusingLauncher())
        defer { environment.stop() }
        try await pressContinue(controller)
        try await until(controller, "the address") { $0.result.hasPrefix("No browser could be started.") }
        #expect(controller.model.busy, "still waiting for the sign-in")
        let address = try #require(controller.model.signInAddress)
        let url = try #require(URL(string: address.shortURL))
        let port = try #require(url.port)
        #expect(address.shortURL.hasPrefix("http://localhost:\(port)/") && url.path.count == 9)
        // The embedded emulator is on loopback too: its port is forwarded in the same line.
        let emulatorPort = try #require(environment.api1.flatMap { URL(string: $0.url)?.port })
        #expect(address.sshCommand.hasPrefix("ssh -L \(port):localhost:\(port) -L \(emulatorPort):127.0.0.1:\(emulatorPort) "))

        // Both fit the 80x24 screen whole, over the mailbox.
        let screen = render(controller.model)
        #expect(screen.text.contains("   " + address.shortURL + "\n") && screen.text.contains("   " + address.sshCommand), "\(screen.text)")

        // Someone opens the short address in a browser: it leads to the sign-in page (the
        // challenge's claims and the login hint on its request), and the demo goes on as with a
        // started browser.
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (_, response) = try await session.data(from: url) // follows the redirect to the page
        let location = try #require(response.url?.absoluteString)
        #expect(location.contains("/oauth2/v2.0/authorize?") && location.contains("login_hint=ada%40example.com"))
        #expect(location.contains("claims="), "the challenge's claims go to the authorize request")
        let browser = HeadlessSignInBrowser(.password(username: Self.ada, password: Self.adaPassword))
        try await browser.open(url)
        try await until(controller, "API 2") { $0.result.hasPrefix("Accessed API successfully") && $0.result.contains("profile") }
        #expect(controller.model.signedInAs == Self.ada)
    }

    @Test func escapeCancelsTheBrowserSignInAndKeepsTheOffer() async throws {
        let (controller, environment) = try await claimsChallenge(SilentLauncher())
        defer { environment.stop() }
        let before = (controller.accessTokenAPI1, controller.model.signedInAs, controller.model.email)
        try await pressContinue(controller)
        controller.handle(.escape)
        #expect(!controller.model.busy && controller.model.result.hasPrefix("Browser sign-in cancelled."))
        #expect(controller.model.browserOffered && controller.model.focus == .button(.continueInBrowser), "the offer stays")
        #expect(before == (controller.accessTokenAPI1, controller.model.signedInAs, controller.model.email), "nothing else changes")
        // The SDK's session really ends (its late `.userCanceled` is dropped).
        for _ in 0..<500 where controller.browserSession != nil {
            try await Task.sleep(nanoseconds: 10_000_000)
            controller.handle(.tick)
        }
        #expect(controller.browserSession == nil && !controller.browserCancelPending)
        #expect(controller.model.result.hasPrefix("Browser sign-in cancelled."))
    }

    @Test func cancelOnTheBrowserPageIsReportedAndKeepsTheOffer() async throws {
        let (controller, environment) = try await claimsChallenge(HeadlessSignInBrowser(.cancel))
        defer { environment.stop() }
        try await pressContinue(controller)
        try await until(controller, "the answer") { !$0.busy }
        #expect(controller.model.result.hasPrefix("Browser sign-in cancelled."), "\(controller.model.result)")
        #expect(controller.model.browserOffered && controller.model.signedInAs == Self.ada)
        #expect(controller.browserSignIn?.claims != nil, "the same offer, claims and all")
    }

    @Test func anotherErrorShowsItsDescriptionAndTheOfferStays() async throws {
        let (controller, environment) = try await claimsChallenge(
            HeadlessSignInBrowser(.password(username: Self.ada, password: Self.adaPassword)))
        defer { environment.stop() }
        // The code redemption gets a body that is not JSON (the emulator's fault hook).
        let base = try #require(environment.api1?.url.replacingOccurrences(of: "/api/todolist", with: ""))
        var fault = URLRequest(url: try #require(URL(string: base + "/_emulator/faults")))
        fault.httpMethod = "POST"
        fault.httpBody = Data(#"[{"endpoint": "/oauth2/v2.0/token", "status": 200, "body": "invalid_json"}]"#.utf8)
        _ = try await URLSession.shared.data(for: fault)
        try await pressContinue(controller)
        try await until(controller, "the answer") { !$0.busy }
        #expect(controller.model.result.hasPrefix("Error while signing in with the browser: "), "\(controller.model.result)")
        #expect(controller.model.browserOffered && controller.model.signedInAs == Self.ada)
    }

    /// A launcher that cannot start anything.
    struct RefusingLauncher: MSALBrowserLauncher {
        struct NoBrowser: Error {}
        func open(_ url: URL) async throws { throw NoBrowser() }
    }

    /// A launcher that "opens" the page and leaves it: nobody signs in.
    struct SilentLauncher: MSALBrowserLauncher {
        func open(_ url: URL) async throws {}
    }
}
