/// An option a command takes: a flag (`--json`) or an option with a value (`--scope S`,
/// `--scope=S`), which may be repeatable.
struct OptionSpec: Sendable {
    var name: String
    /// The placeholder in help (`EMAIL`); nil for a flag.
    var value: String?
    var repeatable = false
    var help: String

    static func flag(_ name: String, _ help: String) -> OptionSpec { OptionSpec(name: name, value: nil, help: help) }
    static func value(_ name: String, _ placeholder: String, repeatable: Bool = false, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: placeholder, repeatable: repeatable, help: help)
    }
}

/// What the command line asked for, once parsed and checked against the command's options.
public struct ParsedCommandLine: Equatable, Sendable {
    /// The command (`login`, `token`, …); nil when none was given (then `help` is true or it is a usage error).
    public var command: Command?
    /// `--help`/`-h` anywhere, or the `help` command: show the help of `command` (or the overview).
    public var help = false
    /// Each option's values in order; a flag has one empty value.
    public var options: [String: [String]] = [:]
    /// The arguments that are not options, after the command (for `emulator`: the action, the address).
    public var positionals: [String] = []

    /// The single value of `name`, or nil.
    public func value(_ name: String) -> String? { options[name]?.last }
    /// Every value of a repeatable option.
    public func values(_ name: String) -> [String] { options[name] ?? [] }
    /// Whether the flag `name` was given.
    public func flag(_ name: String) -> Bool { options[name] != nil }
}

/// The parser: subcommands, `--flag`, `--option value`, `--option=value`, `--` to end options.
/// Global options may come before or after the command; a command's own options after it. Anything
/// else is a usage error (exit status 2) naming the problem.
public enum CommandLineParser {
    public static func parse(_ arguments: [String]) throws(CLIError) -> ParsedCommandLine {
        var parsed = ParsedCommandLine()
        var remaining = arguments[...]
        var optionsEnded = false
        var helpCommand = false
        while let argument = remaining.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                if parsed.command == nil, !helpCommand {
                    if argument == "help" {
                        helpCommand = true
                        parsed.help = true
                        continue
                    }
                    guard let command = Command(rawValue: argument) else {
                        throw usage("unknown command '\(argument)'; commands: \(Command.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    parsed.command = command
                } else if helpCommand, parsed.command == nil {
                    guard let command = Command(rawValue: argument) else { throw usage("no help for '\(argument)': not a command") }
                    parsed.command = command
                } else {
                    parsed.positionals.append(argument)
                }
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                parsed.help = true
                continue
            }
            guard argument.hasPrefix("--") else { throw usage("unknown option '\(argument)'\(suffix(parsed.command))") }
            let body = argument.dropFirst(2)
            let name: String
            var inline: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inline = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            guard let spec = Command.option(named: name, for: parsed.command) else {
                if parsed.command == nil, Command.allCases.contains(where: { $0.spec.options.contains { $0.name == name } }) {
                    throw usage("option '--\(name)' goes after the command it belongs to")
                }
                throw usage("unknown option '--\(name)'\(suffix(parsed.command))")
            }
            let value: String
            if spec.value == nil {
                if inline != nil { throw usage("option '--\(name)' takes no value") }
                value = ""
            } else if let inline {
                value = inline
            } else {
                guard let next = remaining.popFirst() else { throw usage("option '--\(name)' needs a value (\(spec.value ?? ""))") }
                value = next
            }
            if parsed.options[name] != nil, !spec.repeatable { throw usage("option '--\(name)' is given twice") }
            parsed.options[name, default: []].append(value)
        }
        if parsed.help { return parsed }
        guard let command = parsed.command else { throw usage("no command given") }
        let spec = command.spec
        if parsed.positionals.count < spec.positionals.min || parsed.positionals.count > spec.positionals.max {
            throw usage(
                parsed.positionals.count > spec.positionals.max
                    ? "unexpected argument '\(parsed.positionals[spec.positionals.max])'\(suffix(command))"
                    : "'\(command.rawValue)' needs \(spec.positionals.names)")
        }
        return parsed
    }

    static func usage(_ message: String) -> CLIError { CLIError(.usage, message) }

    private static func suffix(_ command: Command?) -> String {
        command.map { " for '\($0.rawValue)' (see native-auth \($0.rawValue) --help)" } ?? " (see native-auth --help)"
    }
}
