import Foundation
import Testing

/// The experimental notice of native auth V2 is said once per type, as MSAL's own doc comments say
/// it (docs/architecture.md#native-auth-v2): every public type declared under Sources/MSAL/V2/ has
/// it in its documentation and none of its members repeats it; a public member that V2 adds to a
/// type of its own (`signInV2` on the application) has it, since its type is not experimental.
@Suite struct V2ExperimentalNoticeTests {
    static let notice = "/// - Warning: This API is experimental."

    /// A top-level declaration of a V2 source file: its name, whether it is an extension, whether
    /// its documentation has the notice, and its public members (line number, notice or not).
    struct Declaration {
        var place: String
        var name: String
        var isExtension: Bool
        var hasNotice: Bool
        /// Public members, protocol requirements and enum cases, with whether they repeat the notice.
        var members: [(place: String, isPublic: Bool, hasNotice: Bool)] = []
    }

    static func declarations() throws -> [Declaration] {
        let folder = MarkdownSnippetTests.repository.appendingPathComponent("Sources/MSAL/V2")
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var found: [Declaration] = []
        for case let path as String in walker where path.hasSuffix(".swift") {
            let lines = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8).components(separatedBy: "\n")
            var comment: [String] = []
            for (index, line) in lines.enumerated() {
                let text = line.trimmingCharacters(in: .whitespaces)
                let place = "Sources/MSAL/V2/\(path):\(index + 1)"
                if text.hasPrefix("///") {
                    comment.append(text)
                    continue
                }
                defer { if !text.hasPrefix("@") { comment = [] } }
                let hasNotice = comment.contains { $0.hasPrefix(notice) }
                if !line.hasPrefix(" "), let name = declaredName(text) {
                    found.append(Declaration(place: place, name: name.name, isExtension: name.isExtension, hasNotice: hasNotice))
                } else if line.hasPrefix(" "), !found.isEmpty,
                    ["public ", "case ", "func ", "var ", "@MainActor "].contains(where: text.hasPrefix)
                {
                    found[found.count - 1].members.append((place, text.hasPrefix("public "), hasNotice))
                }
            }
        }
        return found
    }

    /// The name a top-level line declares (`public final class X: …`, `extension X {`), if any.
    static func declaredName(_ text: String) -> (name: String, isExtension: Bool)? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "{" || $0 == "<" }).map(String.init)
        if words.first == "extension", words.count > 1 { return (words[1], true) }
        guard words.first == "public" else { return nil }
        for kind in ["class", "enum", "protocol", "struct"] {
            if let at = words.firstIndex(of: kind), at + 1 < words.count { return (words[at + 1], false) }
        }
        return nil
    }

    @Test func eachPublicV2TypeSaysItOnceAndItsMembersNever() throws {
        let all = try Self.declarations()
        let types = all.filter { !$0.isExtension }
        #expect(types.count >= 20, "found \(types.count) public V2 types")
        let experimental = Set(types.map(\.name))
        for type in types {
            #expect(type.hasNotice, "\(type.place): \(type.name) has no experimental notice")
        }
        for declaration in all where experimental.contains(declaration.name) {
            for member in declaration.members {
                #expect(!member.hasNotice, "\(member.place): a member of \(declaration.name) repeats the notice")
            }
        }
    }

    @Test func membersAddedToOtherTypesSayIt() throws {
        let all = try Self.declarations()
        let experimental = Set(all.filter { !$0.isExtension }.map(\.name))
        let added = all.filter { $0.isExtension && !experimental.contains($0.name) }.flatMap(\.members).filter(\.isPublic)
        #expect(added.count >= 8, "found \(added.count) members added to other types")
        for member in added {
            #expect(member.hasNotice, "\(member.place): no experimental notice")
        }
    }
}
