import Foundation
import MSAL
import TestSupport
import Testing

@testable import NativeAuthEmulator

extension BrowserSignInEndToEndTests {
    /// `acquireToken` in a real browser: Debian's headless Chromium driven by Selenium
    /// (`real_browser_sign_in.py`), started through the SDK's `MSALBrowserLauncher`, fills the
    /// emulator's authorize page and lands on the SDK's loopback redirect page; the token then sits
    /// in the cache that `acquireTokenSilent` and `getNativeAuthUserAccount()` read.
    ///
    /// Nested in `BrowserSignInEndToEndTests` so that its `.serialized` covers these tests too: the
    /// SDK runs one browser sign-in at a time per process. Chromium and ChromeDriver come from
    /// `scripts/install-deps test`, Selenium from the Python that `scripts/test` makes and names in
    /// `SELENIUM_PYTHON`. A plain `swift test` has no such Python: the tests are skipped then,
    /// saying so. With it, a missing Chromium or ChromeDriver fails them, naming what is missing.
    @Suite(
        .timeLimit(.minutes(5)),
        // The reason shown when skipped; scripts/test always sets SELENIUM_PYTHON, so they run there.
        .enabled(
            if: SeleniumPython.isReady,
            "needs SELENIUM_PYTHON naming a Python with selenium; scripts/test makes one in .build/test-venv and sets it"))
    struct RealBrowserSignInTests {
        typealias H = EmulatorHarness
        static let todo = BrowserSignInEndToEndTests.todo

        @Test func passwordInChromiumEndsWithATokenInTheCacheTheNativeAccountSees() async throws {
            try Tools.require()
            let live = try Live()
            let browser = SeleniumBrowser(.password(username: H.ada, password: H.adaPassword))
            let result = try await browser.signIn { try await live.app.acquireToken(with: Self.parameters([Self.todo], browser)) }

            #expect(result.account.username == H.ada && result.tenantProfile.tenantId == Seed.demo.tenant.id)
            #expect(result.scopes == [Self.todo] && !result.accessToken.isEmpty && result.idToken != nil)

            // The same cache behind both surfaces: silent is a cache hit (no token request), and the
            // native account is the browser's and gets the same access token from the cache.
            let tokenRequests = live.tokenRequests()
            #expect(tokenRequests == 1) // the code redemption
            let silent = try await live.app.acquireTokenSilent(
                with: MSALSilentTokenParameters(scopes: [Self.todo], account: result.account))
            #expect(silent.accessToken == result.accessToken && silent.account.identifier == result.account.identifier)
            let native = try #require(live.app.getNativeAuthUserAccount())
            #expect(native.account.identifier == result.account.identifier && native.account.username == H.ada)
            let parameters = MSALNativeAuthGetAccessTokenParameters()
            parameters.scopes = [Self.todo]
            #expect(try await native.getAccessToken(parameters: parameters).accessToken == result.accessToken)
            #expect(live.tokenRequests() == tokenRequests)
        }

        @Test func anEmailCodeInChromium() async throws {
            try Tools.require()
            let live = try Live()
            let browser = SeleniumBrowser(.emailCode(username: H.grace))
            let result = try await browser.signIn { try await live.app.acquireToken(with: Self.parameters([Self.todo], browser)) }
            #expect(result.account.username == H.grace && !result.accessToken.isEmpty)
            #expect(live.app.getNativeAuthUserAccount()?.account.identifier == result.account.identifier)
        }

        @Test func cancelInChromiumIsUserCanceled() async throws {
            try Tools.require()
            let live = try Live()
            let browser = SeleniumBrowser(.cancel)
            do {
                _ = try await browser.signIn { try await live.app.acquireToken(with: Self.parameters([Self.todo], browser)) }
                Issue.record("a cancelled sign-in returned tokens")
            } catch {
                let error = error as NSError
                #expect(error.domain == MSALErrorDomain && error.code == MSALError.userCanceled.rawValue, "\(error)")
            }
            #expect(try live.app.allAccounts().isEmpty && live.app.getNativeAuthUserAccount() == nil)
        }

