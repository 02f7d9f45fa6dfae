import Foundation
import TestSupport
import Testing

/// `native-auth login --v2` (native auth V2, experimental) as a subprocess against the emulator's
/// V2 routes: across invocations with `--no-prompt`, and with prompts on a pipe.
@Suite(.serialized) struct LoginV2EndToEndTests {
    static let barbaraPassword = "Substitution-Principle-1987"
    static let katherinePassword = "Orbital-Mechanics-1962"

    /// The saved file's SDK document (the envelope's base64 `state`), as JSON.
    static func savedDocument(_ emulator: CLIEmulator) throws -> (envelope: [String: Any], document: [String: Any]) {
        let file = try Data(contentsOf: URL(fileURLWithPath: emulator.appDirectory + "/login-state.json"))
        let envelope = try #require(try JSONSerialization.jsonObject(with: file) as? [String: Any])
        let encoded = try #require(envelope["state"] as? String)
        let state = try #require(Data(base64Encoded: encoded))
        let document = try #require(try JSONSerialization.jsonObject(with: state) as? [String: Any])
        return (envelope, document)
    }

    @Test func graceEmailCodeAcrossTwoInvocations() async throws {
        let emulator = try CLIEmulator()
        let first = try emulator.run(["login", "--v2", "--no-prompt", "--username", "grace@example.com"])
        #expect(first.status == 4 && first.stderr.contains("native-auth login --code CODE"), "\(first)")
        #expect(mode(emulator.appDirectory + "/login-state.json") == 0o600)
        let (envelope, document) = try Self.savedDocument(emulator)
        #expect(envelope["step"] as? String == "v2_code")
        #expect(document["version"] as? Int == 2 && document["kind"] as? String == "v2CodeRequired", "\(document)")

        let wrong = try emulator.run(["login", "--no-prompt", "--code", "00000000"])
        #expect(wrong.status == 5, "a wrong code keeps the V2 sign-in: \(wrong)")
        let code = try await emulator.lastCode("grace@example.com")
        let second = try emulator.run(["login", "--no-prompt", "--code", code])
        #expect(second.status == 0 && second.stdout == "grace@example.com\n", "no --v2 needed to continue: \(second)")
        #expect(mode(emulator.appDirectory + "/login-state.json") == -1)
    }

    /// The service's answer to an expired V2 token (`expiredToken`/`expiredContinuationToken`) ends the
    /// saved sign-in as V1's `expired_token` does: exit 9, start again, nothing left saved.
    @Test func anExpiredV2SignInIsNoSavedFlow() async throws {
        let emulator = try CLIEmulator()
        let first = try emulator.run(["login", "--v2", "--no-prompt", "--username", "grace@example.com"])
        #expect(first.status == 4, "\(first)")
        #expect(try await LiveEmulator.post(emulator.server.baseURL + "/_emulator/clock", json: ["advance_seconds": 601]) == 200)
        let late = try emulator.run(["login", "--no-prompt", "--code", "00000000"])
        #expect(late.status == 9 && late.stderr.contains("the sign-in expired: start again with native-auth login"), "\(late)")
        #expect(mode(emulator.appDirectory + "/login-state.json") == -1)
    }

    @Test func adaPasswordOnAPromptPipe() throws {
        let emulator = try CLIEmulator()
        let prompted = try emulator.run(["login", "--v2"], input: "ada@example.com\nWrong-Password-1\n\(CLIEmulator.adaPassword)\n")
        #expect(prompted.status == 0 && prompted.stdout == "ada@example.com\n", "\(prompted)")
        #expect(prompted.stderr.contains("Password for ada@example.com: ") && prompted.stderr.contains("Try again."))
        #expect(!prompted.stderr.contains(CLIEmulator.adaPassword))

        let fromStdin = try emulator.run(
            ["login", "--v2", "--no-prompt", "--username", "ada@example.com", "--password", "-"], input: CLIEmulator.adaPassword + "\n")
        #expect(fromStdin.status == 0, "a given password answers the V2 password step: \(fromStdin)")
    }

