import Foundation
import NativeAuthTesting
import Testing

@testable import NativeAuthEmulator

/// The real program in an isolated tmux session against its embedded emulator.
/// Serialized: each test starts the program (and its emulator) in a terminal of its own; one at a time
/// keeps a 2-core machine responsive for the rest of the suite, and the waits poll without holding a thread.
@Suite(.serialized) struct TerminalEndToEndTests {
    private func start(columns: Int = 80, rows: Int = 24, arguments: String = "", environment: [String: String] = [:]) async throws
        -> TmuxSession
    {
        let session = try TmuxSession("\(TmuxSession.demoBinary) \(arguments)", columns: columns, rows: rows, environment: environment)
        // The program starts its emulator (hashing the seeded passwords): on a loaded 2-core machine,
        // at the start of the full suite, that has taken longer than the other waits allow.
        try await session.waitFor("Tab/arrows move", seconds: 90)
        return session
    }

    private func signIn(_ session: TmuxSession, _ email: String, _ password: String) throws {
        try session.type(email)
        try session.press("Tab")
        try session.type(password)
        try session.press("Enter")
    }

    @Test func passwordSignInBothAPIsReuseAndSignOut() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let session = try await start(arguments: "--log \(log)")
        try signIn(session, "ada@example.com", "Analytical-Engine-1843")
        try await session.waitFor("Signed in as ada@example.com")
        // After a sign-in the focus is on API 1; the answer is pretty-printed.
        try session.press("Enter")
        try await session.waitFor("\"api\" : \"todolist\"")
        try session.press("Tab", "Enter")
        try await session.waitFor("\"api\" : \"profile\"")
        try session.press("BTab", "Enter")
        try await session.waitFor("\"api\" : \"todolist\"")
        let tokenRequests = try String(contentsOfFile: log, encoding: .utf8).components(separatedBy: "POST /oauth2/v2.0/token").count - 1
        #expect(tokenRequests == 3, "sign-in, API 1, API 2; the second API 1 press reuses the held token")
        let logText = try String(contentsOfFile: log, encoding: .utf8)
        #expect(!logText.contains("Analytical-Engine-1843") && !logText.contains("ada@example.com"), "no secrets or addresses in the log")
        try session.press("BTab", "Enter") // Sign Out
        try await session.waitFor("Signed out")
        try await session.waitFor("Not signed in")
        try session.press("C-c")
        #expect(try await session.waitForExit() == 0)
    }

    @Test func codeSignInReadingTheMailboxPanel() async throws {
        let session = try await start()
        try signIn(session, "grace@example.com", "x")
        let screen = try await session.waitFor("Enter the 8-digit code")
        try await session.waitFor("sign in  email to grace@example.com")
        let mailbox = try session.screen()
        let code = try #require(
            mailbox.split(separator: "\n").compactMap { line -> String? in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasSuffix("to grace@example.com") else { return nil }
                return String(trimmed.prefix(8))
            }.first)
        #expect(code.count == 8 && code.allSatisfy(\.isNumber), "\(screen)")
        try session.type(code)
        try session.press("Enter")
        try await session.waitFor("Signed in as grace@example.com")
    }

    @Test func signUpWithCodeAndAttributes() async throws {
        let session = try await start()
        try session.type("new.person@example.com")
        try session.press("Tab")
        try session.type("Fresh-Start-2026")
        try session.press("Tab", "Tab", "Enter") // Sign Up
        try await session.waitFor("Enter the 8-digit code")
        let code = try #require(
            try await session.waitFor("the sign-up code") { $0.contains("sign up  email to new.person@example.com") }
                .split(separator: "\n").first { $0.contains("sign up  email to") }.map {
                    String($0.trimmingCharacters(in: .whitespaces).prefix(8))
                })
        try session.type(code)
        try session.press("Enter")
        try await session.waitFor("About you")
        try session.type("Néw Pérson")
        try session.press("Enter")
        try await session.waitFor("Signed in as new.person@example.com")
    }

    @Test func resetPasswordThenSignedIn() async throws {
        let session = try await start()
        try session.type("ada@example.com")
        try session.press("Tab", "Tab", "Tab", "Tab", "Enter") // Reset Password
        try await session.waitFor("Enter the 8-digit code")
        let code = try #require(
            try await session.waitFor("the reset code") { $0.contains("reset password  email to ada@example.com") }
                .split(separator: "\n").first { $0.contains("reset password  email to") }.map {
                    String($0.trimmingCharacters(in: .whitespaces).prefix(8))
                })
        try session.type(code)
        try session.press("Enter")
        try await session.waitFor("Choose a new password")
        try session.type("Difference-Engine-1822")
        try session.press("Enter")
        try await session.waitFor("Signed in as ada@example.com")
    }

    /// The code on the mailbox panel's line that ends with `suffix`, once it shows.
    private func codeOnScreen(_ session: TmuxSession, endingWith suffix: String) async throws -> String {
        let screen = try await session.waitFor("a code \(suffix)") { $0.contains(suffix) }
        let line = try #require(screen.split(separator: "\n").first { $0.hasSuffix(suffix) })
        let code = String(line.trimmingCharacters(in: .whitespaces).prefix(8))
        #expect(code.count == 8 && code.allSatisfy(\.isNumber), "\(screen)")
        return code
    }

    @Test func mfaSignInWithTheSMSCodeFromTheMailboxPanel() async throws {
        let session = try await start()
        try await session.waitFor("alan@example.com / Turing-Machine-1936")
        try signIn(session, "alan@example.com", "Turing-Machine-1936")
        let picker = try await session.waitFor("where should the code go?")
        #expect(picker.contains("Email  a") && picker.contains("SMS    +") && !picker.contains("5550100"), "masked targets:\n\(picker)")
        try session.press("Down", "Enter") // SMS
        try await session.waitFor("enter the 8-digit code")
        try session.type("00000000")
        try session.press("Enter")
        try await session.waitFor("Invalid code. Try again or resend.")
        let code = try await codeOnScreen(session, endingWith: "mfa  sms to +15550100")
        try session.press("BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
        try session.type(code)
        try session.press("Enter")
        try await session.waitFor("Signed in as alan@example.com")
        try session.press("Enter") // API 1 has the focus
        try await session.waitFor("\"api\" : \"todolist\"")
    }

    @Test func jitRegistrationOfAPhoneAfterABlockedOne() async throws {
        let session = try await start()
        try signIn(session, "katherine@example.com", "Orbital-Mechanics-1962")
        try await session.waitFor("Register a second factor")
        try session.press("Down", "Space") // SMS, then the contact field
        try session.type("+15550199")
        try session.press("Enter")
        try await session.waitFor("Blocked: the service will not send codes there.")
        for _ in 0..<9 { try session.press("BSpace") }
        try session.type("+15550123")
        try session.press("Enter")
        try await session.waitFor("Verify the new method")
        try session.type(try await codeOnScreen(session, endingWith: "registration  sms to +15550123"))
        try session.press("Enter")
        try await session.waitFor("Signed in as katherine@example.com")
    }

    @Test func signInV2ChoosingThePasswordAsTheFirstFactor() async throws {
        let session = try await start(arguments: "--v2")
        let screen = try await session.waitFor("barbara@example.com / Substitution-Principle-1987")
        #expect(screen.split(separator: "\n").first?.hasSuffix("V2 (experimental) · emulator") == true, "\(screen)")
        try session.type("barbara@example.com")
        try session.press("Tab", "Tab", "Enter") // no password: Sign In
        let picker = try await session.waitFor("How do you want to sign in?")
        #expect(picker.contains("› Password") && picker.contains("Email     b*"), "\(picker)")
        try session.press("Enter") // Password
        try await session.waitFor("Enter your password")
        try session.type("Substitution-Principle-1987")
        try session.press("Enter")
        try await session.waitFor("Signed in as barbara@example.com")
        try session.press("C-c")
        #expect(try await session.waitForExit() == 0)
    }

    @Test func pageKeysScrollAResultLongerThanTheView() async throws {
        // At 80x16 the result view has 3 lines and the start text is longer.
        let session = try await start(rows: 16)
        let first = try await session.waitFor("a scrollable result") { $0.contains("─ Result (lines 1-3 of ") }
        #expect(first.contains("Offline demo"))
        try session.press("NPage")
        let next = try await session.waitFor("the next page") { $0.contains("─ Result (lines 3-5 of ") }
        #expect(!next.contains("Offline demo"))
        try session.press("PPage")
        try await session.waitFor("the first page again") { $0.contains("─ Result (lines 1-3 of ") }
    }

    @Test func wrongPassword() async throws {
        let session = try await start()
        try signIn(session, "ada@example.com", "nope-nope-nope")
        try await session.waitFor("Invalid username or password")
    }

    @Test func emptyFieldsAndResize() async throws {
        let session = try await start()
        try session.press("Tab", "Enter")
        try await session.waitFor("Email or password not set")
        try session.resize(columns: 100, rows: 30)
        // The whole redraw: its first line wide and its last the key help (a capture may land between
        // the two while the program writes the screen).
        let wide = try await session.waitFor("a complete redraw at 100x30") { screen in
            let wideTop =
                screen.split(separator: "\n", omittingEmptySubsequences: false).first.map { $0.hasSuffix("emulator") && $0.count > 90 }
                ?? false
            return wideTop && (screen.split(separator: "\n").last?.contains("Ctrl-C quit") ?? false)
        }
        #expect(wide.split(separator: "\n").count <= 30)
        try session.resize(columns: 80, rows: 24)
        try await session.waitFor("back to 80x24") { ($0.split(separator: "\n").first?.count ?? 0) <= 80 }
    }

    @Test func sigtermRestoresTheTerminalAndExitsCleanly() async throws {
        let session = try await start()
        // The pane runs `sh -c 'multi-api-demo; …'`: signal the demo, the shell's child.
        let shell = try #require(Int32(try session.paneValue("#{pane_pid}")))
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        let pid = try #require(children.split(separator: " ").first.flatMap { Int32($0) })
        kill(pid, SIGTERM)
        #expect(try await session.waitForExit() == 0)
    }

    @Test func noColorMeansNoColourEscapes() async throws {
        let coloured = try await start(environment: ["NO_COLOR": ""])
        #expect(try coloured.screen(escapes: true).contains("44m"), "the title bar is blue by default")
        let plain = try await start(environment: ["NO_COLOR": "1"])
        let escapes = try plain.screen(escapes: true)
        #expect(!escapes.contains("44m") && !escapes.contains("36m"))
        #expect(escapes.contains("7m") || escapes.contains("1m"), "focus still shows, by reverse video or bold")
    }

    @Test func aRealTenantConfigurationHasNoMailboxAndCanLackAnAPI() async throws {
        let server = try EmulatorServer(router: try EmulatorRouter(), port: 0)
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("demo-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.json")
        try Data(
            """
            {"client_id": "\(Seed.demo.apps[0].clientId)", "authority": "\(server.authority)",
             "cache_file": "\(directory.appendingPathComponent("cache.json").path)",
             "api1": {"url": "\(server.baseURL)/api/todolist", "scopes": ["api://emulator/todolist/ToDoList.Read"]}}
            """.utf8
        ).write(to: config)
        let session = try await start(arguments: "--config \(config.path)")
        let screen = try session.screen()
        #expect(!screen.contains("Mailbox") && screen.contains("127.0.0.1"))
        try signIn(session, "ada@example.com", "Analytical-Engine-1843")
        try await session.waitFor("Signed in as ada@example.com")
        try session.press("Tab", "Enter") // API 2 (the focus is on API 1 after a sign-in)
        try await session.waitFor("API 2 not configured.")
        try session.press("C-c")
        #expect(try await session.waitForExit() == 0)

        // A second run restores the account from the cache file.
        let again = try await start(arguments: "--config \(config.path)")
        try await again.waitFor("Account found in cache: ada@example.com")
    }

    // MARK: Continue in browser

    /// A `$BROWSER` for the program: a script that records the address it is given and exits 0,
    /// so MSAL's default launcher counts it as started; the test then does what a person does on
    /// the page, with `HeadlessSignInBrowser`.
    private func recordingBrowser() throws -> (script: String, address: () -> URL?, cleanUp: () -> Void) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("demo-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("record-url").path
        let file = directory.appendingPathComponent("url").path
        try Data("#!/bin/sh\nprintf '%s\\n' \"$1\" > '\(file).part' && mv '\(file).part' '\(file)'\n".utf8)
            .write(to: URL(fileURLWithPath: script))
        chmod(script, 0o755)
        let address = { () -> URL? in
            (try? String(contentsOfFile: file, encoding: .utf8)).flatMap { URL(string: $0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        return (script, address, { try? FileManager.default.removeItem(at: directory) })
    }

    /// Signs Ada in, presses API 2 (which asks for authentication context c1), then Continue in browser.
    private func continueAfterAClaimsChallenge(_ session: TmuxSession) async throws {
        try await session.waitFor("Conditional access: API 2 asks for authentication context c1")
        try signIn(session, "ada@example.com", "Analytical-Engine-1843")
        try await session.waitFor("Signed in as ada@example.com")
        try session.press("Tab", "Enter") // API 2 (the focus is on API 1 after a sign-in)
        let offer = try await session.waitFor("[ Continue in browser ]")
        #expect(offer.contains("API 2 asks for a stronger sign-in (HTTP 401, a claims challenge"), "\(offer)")
        try session.press("Enter") // the focus is on the button
    }

    @Test func conditionalAccessContinuesInTheBrowserThenAPI2Answers() async throws {
        let browser = try recordingBrowser()
        defer { browser.cleanUp() }
        let session = try await start(arguments: "--conditional-access", environment: ["BROWSER": browser.script])
        try await continueAfterAClaimsChallenge(session)
        try await session.waitFor("Opening the browser to sign in")
        var address: URL?
        for _ in 0..<300 where address == nil {
            address = browser.address()
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        let url = try #require(address, "the program did not start $BROWSER")
        #expect(url.query?.contains("claims=") == true && url.query?.contains("login_hint=ada%40example.com") == true)
        let page = HeadlessSignInBrowser(.password(username: "ada@example.com", password: "Analytical-Engine-1843"))
        try await page.open(url)
        _ = try await page.outcome().get()
        try await session.waitFor("\"api\" : \"profile\"") // API 2 again, with the new token
        try await session.waitFor("Signed in as ada@example.com")
        try session.press("Enter") // API 1 has the focus
        try await session.waitFor("\"api\" : \"todolist\"")
        try session.press("C-c")
        #expect(try await session.waitForExit() == 0)
    }

    @Test(.enabled(if: !BrowserControllerTests.onWSL, "MSAL tries wslview on WSL"))
    func withoutABrowserTheScreenShowsTheAddressToOpen() async throws {
        // As over SSH: no $BROWSER, no display.
        let session = try await start(
            arguments: "--conditional-access", environment: ["BROWSER": "", "DISPLAY": "", "WAYLAND_DISPLAY": ""])
        try await continueAfterAClaimsChallenge(session)
        let screen = try await session.waitFor("ssh -L ")
        #expect(screen.contains("Sign in from a browser · Esc cancels"), "\(screen)")
        // The short address and the ssh line, each on a row of its own.
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let address = try #require(lines.first { $0.hasPrefix("http://localhost:") }, "\(screen)")
        let url = try #require(URL(string: address), "\(screen)")
        let port = try #require(url.port)
        #expect(address.hasPrefix("http://localhost:\(port)/") && url.path.count == 9, "the port and the random path")
        let ssh = try #require(lines.first { $0.hasPrefix("ssh -L ") })
        #expect(ssh.hasPrefix("ssh -L \(port):localhost:\(port) -L "), "the listener's port, then the emulator's: \(ssh)")
        #expect(screen.contains("Working… Esc cancels"), "the sign-in waits")
        let page = HeadlessSignInBrowser(.password(username: "ada@example.com", password: "Analytical-Engine-1843"))
        try await page.open(url)
        _ = try await page.outcome().get()
        try await session.waitFor("\"api\" : \"profile\"")
    }

    @Test func escapeCancelsTheBrowserSignIn() async throws {
        let browser = try recordingBrowser() // starts, and nobody signs in
        defer { browser.cleanUp() }
        let session = try await start(arguments: "--conditional-access", environment: ["BROWSER": browser.script])
        try await continueAfterAClaimsChallenge(session)
        try await session.waitFor("Opening the browser to sign in")
        try session.press("Escape")
        let screen = try await session.waitFor("Browser sign-in cancelled.")
        #expect(screen.contains("[ Continue in browser ]") && screen.contains("Signed in as ada@example.com"))
    }

    @Test func helpAndBadArguments() async throws {
        let help = try await runDemo(["--help"])
        #expect(help.status == 0 && help.output.contains("Usage: multi-api-demo"))
        #expect(help.output.contains("--v2            Sign In through native auth V2 (experimental"))
        let unknown = try await runDemo(["--frobnicate"])
        #expect(unknown.status == 2 && unknown.error.contains("unknown option"))
        let missing = try await runDemo(["--config", "/nonexistent/config.json"])
        #expect(missing.status == 2 && missing.error.contains("cannot read"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"tenant_subdomain": "contoso"}"#.utf8).write(to: file)
        let bad = try await runDemo(["--config", file.path])
        #expect(bad.status == 2 && bad.error.contains("client_id"))
        let both = try await runDemo(["--config", file.path, "--conditional-access"])
        #expect(both.status == 2 && both.error.contains("--conditional-access applies to the embedded emulator"))
        let noTerminal = try await runDemo([])
        #expect(noTerminal.status == 1 && noTerminal.error.contains("cannot use this terminal"))
    }
}
