/// Reads a command line by the rules every command of this package follows
/// (docs/decisions.md#the-command-line-parser):
///
/// - `--name VALUE` and `--name=VALUE` both give a value; the value is taken as it is, even when
///   it begins with `-` (`--password -`, a password that begins with `--`).
/// - A flag takes no value: `--flag=VALUE` is a usage error.
/// - An option given twice is a usage error, unless it is repeatable (then every value is kept).
/// - `-h` and `--help` anywhere ask for help; parsing goes on, so a wrong option is still reported.
/// - `--` ends the options: every argument after it is positional. A lone `-` is positional too.
/// - Any other argument that begins with `-` and is not an option of `options` is a usage error.
///
/// Arguments that are not options are returned in order, for the command to judge.
public struct OptionParser<Values>: Sendable {
    public var options: [OptionSpec<Values>]

    public init(_ options: [OptionSpec<Values>]) { self.options = options }

    /// What the parse found besides the options' values.
    public struct Result: Equatable, Sendable {
        /// `-h` or `--help` was given.
        public var help = false
        /// The arguments that are not options, in order.
        public var positionals: [String] = []

        public init(help: Bool = false, positionals: [String] = []) {
            self.help = help
            self.positionals = positionals
        }
    }

    /// Reads `arguments` into `values`. With `positionalLimit`, stops once that many positionals
    /// are read, leaving the rest unread (a command read before its own options are known).
    public func parse(
        _ arguments: [String], into values: inout Values, positionalLimit: Int? = nil
    ) throws(UsageError) -> Result {
        var result = Result()
        var remaining = arguments[...]
        var optionsEnded = false
        var given: Set<String> = []
        while positionalLimit.map({ result.positionals.count < $0 }) ?? true, let argument = remaining.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                result.help = true
                continue
            }
            guard argument.hasPrefix("--") else { throw UsageError(.unknownOption(argument)) }
            let body = argument.dropFirst(2)
            let name: String
            var inline: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inline = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            guard let option = options.first(where: { $0.name == name }) else { throw UsageError(.unknownOption("--" + name)) }
            let value: String
            if let placeholder = option.placeholder {
                if let inline {
                    value = inline
                } else {
                    guard let next = remaining.popFirst() else {
                        throw UsageError(.missingValue(option: name, placeholder: placeholder))
                    }
                    value = next
                }
            } else {
                if inline != nil { throw UsageError(.unexpectedValue(option: name)) }
                value = ""
            }
            if !given.insert(name).inserted, !option.repeatable { throw UsageError(.repeated(option: name)) }
            try option.store(&values, value)
        }
        return result
    }
}