        /// No browser starts here (as over SSH): the app shows the short address, and Chromium opened
        /// on it follows the listener's redirect to the styled sign-in page, signs in and lands on
        /// the loopback page.
        @Test func theShortAddressInChromium() async throws {
            try Tools.require()
            let live = try Live()
            let browser = SeleniumBrowser(.password(username: H.ada, password: H.adaPassword))
            let parameters = Self.parameters([Self.todo], browser)
            parameters.webviewParameters.browserLauncher = RefusingLauncher()
            parameters.webviewParameters.signInAddressHandler = { address in
                Task {
                    do {
                        try await browser.open(address.shortURL)
                    } catch {
                        MSALPublicClientApplication.cancelCurrentWebAuthSession()
                    }
                }
            }
            let result = try await browser.signIn { try await live.app.acquireToken(with: parameters) }
            #expect(result.account.username == H.ada && !result.accessToken.isEmpty)
        }

        /// Generous on a loaded two-core machine, yet bounded: the script gives up after 150 s
        /// (then the launcher cancels the sign-in at once), the SDK after 200 s.
        static func parameters(_ scopes: [String], _ browser: SeleniumBrowser) -> MSALInteractiveTokenParameters {
            let webview = MSALWebviewParameters()
            webview.browserLauncher = browser
            webview.timeout = 200
            return MSALInteractiveTokenParameters(scopes: scopes, webviewParameters: webview)
        }
    }
}

extension BrowserSignInEndToEndTests.Live {
    /// How many token requests the emulator has served (its request log).
    func tokenRequests() -> Int {
        let reply = router.handle(EmulatorRequest(method: "GET", path: "/_emulator/requests", query: [:], baseURL: ""))
        let log = (try? JSONSerialization.jsonObject(with: reply.body)) as? [[String: Any]] ?? []
        return log.filter { ($0["path"] as? String)?.hasSuffix("/oauth2/v2.0/token") == true }.count
    }
}

extension BrowserSignInEndToEndTests.RealBrowserSignInTests {
    /// Where the real browser and its driver are, and the check that they are there.
    enum Tools {
        static let chromium = "/usr/bin/chromium"
        static let chromedriver = "/usr/bin/chromedriver"
        static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("real_browser_sign_in.py")
            .path

        static var python: String { SeleniumPython.path }

        /// Fails the test, naming every missing piece, unless Chromium, ChromeDriver and Selenium are all there.
        static func require() throws {
            var missing: [String] = []
            if !FileManager.default.isExecutableFile(atPath: chromium) {
                missing.append("chromium (\(chromium); Debian package chromium, `scripts/install-deps test`)")
            }
            if !FileManager.default.isExecutableFile(atPath: chromedriver) {
                missing.append("chromedriver (\(chromedriver); Debian package chromium-driver, `scripts/install-deps test`)")
            }
            if !SeleniumPython.isReady {
                missing.append("selenium (PyPI) in SELENIUM_PYTHON (`scripts/test` installs it into .build/test-venv and sets it)")
            }
            try #require(missing.isEmpty, "the real-browser test needs: \(missing.joined(separator: "; "))")
        }

    }

    /// The app's browser launcher: starts `real_browser_sign_in.py` with the authorize URL (a `ChildProcess`
    /// with an argument array, no shell, ended with this object) and returns once it runs, as a desktop browser command does.
    /// When the script fails it cancels the SDK's sign-in at once, so the test ends with the script's
    /// own message instead of waiting for the SDK's timeout.
    final class SeleniumBrowser: MSALBrowserLauncher, @unchecked Sendable {
        // `@unchecked`: `state` is only touched under `lock`.
        enum Action: Sendable {
            case password(username: String, password: String)
            case emailCode(username: String)
            case cancel
        }

        /// How the script ended: its exit status (minus the signal that killed it) and what it wrote.
        struct Outcome: Sendable, CustomStringConvertible {
            var status: Int32
            var output: String
            var description: String {
                (status < 0 ? "real_browser_sign_in.py was killed by signal \(-status)" : "real_browser_sign_in.py exited with \(status)")
                    + ":\n\(output)"
            }
        }

