import Foundation
import Testing

/// `native-auth login` as a subprocess against the emulator: the code flow across two invocations,
/// passwords from stdin and from prompts on a pipe, MFA by SMS both ways.
@Suite(.serialized) struct LoginEndToEndTests {
    @Test func anEmailCodeLoginSpansTwoInvocations() async throws {
        let emulator = try CLIEmulator()
        let first = try emulator.run(["login", "--no-prompt", "--username", "grace@example.com"])
        #expect(first.status == 4, "\(first)")
        #expect(first.stdout.isEmpty, "stdout carries results only")
        #expect(first.stderr.contains("native-auth login --code CODE"), "the message says what to pass next")
        let saved = emulator.appDirectory + "/login-state.json"
        #expect(mode(saved) == 0o600, "the saved sign-in holds a continuation token")
        #expect(mode(emulator.appDirectory) == 0o700)
        #expect(mode(emulator.home.stateHome + "/native-auth") == 0o700)

        let wrong = try emulator.run(["login", "--no-prompt", "--code", "00000000"])
        #expect(wrong.status == 5, "\(wrong)")
        #expect(mode(saved) == 0o600, "a wrong code keeps the sign-in for another try")

        let code = try await emulator.lastCode("grace@example.com")
        let second = try emulator.run(["login", "--no-prompt", "--code", code])
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout == "grace@example.com\n")
        #expect(mode(saved) == -1, "the saved sign-in is removed when it ends")
        #expect(mode(emulator.appDirectory + "/token_cache.json") == 0o600)

        let again = try emulator.run(["login", "--no-prompt", "--code", code])
        #expect(again.status == 9, "nothing left to continue: \(again)")
        let status = try emulator.run(["status", "--json"])
        #expect(
            status.status == 0 && (status.json["account"] as? [String: Any])?["username"] as? String == "grace@example.com", "\(status)")
    }

    @Test func aSavedSignInOfAnotherAppIsRefused() throws {
        let emulator = try CLIEmulator()
        #expect(try emulator.run(["login", "--no-prompt", "--username", "grace@example.com"]).status == 4)
        // The same directory (client id), another authority: the SDK refuses the state.
        let other = try emulator.home.writeConfig(
            ["client_id": emulator.server.router.seed.apps[0].clientId, "authority": "http://127.0.0.1:9/other.onmicrosoft.com"],
            name: "other.json")
        let refused = try emulator.home.run(["--config", other, "login", "--no-prompt", "--code", "12345678"])
        #expect(refused.status == 9 && refused.stderr.contains("another app"), "\(refused)")
        #expect(mode(emulator.appDirectory + "/login-state.json") == -1)
    }

    @Test func aPasswordFromStdinOrFromPromptsOnAPipe() throws {
        let emulator = try CLIEmulator()
        let fromStdin = try emulator.run(
            ["login", "--username", "ada@example.com", "--password", "-"], input: CLIEmulator.adaPassword + "\n")
        #expect(fromStdin.status == 0 && fromStdin.stdout == "ada@example.com\n", "\(fromStdin)")

        let waiting = try emulator.run(["login", "--no-prompt", "--username", "ada@example.com"])
        #expect(waiting.status == 4 && waiting.stderr.contains("--password"), "the password step is saved: \(waiting)")
        let continued = try emulator.run(["login", "--no-prompt", "--password", "-"], input: CLIEmulator.adaPassword + "\n")
        #expect(continued.status == 0 && continued.stdout == "ada@example.com\n", "\(continued)")

        let wrongOption = try emulator.run(["login", "--no-prompt", "--username", "ada@example.com", "--password", "Not-The-Password-1"])
        #expect(wrongOption.status == 5, "\(wrongOption)")

        let prompted = try emulator.run(["login"], input: "ada@example.com\n\(CLIEmulator.adaPassword)\n")
        #expect(prompted.status == 0 && prompted.stdout == "ada@example.com\n", "\(prompted)")
        #expect(prompted.stderr.contains("Email: ") && prompted.stderr.contains("Password for ada@example.com: "))
        #expect(!prompted.stderr.contains(CLIEmulator.adaPassword) && !prompted.stdout.contains(CLIEmulator.adaPassword))

        let retried = try emulator.run(["login"], input: "ada@example.com\nWrong-Password-1\n\(CLIEmulator.adaPassword)\n")
        #expect(retried.status == 0 && retried.stderr.contains("Try again."), "\(retried)")

        let gaveUp = try emulator.run(["login"], input: "ada@example.com\nWrong-Password-1\n")
        #expect(gaveUp.status == 5, "a wrong answer, then the input ends: \(gaveUp)")
        let silent = try emulator.run(["login"], input: "")
        #expect(silent.status == 4, "no answer at all: \(silent)")
    }

    @Test func mfaBySMSWithPromptsOnAPipe() async throws {
        let emulator = try CLIEmulator()
        let tool = try emulator.start(["login"])
        tool.write("alan@example.com\n\(CLIEmulator.alanPassword)\n")
        try tool.waitForStderr("Choose 1-2: ")
        #expect(tool.stderr.contains("sms +*******0100"))
        tool.write("sms\n")
        try tool.waitForStderr("Code sent by sms to +*******0100")
        tool.write(try await emulator.lastCode("alan@example.com") + "\n")
        tool.closeInput()
        let result = tool.wait()
        #expect(result.status == 0 && result.stdout == "alan@example.com\n", "\(result)")
    }

    @Test func mfaBySMSAcrossInvocationsWithJSON() async throws {
        let emulator = try CLIEmulator()
        let first = try emulator.run(
            ["login", "--no-prompt", "--json", "--username", "alan@example.com", "--password", CLIEmulator.alanPassword])
        #expect(first.status == 4, "\(first)")
        #expect(first.json["status"] as? String == "needs_input" && first.json["needs"] as? String == "method", "\(first)")
        let methods = try #require(first.json["methods"] as? [[String: Any]])
        #expect(methods.compactMap { $0["channel"] as? String }.sorted() == ["email", "sms"])

        let second = try emulator.run(["login", "--no-prompt", "--json", "--method", "sms"])
        #expect(second.status == 4 && second.json["needs"] as? String == "code", "\(second)")
        #expect(second.json["channel"] as? String == "sms" && second.json["sent_to"] as? String == "+*******0100")
        let mail = try await emulator.lastCode("alan@example.com")

        let third = try emulator.run(["login", "--no-prompt", "--json", "--code", mail])
        #expect(third.status == 0, "\(third)")
        #expect(third.json["status"] as? String == "signed_in")
        #expect((third.json["account"] as? [String: Any])?["username"] as? String == "alan@example.com")
    }

    @Test func noPromptWithoutAUsernameNeedsInput() throws {
        let emulator = try CLIEmulator()
        let result = try emulator.run(["login", "--no-prompt"])
        #expect(result.status == 4 && result.stderr.contains("--username"), "\(result)")
    }
}
