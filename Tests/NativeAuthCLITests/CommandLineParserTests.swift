import Testing

@testable import NativeAuthCLI

/// The parser in process: subcommands, both option spellings, repetition, help, and every kind of
/// usage error with exit status 2.
struct CommandLineParserTests {
    @Test func optionsTakeValuesEitherWay() throws {
        let line = try CommandLineParser.parse(["--json", "token", "--scope", "a", "--scope=b", "--force-refresh", "--config=/x.json"])
        #expect(line == .run(GlobalOptions(config: "/x.json", json: true), .token(TokenOptions(scopes: ["a", "b"], forceRefresh: true))))
    }

    @Test func aValueMayStartWithADashAndDoubleDashEndsOptions() throws {
        #expect(try CommandLineParser.parse(["login", "--password", "-"]) == .run(GlobalOptions(), .login(LoginOptions(password: "-"))))
        #expect(
            try CommandLineParser.parse(["login", "--password", "--not-an-option"])
                == .run(GlobalOptions(), .login(LoginOptions(password: "--not-an-option"))))
        #expect(try CommandLineParser.parse(["login", "--password=a=b"]) == .run(GlobalOptions(), .login(LoginOptions(password: "a=b"))))
        let ended = try CommandLineParser.parse(["emulator", "mailbox", "--", "--odd@example.com"])
        #expect(ended == .run(GlobalOptions(), .emulator(EmulatorOptions(action: "mailbox", argument: "--odd@example.com"))))
    }

    @Test func helpForEachCommand() throws {
        #expect(try CommandLineParser.parse(["--help"]) == .help(nil))
        #expect(try CommandLineParser.parse(["help"]) == .help(nil))
        #expect(try CommandLineParser.parse(["help", "token"]) == .help(.token))
        #expect(try CommandLineParser.parse(["logout", "-h"]) == .help(.logout))
        #expect(try CommandLineParser.parse(["emulator", "--help"]) == .help(.emulator), "help needs no action")
        for command in Command.allCases {
            #expect(command.help.hasPrefix("Usage: native-auth \(command.rawValue)"))
            for option in command.spec.options.helpEntries { #expect(command.help.contains(option.usage), "\(command) \(option.usage)") }
        }
    }

    @Test(arguments: [
        ["token", "--bogus"], ["token", "--scope"], ["token", "--force-refresh=yes"], ["login", "--code", "1", "--code", "2"],
        ["nonsense"], [], ["--code", "1", "login"], ["status", "extra"], ["emulator"], ["help", "nonsense"], ["token", "-x"],
        ["--version", "status"], ["--version", "--json"], ["status", "--version"], ["--json", "--version"],
    ])
    func usageErrorsExitWith2(_ arguments: [String]) {
        #expect(throws: CLIError.self) { try CommandLineParser.parse(arguments) }
        do {
            _ = try CommandLineParser.parse(arguments)
        } catch {
            #expect(error.code == .usage && error.code.rawValue == 2, "\(arguments): \(error)")
        }
    }

    @Test func versionAloneAndInTheOverview() throws {
        #expect(try CommandLineParser.parse(["--version"]) == .version)
        #expect(throws: CLIError(.usage, "--version takes no other arguments")) { try CommandLineParser.parse(["--version", "login"]) }
        #expect(Command.overview.contains("  --version "))
    }

    @Test func theMessageNamesTheProblem() {
        #expect(throws: CLIError(.usage, "unknown option '--bogus' for 'token' (see native-auth token --help)")) {
            try CommandLineParser.parse(["token", "--bogus"])
        }
        #expect(throws: CLIError(.usage, "option '--scope' needs a value (SCOPE)")) { try CommandLineParser.parse(["token", "--scope"]) }
        #expect(throws: CLIError(.usage, "option '--code' goes after the command it belongs to")) {
            try CommandLineParser.parse(["--code", "1", "login"])
        }
    }
}
