import CommandLineOptions

/// What the command line asks for, once parsed and checked against the command's options.
enum ParsedCommandLine: Equatable, Sendable {
    /// `--help`/`-h` anywhere, or the `help` command: the help of the command, or the overview (nil).
    case help(Command?)
    /// `--version`, alone.
    case version
    /// A command to run, with the global options and its own.
    case run(GlobalOptions, Invocation)
}

/// A command and its typed options.
enum Invocation: Equatable, Sendable {
    case login(LoginOptions)
    case token(TokenOptions)
    case status
    case accounts
    case logout(LogoutOptions)
    case emulator(EmulatorOptions)
}

/// The global options and a command's own, decoded together.
struct CommandLineValues<Options: CommandOptions> {
    var global = GlobalOptions()
    var options = Options()
}

/// The tool's command line, by the rules of `OptionParser` (docs/cli.md#commands): the command is
/// the first argument that is not an option (`help COMMAND` asks for its help); global options may
/// come before or after it, a command's own options after it. Anything else is a usage error (exit
/// status 2) naming the problem.
enum CommandLineParser {
    static func parse(_ arguments: [String]) throws(CLIError) -> ParsedCommandLine {
        if arguments.first == versionOption {
            guard arguments.count == 1 else { throw usage("\(versionOption) takes no other arguments") }
            return .version
        }
        // Up to the command only global options may come, so they alone find it.
        var head = try globalsOnly(arguments, positionals: 1)
        let helpCommand = head.positionals == ["help"]
        if helpCommand { head = try globalsOnly(arguments, positionals: 2) }
        guard let name = head.positionals.dropFirst(helpCommand ? 1 : 0).first else {
            if head.help || helpCommand { return .help(nil) }
            throw usage("no command given")
        }
        guard let command = Command(rawValue: name) else {
            throw usage(
                helpCommand
                    ? "no help for '\(name)': not a command"
                    : "unknown command '\(name)'; commands: \(Command.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let line = Line(arguments: arguments, command: command, leading: head.positionals.count, helpCommand: helpCommand)
        switch command {
        case .login: return try line.parse { (options: LoginOptions, _) in .login(options) }
        case .token: return try line.parse { (options: TokenOptions, _) in .token(options) }
        case .status: return try line.parse { (_: NoOptions, _) in .status }
        case .accounts: return try line.parse { (_: NoOptions, _) in .accounts }
        case .logout: return try line.parse { (options: LogoutOptions, _) in .logout(options) }
        case .emulator:
            return try line.parse { (options: EmulatorOptions, positionals) in
                var options = options
                options.action = positionals[0]
                options.argument = positionals.dropFirst().first
                return .emulator(options)
            }
        }
    }

    /// The whole command line, once its command is known.
    private struct Line {
        let arguments: [String]
        let command: Command
        /// The positionals before the options' (the command, after `help`).
        let leading: Int
        let helpCommand: Bool

        /// Decodes the global options and the command's own, checks the positionals' count, and
        /// makes the invocation of the options and positionals.
        func parse<Options: CommandOptions>(
            _ invocation: (Options, [String]) -> Invocation
        ) throws(CLIError) -> ParsedCommandLine {
            assert(command.spec.options == Options.self, "\(command) is parsed with the options its help lists")
            let parser = OptionParser<CommandLineValues<Options>>(
                GlobalOptions.specs.map { $0.within(\.global) } + Options.specs.map { $0.within(\.options) })
            var values = CommandLineValues<Options>()
            let result: OptionParser<CommandLineValues<Options>>.Result
            do {
                result = try parser.parse(arguments, into: &values)
            } catch {
                throw CommandLineParser.usage(error, command)
            }
            if result.help || helpCommand { return .help(command) }
            let positionals = Array(result.positionals.dropFirst(leading))
            let expected = command.spec.positionals
            if positionals.count > expected.max {
                throw usage("unexpected argument '\(positionals[expected.max])'\(suffix(command))")
            }
            if positionals.count < expected.min { throw usage("'\(command.rawValue)' needs \(expected.names)") }
            return .run(values.global, invocation(values.options, positionals))
        }
    }

    /// The arguments up to the `positionals`th one that is not an option, as global options.
    private static func globalsOnly(_ arguments: [String], positionals: Int) throws(CLIError) -> OptionParser<GlobalOptions>.Result {
        var ignored = GlobalOptions()
        do {
            return try OptionParser(GlobalOptions.specs).parse(arguments, into: &ignored, positionalLimit: positionals)
        } catch {
            if case .unknownOption(let spelling) = error.problem, spelling.hasPrefix("--"),
                Command.allCases.contains(where: { $0.spec.options.names.contains(String(spelling.dropFirst(2))) })
            {
                throw usage("option '\(spelling)' goes after the command it belongs to")
            }
            throw usage(error, nil)
        }
    }

    static func usage(_ message: String) -> CLIError { CLIError(.usage, message) }

    /// `native-auth --version`: only alone (with anything else it is a usage error; anywhere but
    /// first it is an unknown option).
    static let versionOption = "--version"

    /// The parser's message; for an unknown option, with where to read the options.
    private static func usage(_ error: UsageError, _ command: Command?) -> CLIError {
        if case .unknownOption = error.problem { return usage(error.description + suffix(command)) }
        return usage(error.description)
    }

    private static func suffix(_ command: Command?) -> String {
        command.map { " for '\($0.rawValue)' (see native-auth \($0.rawValue) --help)" } ?? " (see native-auth --help)"
    }
}