        private struct State {
            var process: ChildProcess?
            var outcome: Outcome?
        }

        let action: Action
        private let lock = NSLock()
        private var state = State()
        private let log = FileManager.default.temporaryDirectory.appendingPathComponent("real-browser-\(UUID().uuidString).log")

        init(_ action: Action) { self.action = action }

        deinit {
            // The script, its ChromeDriver and Chromium (which carry the script's id) end with the test.
            lock.withLock { state.process }?.end()
            try? FileManager.default.removeItem(at: log)
        }

        func open(_ url: URL) async throws {
            var arguments = [Tools.script, url.absoluteString, "--chromium", Tools.chromium, "--chromedriver", Tools.chromedriver]
            arguments += ["--step-timeout", "45", "--deadline", "150"]
            switch action {
            case .password(let username, let password): arguments += ["--username", username, "--password", password]
            case .emailCode(let username): arguments += ["--username", username, "--email-code"]
            case .cancel: arguments += ["--cancel"]
            }
            guard FileManager.default.createFile(atPath: log.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
            let output = try FileHandle(forWritingTo: log)
            defer { try? output.close() }
            let process = try ChildProcess(
                Tools.python, arguments, stdout: .descriptor(output.fileDescriptor), stderr: .descriptor(output.fileDescriptor))
            lock.withLock { state.process = process }
            // Watches for the end of the script; the process stays owned by this object.
            Task.detached { [weak self, weak process] in
                while let running = process, running.exitStatus == nil { try? await Task.sleep(for: .milliseconds(50)) }
                guard let status = process?.exitStatus else { return }
                self?.finished(status > 128 ? -(status - 128) : status)
            }
        }

        private func finished(_ status: Int32) {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? "(no output)"
            lock.withLock { state.outcome = Outcome(status: status, output: text) }
            if status != 0 { MSALPublicClientApplication.cancelCurrentWebAuthSession() }
        }

        /// Runs `acquireToken`, then waits for the script to end; records an issue with the script's
        /// output unless it landed on the loopback page as expected (exit status 0).
        func signIn(_ acquire: () async throws -> MSALResult) async throws -> MSALResult {
            let result: Result<MSALResult, any Error>
            do {
                result = .success(try await acquire())
            } catch {
                result = .failure(error)
            }
            let outcome = await outcome(within: 60)
            if outcome?.status != 0 {
                Issue.record(
                    "the browser did not land on the loopback page: \(outcome.map(String.init(describing:)) ?? "it never started")")
            }
            return try result.get()
        }

        /// The script's outcome, waiting at most `seconds` for it to end; then SIGTERM (the script
        /// still quits Chromium), then SIGKILL. Nil when it never started.
        func outcome(within seconds: Double) async -> Outcome? {
            guard let process = lock.withLock({ state.process }) else { return nil }
            if let outcome = await poll(seconds) { return outcome }
            process.signal(SIGTERM)
            if let outcome = await poll(15) { return outcome }
            process.end()
            return await poll(5) ?? Outcome(status: -SIGKILL, output: "still running after SIGKILL")
        }

        private func poll(_ seconds: Double) async -> Outcome? {
            let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            while ContinuousClock.now < end {
                if let outcome = lock.withLock({ state.outcome }) { return outcome }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return lock.withLock { state.outcome }
        }
    }
}

/// The Python that drives Chromium: `SELENIUM_PYTHON`, which scripts/test sets to the one it makes
/// in .build/test-venv. Outside the suite, whose `.enabled(if:)` trait reads it.
enum SeleniumPython {
    /// `SELENIUM_PYTHON`, or an empty string when it is not set.
    static var path: String { ProcessInfo.processInfo.environment["SELENIUM_PYTHON"] ?? "" }

    /// Whether `SELENIUM_PYTHON` names a Python that can import selenium (checked once).
    static let isReady: Bool = {
        guard !path.isEmpty, FileManager.default.isExecutableFile(atPath: path) else { return false }
        return (try? ChildProcess.runBlocking(path, ["-c", "import selenium"], limit: 120))?.status == 0
    }()
}
