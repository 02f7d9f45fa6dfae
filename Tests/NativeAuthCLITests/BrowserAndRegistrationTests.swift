import Foundation
import NativeAuthTesting
import Testing

/// The browser fallback when the service requires it, and registering a second factor.
@Suite(.serialized) struct BrowserAndRegistrationTests {
    @Test func withoutABrowserTheAddressIsPrintedAndTheSignInCompletes() async throws {
        // Without the MFA capability the service sends alan to the browser; there is none here
        // ($BROWSER and the display are empty), so the tool prints the short address and the ssh line
        // and waits; the page opened at that address finishes the sign-in.
        let emulator = try CLIEmulator(capabilities: [])
        let tool = try emulator.start(["login", "--username", "alan@example.com", "--password", CLIEmulator.alanPassword])
        try tool.waitForStderr("ssh -L ")
        let lines = tool.stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let address = try #require(lines.first { $0.hasPrefix("http://localhost:") }, "the short address: \(tool.stderr)")
        #expect(lines.contains { $0.hasPrefix("ssh -L ") && $0.contains(":localhost:") }, "and the ssh line: \(tool.stderr)")
        let url = try #require(URL(string: address))
        let page = HeadlessSignInBrowser(.password(username: "alan@example.com", password: CLIEmulator.alanPassword))
        try await page.open(url)
        _ = try await page.outcome().get()
        tool.closeInput()
        let result = tool.wait()
        #expect(result.status == 0 && result.stdout == "alan@example.com\n", "\(result)")
        let token = try emulator.run(["token", "--scope", CLIEmulator.todolist])
        #expect(token.status == 0, "the browser's tokens are in the same cache: \(token)")
    }

    @Test func registeringASecondFactorAcrossInvocations() async throws {
        let emulator = try CLIEmulator()
        let first = try emulator.run(
            ["login", "--no-prompt", "--json", "--username", "katherine@example.com", "--password", "Orbital-Mechanics-1962"])
        #expect(first.status == 4 && first.json["needs"] as? String == "contact", "\(first)")
        let second = try emulator.run(["login", "--no-prompt", "--json", "--method", "email", "--contact", "kj.backup@example.org"])
        #expect(second.status == 4 && second.json["needs"] as? String == "code", "\(second)")
        let code = try await emulator.lastCode("katherine@example.com")
        let third = try emulator.run(["login", "--no-prompt", "--code", code])
        #expect(third.status == 0 && third.stdout == "katherine@example.com\n", "\(third)")
    }

    @Test func registeringWithPromptsOnAPipe() async throws {
        let emulator = try CLIEmulator()
        let tool = try emulator.start(["login", "--username", "katherine@example.com"])
        tool.write("Orbital-Mechanics-1962\n")
        try tool.waitForStderr("Register a second factor for katherine@example.com:")
        tool.write("sms\n")
        try tool.waitForStderr("Phone number")
        tool.write("+15550123\n")
        try tool.waitForStderr("Code sent by sms")
        tool.write(try await emulator.lastCode("katherine@example.com") + "\n")
        tool.closeInput()
        let result = tool.wait()
        #expect(result.status == 0 && result.stdout == "katherine@example.com\n", "\(result)")
    }
}
