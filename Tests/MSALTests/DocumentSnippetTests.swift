import Foundation
import Testing

/// The Swift fragments of the product documents (shared/docs, docs/error-mapping.md#documented-fragments) compile against
/// `MSAL` as written: the migration guides (000/001), the error-handling guide (002) and the
/// custom-claims guide (003). They live in `DocumentSnippets/` verbatim (formatting and unused
/// values included, which the test targets' warnings-as-errors would refuse), each wrapped in a
/// function whose parameters stand for the document's placeholders, and are type-checked in Swift 6 mode.
@Suite struct DocumentSnippetTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("DocumentSnippets")

    @Test(arguments: ["000-migration", "002-errors", "003-claims"])
    func theDocumentsFragmentsCompile(name: String) async throws {
        let modules = try #require(SnippetCompiler.modulesDirectory(), "MSAL.swiftmodule not found")
        let code = try String(contentsOf: Self.directory.appendingPathComponent("\(name).swift.snippet"), encoding: .utf8)
        let failure = await SnippetCompiler.typecheckOffThePool(code, modules: modules)
        #expect(failure == nil, "\(failure ?? "")")
    }
}
