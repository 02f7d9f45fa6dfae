/// A command line that breaks the rules or the command's options; commands exit with their usage
/// status (2) and the message.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Equatable, Sendable {
        /// An option no spec names, as written without any `=VALUE` (`--bogus`, `-x`).
        case unknownOption(String)
        /// An option that takes a value came last.
        case missingValue(option: String, placeholder: String)
        /// A flag was given `=VALUE`.
        case unexpectedValue(option: String)
        /// An option that is not repeatable was given twice.
        case repeated(option: String)
        /// The option's value is not one it takes.
        case invalidValue(option: String, reason: String)
        /// Any other problem, in the command's words (options that exclude each other, say).
        case other(String)
    }

    public var problem: Problem

    public init(_ problem: Problem) { self.problem = problem }

    /// A problem in the command's own words.
    public init(_ message: String) { self.problem = .other(message) }

    /// The message, naming the option.
    public var description: String {
        switch problem {
        case .unknownOption(let spelling): "unknown option '\(spelling)'"
        case .missingValue(let name, let placeholder): "option '--\(name)' needs a value (\(placeholder))"
        case .unexpectedValue(let name): "option '--\(name)' takes no value"
        case .repeated(let name): "option '--\(name)' is given twice"
        case .invalidValue(let name, let reason): "--\(name) \(reason)"
        case .other(let message): message
        }
    }
}
