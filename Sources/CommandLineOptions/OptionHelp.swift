/// A line of an options list in help: the option as typed (`--scope SCOPE`) and what it does.
public struct OptionHelp: Equatable, Sendable {
    /// The option as typed, with its placeholder: `--scope SCOPE`, `-h, --help`.
    public var usage: String
    /// What it does; several lines continue under the first.
    public var text: String

    public init(usage: String, text: String) {
        self.usage = usage
        self.text = text
    }

    /// `-h, --help`, which every command takes (`OptionParser` reads it).
    public static let help = OptionHelp(usage: "-h, --help", text: "show this help")

    /// The entries as an indented list, one per line (each line ending in a newline): two spaces,
    /// the usage padded to `width`, two spaces, the text; the text's further lines are indented to
    /// where its first began.
    public static func lines(_ entries: [OptionHelp], width: Int) -> String {
        let indent = String(repeating: " ", count: width + 4)
        return entries.map { entry in
            let padding = String(repeating: " ", count: max(0, width - entry.usage.count))
            let text = entry.text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n" + indent)
            return "  " + entry.usage + padding + "  " + text + "\n"
        }.joined()
    }
}
