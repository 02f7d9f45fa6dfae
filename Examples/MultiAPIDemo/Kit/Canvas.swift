/// A grid of styled characters: what `render` draws and the terminal driver copies to the
/// screen. Tests compare its text with golden screens.
public struct Canvas: Equatable, Sendable {
    public enum Style: UInt8, Sendable {
        case normal, title, field, focusedField, button, focusedButton, dim, heading, error, success, mailbox, dialog
    }

    public let columns: Int
    public let rows: Int
    public private(set) var characters: [Character]
    public private(set) var styles: [Style]

    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        characters = Array(repeating: " ", count: self.columns * self.rows)
        styles = Array(repeating: .normal, count: self.columns * self.rows)
    }

    /// Writes `text` from (x, y), clipped to the canvas and to `width` columns when given.
    public mutating func put(_ text: String, x: Int, y: Int, style: Style = .normal, width: Int? = nil) {
        guard y >= 0, y < rows else { return }
        var column = x
        let limit = min(columns, width.map { x + $0 } ?? columns)
        for character in text {
            guard column < limit else { break }
            if column >= 0 {
                characters[y * columns + column] = character.isNewline ? " " : character
                styles[y * columns + column] = style
            }
            column += 1
        }
    }

    /// Paints `count` cells from (x, y) with `style` and `fill`.
    public mutating func fill(x: Int, y: Int, count: Int, style: Style, with fill: Character = " ") {
        put(String(repeating: fill, count: max(0, count)), x: x, y: y, style: style)
    }

    public func character(x: Int, y: Int) -> Character { characters[y * columns + x] }
    public func style(x: Int, y: Int) -> Style { styles[y * columns + x] }

    /// One row as text, trailing spaces removed.
    public func line(_ y: Int) -> String {
        var text = String(characters[(y * columns)..<((y + 1) * columns)])
        while text.last == " " { text.removeLast() }
        return text
    }

    /// The whole canvas as text, one line per row.
    public var text: String { (0..<rows).map(line).joined(separator: "\n") }
}

/// Splits text into lines of at most `width` columns, at spaces where possible (a word longer than
/// a line is cut). An indented line (pretty-printed JSON) keeps its indent on the lines it wraps onto.
func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let leading = paragraph.prefix(while: { $0 == " " }).count
        let indent = String(repeating: " ", count: min(leading, width / 2))
        let room = width - indent.count
        var current = ""
        for piece in paragraph.dropFirst(leading).split(separator: " ", omittingEmptySubsequences: false) {
            var word = Substring(piece)
            while word.count > room {
                if !current.isEmpty {
                    lines.append(indent + current)
                    current = ""
                }
                lines.append(indent + word.prefix(room))
                word = word.dropFirst(room)
            }
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= room {
                current += " " + word
            } else {
                lines.append(indent + current)
                current = String(word)
            }
        }
        lines.append(indent + current)
    }
    return lines
}
