import CommandLineOptions
import Foundation
import Testing

@testable import NativeAuthCLI

/// Each command's typed options, decoded from the one list its help prints: every option lands in
/// its property, names do not clash, and docs/cli.md names the same options. No command runs.
struct CommandOptionsTests {
    /// Each option of `Options`, given after `command`, changes the decoded options (a flag alone, an
    /// option with the value `v`), by both spellings of a value; given twice, it is kept twice or refused.
    func eachOptionDecodes<Options: CommandOptions>(
        _ type: Options.Type, after command: [String], _ decoded: (ParsedCommandLine) -> Options?
    ) throws {
        let plain = try #require(decoded(try CommandLineParser.parse(command)), "\(command)")
        for spec in Options.specs {
            let spellings = spec.takesValue ? [["--\(spec.name)", "v"], ["--\(spec.name)=v"]] : [["--\(spec.name)"]]
            for spelling in spellings {
                let options = try #require(decoded(try CommandLineParser.parse(command + spelling)), "\(command + spelling)")
                #expect(options != plain, "\(command + spelling) reaches no property")
                if spec.repeatable {
                    #expect(throws: Never.self) { try CommandLineParser.parse(command + spelling + spelling) }
                } else {
                    #expect(throws: CLIError(.usage, "option '--\(spec.name)' is given twice")) {
                        try CommandLineParser.parse(command + spelling + spelling)
                    }
                }
            }
        }
    }

    @Test func everyOptionReachesItsProperty() throws {
        try eachOptionDecodes(LoginOptions.self, after: ["login"]) {
            if case .run(_, .login(let options)) = $0 { options } else { nil }
        }
        try eachOptionDecodes(TokenOptions.self, after: ["token"]) {
            if case .run(_, .token(let options)) = $0 { options } else { nil }
        }
        try eachOptionDecodes(LogoutOptions.self, after: ["logout"]) {
            if case .run(_, .logout(let options)) = $0 { options } else { nil }
        }
        try eachOptionDecodes(EmulatorOptions.self, after: ["emulator", "mailbox", "a@example.com"]) {
            if case .run(_, .emulator(let options)) = $0 { options } else { nil }
        }
        try eachOptionDecodes(GlobalOptions.self, after: ["status"]) {
            if case .run(let global, .status) = $0 { global } else { nil }
        }
    }

    @Test func globalOptionsDecodeTheSameBeforeAndAfterTheCommand() throws {
        let expected = ParsedCommandLine.run(GlobalOptions(config: "/c.json", keyring: true, json: true), .logout(LogoutOptions(all: true)))
        #expect(try CommandLineParser.parse(["--config", "/c.json", "--keyring", "--json", "logout", "--all"]) == expected)
        #expect(try CommandLineParser.parse(["logout", "--all", "--config=/c.json", "--keyring", "--json"]) == expected)
        #expect(try CommandLineParser.parse(["--json", "logout", "--config", "/c.json", "--all", "--keyring"]) == expected)
    }

    @Test func aGlobalOptionGivenOnBothSidesOfTheCommandIsGivenTwice() {
        #expect(throws: CLIError(.usage, "option '--json' is given twice")) { try CommandLineParser.parse(["--json", "status", "--json"]) }
    }

    @Test func theEmulatorActionAndItsAddressArePositionals() throws {
        #expect(try CommandLineParser.parse(["emulator", "start"]) == .run(GlobalOptions(), .emulator(EmulatorOptions(action: "start"))))
        #expect(
            try CommandLineParser.parse(["emulator", "mailbox", "--latest", "ada@example.com"])
                == .run(GlobalOptions(), .emulator(EmulatorOptions(latest: true, action: "mailbox", argument: "ada@example.com"))))
        #expect(throws: CLIError(.usage, "unexpected argument 'c' for 'emulator' (see native-auth emulator --help)")) {
            try CommandLineParser.parse(["emulator", "mailbox", "b", "c"])
        }
    }

    @Test func noCommandOptionShadowsAGlobalOne() {
        for command in Command.allCases {
            let names = GlobalOptions.names + command.spec.options.names
            #expect(Set(names).count == names.count, "\(command): \(names)")
        }
    }

    /// A misspelt name in a spec would parse and print, but not as docs/cli.md spells it.
    @Test func docsCLINamesEveryOptionAndEveryLoginOptionIsInTheSpec() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/cli.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        for entry in GlobalOptions.helpEntries + Command.allCases.flatMap({ $0.spec.options.helpEntries }) {
            #expect(text.contains("`\(entry.usage)") || text.contains("[\(entry.usage)]"), "docs/cli.md names \(entry.usage)")
        }
        let loginTable = text.components(separatedBy: "Options of `login`:")[1].components(separatedBy: "\n\n")[1]
        let documented = loginTable.split(separator: "\n").compactMap { row in
            row.hasPrefix("| `--") ? row.dropFirst(5).prefix { $0 != " " && $0 != "`" } : nil
        }
        #expect(documented.map(String.init) == LoginOptions.names)
    }
}
