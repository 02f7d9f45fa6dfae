import Foundation
import Testing

/// Links such as `docs/cli.md#exit-codes` in the code's comments (the SDK, the tools, the bindings,
/// the examples and their tests) point at a heading that exists, by GitHub's anchor rules.
struct DocsAnchorTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folders whose code is checked, and the kinds of file read in them.
    static let folders = ["Sources", "Tests", "Bindings", "Examples"]
    static let extensions: Set<String> = ["swift", "c", "h", "py"]

    /// GitHub's anchor of a heading: lower case, every character but letters, digits, spaces,
    /// `-` and `_` dropped, spaces made `-`; a repeated anchor gets `-1`, `-2`, ….
    static func anchors(_ markdown: String) -> Set<String> {
        var anchors: Set<String> = []
        var inFence = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inFence.toggle() }
            guard !inFence, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            let base = String(
                title.lowercased().unicodeScalars.compactMap { scalar -> Character? in
                    if scalar == " " { return "-" }
                    if CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_" { return Character(scalar) }
                    return nil
                })
            var anchor = base
            var count = 0
            while anchors.contains(anchor) {
                count += 1
                anchor = "\(base)-\(count)"
            }
            anchors.insert(anchor)
        }
        return anchors
    }

    @Test func theAnchorRuleMatchesGitHubs() {
        #expect(
            Self.anchors(
                "# The command-line tool: `native-auth`\n## `token` and its cost\n## Test hooks (not part of the real API)\n## Files\n## Files"
            )
                == ["the-command-line-tool-native-auth", "token-and-its-cost", "test-hooks-not-part-of-the-real-api", "files", "files-1"])
    }

    @Test func everyDocsLinkInTheCodePointsAtAHeading() throws {
        let link = try NSRegularExpression(pattern: #"docs/([A-Za-z0-9_.-]+\.md)#([A-Za-z0-9_-]+)"#)
        var checked = 0
        for folder in Self.folders {
            let directory = Self.root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where Self.extensions.contains(file.pathExtension) {
                let text = try String(contentsOf: file, encoding: .utf8)
                for match in link.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    let document = String(text[Range(match.range(at: 1), in: text)!])
                    let anchor = String(text[Range(match.range(at: 2), in: text)!])
                    let markdown = try String(contentsOf: Self.root.appendingPathComponent("docs/" + document), encoding: .utf8)
                    #expect(
                        Self.anchors(markdown).contains(anchor),
                        "\(file.path.dropFirst(Self.root.path.count + 1)): docs/\(document)#\(anchor)")
                    checked += 1
                }
            }
        }
        #expect(checked > 200, "found the links")
    }
}
