/// One option of a command: its name (`scope` for `--scope`), the placeholder of its value in help
/// (`SCOPE`; nil for a flag), whether it may be given more than once, its help line, and where its
/// value goes in the command's typed options, `Values`. A command's list of these is the one source
/// of both its parsing (`OptionParser`) and its `--help` (`OptionHelp`), so code reads a typed
/// property, never an option by its name (docs/decisions.md#the-command-line-parser).
public struct OptionSpec<Values>: Sendable {
    /// The name without its dashes: `scope` for `--scope`.
    public let name: String
    /// The value's placeholder in help and messages (`SCOPE`); nil for a flag, which takes no value.
    public let placeholder: String?
    /// Whether the option may be given more than once (each value is kept); any other given twice
    /// is a usage error.
    public let repeatable: Bool
    /// What the option does, for help. Several lines continue under the first.
    public let help: String
    /// Values a shell completes the option with (`email sms` for `--method`); empty for none. They
    /// restrict nothing: the command decides what a value means.
    public private(set) var suggestions: [String] = []
    let store: @Sendable (inout Values, String) throws(UsageError) -> Void

    /// Whether the option takes a value (`--name VALUE` or `--name=VALUE`).
    public var takesValue: Bool { placeholder != nil }

    init(
        name: String, placeholder: String?, repeatable: Bool = false, help: String,
        store: @escaping @Sendable (inout Values, String) throws(UsageError) -> Void
    ) {
        self.name = name
        self.placeholder = placeholder
        self.repeatable = repeatable
        self.help = help
        self.store = store
    }

    /// A flag: `--name` sets `key` to true.
    public static func flag(_ name: String, _ key: WritableKeyPath<Values, Bool> & Sendable, _ help: String) -> Self {
        Self(name: name, placeholder: nil, help: help) { values, _ in values[keyPath: key] = true }
    }

    /// An option with one value, given at most once.
    public static func value(
        _ name: String, _ placeholder: String, _ key: WritableKeyPath<Values, String?> & Sendable, _ help: String
    ) -> Self {
        Self(name: name, placeholder: placeholder, help: help) { values, text in values[keyPath: key] = text }
    }

    /// An option with one value that replaces a default, given at most once.
    public static func value(
        _ name: String, _ placeholder: String, _ key: WritableKeyPath<Values, String> & Sendable, _ help: String
    ) -> Self {
        Self(name: name, placeholder: placeholder, help: help) { values, text in values[keyPath: key] = text }
    }

    /// A repeatable option: each value is appended, in the order given.
    public static func values(
        _ name: String, _ placeholder: String, _ key: WritableKeyPath<Values, [String]> & Sendable, _ help: String
    ) -> Self {
        Self(name: name, placeholder: placeholder, repeatable: true, help: help) { values, text in values[keyPath: key].append(text) }
    }

    /// A whole number in `range`, given at most once; anything else is a usage error naming the range.
    public static func integer<Number: FixedWidthInteger & Sendable>(
        _ name: String, _ placeholder: String, _ key: WritableKeyPath<Values, Number> & Sendable, in range: ClosedRange<Int>,
        _ help: String
    ) -> Self {
        Self(name: name, placeholder: placeholder, help: help) { values, text throws(UsageError) in
            guard let parsed = Int(text), range.contains(parsed), let number = Number(exactly: parsed) else {
                throw UsageError(
                    .invalidValue(
                        option: name,
                        reason: "must be a whole number from \(range.lowerBound) to \(range.upperBound) (got '\(text)')"))
            }
            values[keyPath: key] = number
        }
    }

    /// The same option, storing into the part of a larger value at `key` (for options several
    /// commands share, parsed together with a command's own).
    public func within<Outer>(_ key: WritableKeyPath<Outer, Values> & Sendable) -> OptionSpec<Outer> {
        let store = store
        var outer = OptionSpec<Outer>(name: name, placeholder: placeholder, repeatable: repeatable, help: help) {
            outer, text throws(UsageError) in
            try store(&outer[keyPath: key], text)
        }
        outer.suggestions = suggestions
        return outer
    }

    /// The same option, with `values` for a shell to complete it with.
    public func suggesting(_ values: [String]) -> Self {
        var copy = self
        copy.suggestions = values
        return copy
    }

    /// The option's line of help.
    public var helpEntry: OptionHelp {
        OptionHelp(usage: "--" + name + (placeholder.map { " " + $0 } ?? ""), text: help)
    }
}
