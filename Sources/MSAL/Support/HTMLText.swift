/// Text placed in an HTML page: the SDK's loopback pages and the emulator's sign-in pages share
/// this one escaper (docs/architecture.md says why the emulator may use it).
package enum HTMLText {
    /// `&`, `<`, `>`, `"` and `'` as entities: safe in element content and in a quoted attribute value.
    package static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