    @Test func barbaraChoosesHerFirstFactorWithMethod() async throws {
        let emulator = try CLIEmulator()
        let first = try emulator.run(["login", "--v2", "--no-prompt", "--json", "--username", "barbara@example.com"])
        #expect(first.status == 4 && first.json["needs"] as? String == "method", "\(first)")
        let methods = try #require(first.json["methods"] as? [[String: Any]])
        #expect(Set(methods.compactMap { $0["channel"] as? String }) == ["password", "email"], "\(methods)")

        let second = try emulator.run(["login", "--no-prompt", "--json", "--method", "email"])
        #expect(
            second.status == 4 && second.json["needs"] as? String == "code" && second.json["channel"] as? String == "email", "\(second)")
        let code = try await emulator.lastCode("barbara@example.com")
        let third = try emulator.run(["login", "--no-prompt", "--code", code])
        #expect(third.status == 0 && third.stdout == "barbara@example.com\n", "\(third)")
    }

    @Test func alanSMSSecondFactorWithPrompts() async throws {
        let emulator = try CLIEmulator()
        let tool = try emulator.start(["login", "--v2"])
        tool.write("alan@example.com\n\(CLIEmulator.alanPassword)\n")
        try tool.waitForStderr("Choose 1-2: ")
        #expect(tool.stderr.contains("A second factor is needed") && tool.stderr.contains("sms +*******0100"))
        tool.write("sms\n")
        try tool.waitForStderr("Code sent by sms to +*******0100")
        tool.write(try await emulator.lastCode("alan@example.com") + "\n")
        tool.closeInput()
        let result = tool.wait()
        #expect(result.status == 0 && result.stdout == "alan@example.com\n", "\(result)")
    }

    @Test func anEmptyLineAtTheCodePromptSendsANewCodeAndSubmitsNothing() async throws {
        let emulator = try CLIEmulator()
        let tool = try emulator.start(["login", "--v2"])
        tool.write("grace@example.com\n")
        try tool.waitForStderr("Code sent by email")
        let first = try await emulator.lastCode("grace@example.com")
        tool.write("\n")
        try tool.waitForStderr("A new code was sent to")
        let mails = try await LiveEmulator.mails(emulator.server, "grace@example.com")
        #expect(mails.count == 2, "a second code: \(mails)")
        let second = try await emulator.lastCode("grace@example.com")
        #expect(second != first)
        tool.write(second + "\n")
        tool.closeInput()
        let result = tool.wait()
        #expect(result.status == 0 && result.stdout == "grace@example.com\n", "\(result)")
        #expect(!result.stderr.contains("Try again"), "no code was submitted empty: \(result)")
        let (_, data) = try await LiveEmulator.get(emulator.server.baseURL + "/_emulator/requests")
        let paths = ((try JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }
        #expect(paths.filter { $0.hasSuffix("/verify") }.count == 1, "one code submitted, the right one: \(paths)")
    }

    @Test func katherineRegistersWithContact() throws {
        let emulator = try CLIEmulator()
        let first = try emulator.run(
            ["login", "--v2", "--no-prompt", "--username", "katherine@example.com", "--password", Self.katherinePassword])
        #expect(first.status == 4 && first.stderr.contains("--contact"), "\(first)")
        #expect(try Self.savedDocument(emulator).document["kind"] as? String == "v2StrongAuthRegistrationRequired")
        // Her own address is pre-verified: registering it finishes the sign-in.
        let second = try emulator.run(["login", "--no-prompt", "--method", "email", "--contact", "katherine@example.com"])
        #expect(second.status == 0 && second.stdout == "katherine@example.com\n", "\(second)")
    }

    @Test func hedyIsSentToTheBrowser() throws {
        let emulator = try CLIEmulator()
        let result = try emulator.run(["login", "--v2", "--no-prompt", "--json", "--username", "hedy@example.com"])
        #expect(result.status == 6 && result.errorJSON["code"] as? String == "browser_required", "\(result)")
        #expect(mode(emulator.appDirectory + "/login-state.json") == -1)
    }

    @Test func aSavedV2StateWithALinkToAnotherHostIsRefused() throws {
        let emulator = try CLIEmulator()
        #expect(try emulator.run(["login", "--v2", "--no-prompt", "--username", "grace@example.com"]).status == 4)
        var (envelope, document) = try Self.savedDocument(emulator)
        var links = try #require(document["links"] as? [String: String])
        links["verify"] = try #require(links["verify"]).replacingOccurrences(of: "127.0.0.1", with: "attacker.example")
        document["links"] = links
        envelope["state"] = try JSONSerialization.data(withJSONObject: document).base64EncodedString()
        let path = emulator.appDirectory + "/login-state.json"
        try JSONSerialization.data(withJSONObject: envelope).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let refused = try emulator.run(["login", "--no-prompt", "--code", "12345678"])
        #expect(refused.status == 9 && refused.stderr.contains("is damaged"), "\(refused)")
        #expect(mode(path) == -1, "nothing was sent and the file is removed")
    }
}
