import Foundation
import Testing

/// Every ```swift example in a `///` comment of the sources compiles as written. An example runs
/// as the body of an `async throws` function; lines at its top of the form `// given: name: Type`
/// declare what it uses without making it (the function's parameters), and the module of its file
/// is imported, with `package` access, as its neighbours see it.
@Suite struct DocCommentSnippetTests {
    struct Example {
        var place: String
        var module: String
        var given: [String]
        var code: String
    }

    /// The examples of every source file below Sources/.
    static func examples() throws -> [Example] {
        let sources = MarkdownSnippetTests.repository.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(atPath: sources.path) else { return [] }
        var found: [Example] = []
        for case let path as String in walker where path.hasSuffix(".swift") {
            let module = String(path.prefix { $0 != "/" })
            let lines = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8).components(separatedBy: "\n")
            var index = 0
            while index < lines.count {
                defer { index += 1 }
                guard lines[index].trimmingCharacters(in: .whitespaces) == "/// ```swift" else { continue }
                let start = index + 1
                var body: [String] = []
                index += 1
                while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces) != "/// ```" {
                    let text = lines[index].trimmingCharacters(in: .whitespaces)
                    body.append(text.hasPrefix("/// ") ? String(text.dropFirst(4)) : String(text.dropFirst(3)))
                    index += 1
                }
                let given = body.prefix { $0.hasPrefix("// given: ") }.map { String($0.dropFirst("// given: ".count)) }
                found.append(
                    Example(
                        place: "Sources/\(path):\(start)", module: module, given: given,
                        code: body.dropFirst(given.count).joined(separator: "\n")))
            }
        }
        return found.sorted { $0.place < $1.place }
    }

    /// The program an example is checked as.
    static func program(_ example: Example) -> String {
        let imports = Set(["Foundation", "MSAL", example.module]).sorted().map { "import \($0)" }.joined(separator: "\n")
        let body = example.code.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
        return "\(imports)\n\nfunc example(\(example.given.joined(separator: ", "))) async throws {\n\(body)\n}\n"
    }

    @Test func theSourcesHaveExamples() throws {
        #expect(try Self.examples().count >= 20)
    }

    @Test func everyExampleCompiles() async throws {
        let modules = try #require(SnippetCompiler.modulesDirectory(), "MSAL.swiftmodule not found near \(CommandLine.arguments[0])")
        let packageName = SnippetCompiler.packageNameArguments(modules: modules)
        #expect(!packageName.isEmpty, "the build's -package-name was not found beside \(modules.path)")
        let examples = try Self.examples()
        let failures = await withTaskGroup(of: String?.self) { group in
            for example in examples {
                group.addTask {
                    await SnippetCompiler.typecheckOffThePool(Self.program(example), modules: modules, extraArguments: packageName).map {
                        "\(example.place):\n\($0)"
                    }
                }
            }
            var failures: [String] = []
            for await failure in group { if let failure { failures.append(failure) } }
            return failures
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }
}
