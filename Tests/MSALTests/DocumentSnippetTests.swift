import Foundation
import Testing

/// The Swift fragments of Microsoft's MSAL for iOS/macOS guides (docs/error-mapping.md#documented-fragments) compile against
/// `MSAL` as written: the ADAL-to-MSAL migration guide (000-migration), the error-handling guide
/// (002-errors) and the custom-claims guide (003-claims). They live in `DocumentSnippets/` verbatim (formatting and unused
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
