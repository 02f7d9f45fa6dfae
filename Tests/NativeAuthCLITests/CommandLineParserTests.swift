import Testing

@testable import NativeAuthCLI

/// The parser in process: subcommands, both option spellings, repetition, help, and every kind of
/// usage error with exit status 2.
struct CommandLineParserTests {
    @Test func optionsTakeValuesEitherWay() throws {
        let line = try CommandLineParser.parse(["--json", "token", "--scope", "a", "--scope=b", "--force-refresh", "--config=/x.json"])
        #expect(line.command == .token)
        #expect(line.values("scope") == ["a", "b"])
        #expect(line.flag("force-refresh") && line.flag("json") && !line.flag("emulator"))
        #expect(line.value("config") == "/x.json")
    }

    @Test func aValueMayStartWithADashAndDoubleDashEndsOptions() throws {
        #expect(try CommandLineParser.parse(["login", "--password", "-"]).value("password") == "-")
        #expect(try CommandLineParser.parse(["login", "--password", "--not-an-option"]).value("password") == "--not-an-option")
        #expect(try CommandLineParser.parse(["login", "--password=a=b"]).value("password") == "a=b")
        let ended = try CommandLineParser.parse(["emulator", "mailbox", "--", "--odd@example.com"])
        #expect(ended.positionals == ["mailbox", "--odd@example.com"])
    }

    @Test func helpForEachCommand() throws {
        #expect(try CommandLineParser.parse(["--help"]) == ParsedCommandLine(command: nil, help: true))
        #expect(try CommandLineParser.parse(["help", "token"]).command == .token)
        #expect(try CommandLineParser.parse(["logout", "-h"]).help)
        #expect(try CommandLineParser.parse(["emulator", "--help"]).help, "help needs no action")
        for command in Command.allCases {
            #expect(command.help.hasPrefix("Usage: native-auth \(command.rawValue)"))
            for option in command.spec.options { #expect(command.help.contains("--\(option.name)"), "\(command) --\(option.name)") }
        }
    }

    @Test(arguments: [
        ["token", "--bogus"], ["token", "--scope"], ["token", "--force-refresh=yes"], ["login", "--code", "1", "--code", "2"],
        ["nonsense"], [], ["--code", "1", "login"], ["status", "extra"], ["emulator"], ["help", "nonsense"], ["token", "-x"],
    ])
    func usageErrorsExitWith2(_ arguments: [String]) {
        #expect(throws: CLIError.self) { try CommandLineParser.parse(arguments) }
        do {
            _ = try CommandLineParser.parse(arguments)
        } catch {
            #expect(error.code == .usage && error.code.rawValue == 2, "\(arguments): \(error)")
        }
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
