import Foundation
import MSAL
import NativeAuthCLI
import Testing

/// Each documented exit status, from the built program, with the message on stderr and stdout empty.
@Suite(.serialized) struct ExitCodeEndToEndTests {
    @Test func usageErrors() throws {
        let home = try ToolHome()
        for arguments in [
            ["token", "--bogus"], ["token", "--scope"], ["frobnicate"], ["--code", "1", "login"], ["status", "extra"],
            ["logout", "--all=yes"], [],
        ] {
            let result = try home.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stdout.isEmpty && result.stderr.hasPrefix("native-auth: "), "\(arguments): \(result)")
        }
        let json = try home.run(["token", "--bogus", "--json"])
        #expect(json.status == 2 && json.errorJSON["code"] as? String == "usage" && json.errorJSON["exit_status"] as? Int == 2, "\(json)")
    }

    @Test func everyCommandHasHelp() throws {
        let home = try ToolHome()
        let overview = try home.run(["--help"])
        #expect(overview.status == 0 && overview.stdout.hasPrefix("Usage: native-auth"))
        for code in ExitCode.allCases {
            #expect(overview.stdout.contains("\n  \(code.rawValue)   \(code.summary)\n"), "\(code)")
        }
        for command in Command.allCases {
            for arguments in [[command.rawValue, "--help"], ["help", command.rawValue], [command.rawValue, "-h"]] {
                let result = try home.run(arguments)
                #expect(result.status == 0 && result.stdout.hasPrefix("Usage: native-auth \(command.rawValue)"), "\(arguments): \(result)")
            }
        }
    }

    @Test func versionPrintsTheSDKVersionAlone() throws {
        let home = try ToolHome()
        let version = try home.run(["--version"])
        #expect(
            version.status == 0 && version.stdout == "native-auth \(MSALNativeAuthSDK.version)\n" && version.stderr.isEmpty, "\(version)")
        let mixed = try home.run(["--version", "status"])
        #expect(mixed.status == 2 && mixed.stdout.isEmpty && mixed.stderr.contains("--version takes no other arguments"), "\(mixed)")
    }

    @Test func configurationProblems() throws {
        let home = try ToolHome()
        let missing = try home.run(["status"])
        #expect(missing.status == 3 && missing.stderr.contains("config.json"), "\(missing)")
        let bad = try home.writeConfig(["client_id": "x"])
        let invalid = try home.run(["--config", bad, "token", "--scope", "s"])
        #expect(invalid.status == 3 && invalid.stderr.contains("tenant_subdomain"), "\(invalid)")
        let both = try home.run(["--config", bad, "--emulator", "status"])
        #expect(both.status == 2, "\(both)")
    }

    @Test func networkFailure() throws {
        let home = try ToolHome()
        // Port 9 (discard) on loopback: nothing listens, the connection is refused.
        let config = try home.writeConfig([
            "client_id": "11111111-1111-4111-8111-111111111111", "authority": "http://127.0.0.1:9/x.onmicrosoft.com",
        ])
        let result = try home.run(["--config", config, "login", "--no-prompt", "--username", "ada@example.com"])
        #expect(result.status == 7 && result.stdout.isEmpty, "\(result)")
    }

    @Test func browserRequiredWithoutPrompts() throws {
        // Without the MFA capability the service sends alan to the browser.
        let emulator = try CLIEmulator(capabilities: [])
        let result = try emulator.run(
            ["login", "--no-prompt", "--json", "--username", "alan@example.com", "--password", CLIEmulator.alanPassword])
        #expect(result.status == 6 && result.errorJSON["code"] as? String == "browser_required", "\(result)")
        #expect(result.stdout.isEmpty)
    }

    @Test func unknownUserAndNothingToContinue() throws {
        let emulator = try CLIEmulator()
        let unknown = try emulator.run(["login", "--no-prompt", "--username", "nobody@example.com", "--password", "Whatever-1234"])
        #expect(unknown.status == 5, "\(unknown)")
        let nothing = try emulator.run(["login", "--no-prompt", "--code", "12345678"])
        #expect(nothing.status == 9 && nothing.stderr.contains("no sign-in is waiting"), "\(nothing)")
        let notSignedIn = try emulator.run(["token", "--scope", CLIEmulator.todolist])
        #expect(notSignedIn.status == 8, "\(notSignedIn)")
    }
}
