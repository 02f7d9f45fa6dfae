/// The pieces of a manual page in roff (man(7) macros) that every page of the project writes the
/// same way: escaped text, a tagged paragraph, an option. native-auth(1) is made in
/// Sources/NativeAuthCLI/CommandReference.swift, native-auth-emulator(1) in
/// Sources/NativeAuthEmulator/EmulatorCommandLine.swift; `native-auth-docs` writes both.
public enum Roff {
    /// `text` safe as roff body text: backslashes and dashes escaped, characters beyond ASCII as
    /// `\[uXXXX]` (groff reads its input as Latin-1 unless told otherwise), no line starting a request.
    public static func text(_ text: some StringProtocol) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var escaped = line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" : ""
            for scalar in line.unicodeScalars {
                switch scalar {
                case "\\": escaped += "\\e"
                case "-": escaped += "\\-"
                case _ where scalar.isASCII: escaped.unicodeScalars.append(scalar)
                default: escaped += "\\[u" + hex(scalar.value) + "]"
                }
            }
            return escaped
        }.joined(separator: "\n")
    }

    /// At least four upper-case hexadecimal digits, as groff's `\[uXXXX]` wants them.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// A tagged paragraph: `tag` (already roff) in the margin, `text` (plain) under it.
    public static func entry(_ tag: String, _ text: String) -> String {
        ".TP\n\(tag)\n\(Self.text(text))\n"
    }

    /// An option as a tagged paragraph: `--name PLACEHOLDER` in bold and italics, then its help.
    public static func option(_ name: String, placeholder: String?, _ help: String) -> String {
        var usage = "\\fB\\-\\-" + text(name) + "\\fR"
        if let placeholder { usage += " \\fI" + text(placeholder) + "\\fR" }
        return entry(usage, help)
    }

    /// `.TH` and `.SH NAME`: the page's title line and its one-line description.
    public static func header(_ program: String, version: String, summary: String) -> String {
        """
        .TH \(program.uppercased()) 1 "" "\(program) \(version)" "User Commands"
        .SH NAME
        \(text(program)) \\- \(text(summary))

        """
    }
}

extension OptionSpec {
    /// The option as a manual page's tagged paragraph.
    public var manEntry: String { Roff.option(name, placeholder: placeholder, help) }
}
