import Foundation
import TestSupport
import Testing

/// Every ```swift block of the project's Markdown documents (README.md, docs/, and the READMEs
/// under Examples/ and Bindings/) compiles against the `MSAL` module as written (Swift 6 mode), so
/// the examples a new user copies cannot drift from the SDK. Each block is type-checked on its own,
/// as the `main.swift` of a tiny program.
@Suite struct MarkdownSnippetTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The Markdown documents whose Swift blocks are checked, relative to the repository.
    static func documents() -> [String] {
        let fileManager = FileManager.default
        var found = ["README.md"]
        for folder in ["docs", "Examples", "Bindings"] {
            let root = repository.appendingPathComponent(folder)
            guard let walker = fileManager.enumerator(atPath: root.path) else { continue }
            for case let path as String in walker where path.hasSuffix(".md") && !path.contains(".build") {
                found.append(folder + "/" + path)
            }
        }
        return found.sorted()
    }

    /// The fenced Swift blocks of one document, with the line each starts on.
    static func swiftBlocks(of document: String) throws -> [(line: Int, code: String)] {
        let text = try String(contentsOf: repository.appendingPathComponent(document), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        var blocks: [(Int, String)] = []
        var current: [String]?
        var start = 0
        for (index, line) in lines.enumerated() {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
                start = index + 2
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append((start, current!.joined(separator: "\n")))
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    /// Every block of every document, named by document and line.
    static func swiftBlocks() throws -> [(place: String, code: String)] {
        try documents().flatMap { document in try swiftBlocks(of: document).map { ("\(document):\($0.line)", $0.code) } }
    }

    static func modulesDirectory() -> URL? { SnippetCompiler.modulesDirectory() }
}

extension SnippetCompiler {
    /// The directory with `MSAL.swiftmodule` of this build.
    static func modulesDirectory() -> URL? {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = directory.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("MSAL.swiftmodule").path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return nil
    }
}

extension MarkdownSnippetTests {

    @Test func theDocumentsHaveSwiftExamples() throws {
        #expect(try Self.swiftBlocks(of: "README.md").count >= 2)
        #expect(try Self.swiftBlocks(of: "docs/usage.md").count >= 6)
    }

    @Test func everySwiftBlockCompiles() async throws {
        let modules = try #require(SnippetCompiler.modulesDirectory(), "MSAL.swiftmodule not found near \(CommandLine.arguments[0])")
        let blocks = try Self.swiftBlocks()
        let failures = await withTaskGroup(of: String?.self) { group in
            for block in blocks {
                for version in Self.languageModes(of: block.code) {
                    group.addTask {
                        await SnippetCompiler.typecheckOffThePool(block.code, modules: modules, swiftVersion: version).map {
                            "\(block.place) (Swift \(version) mode):\n\($0)"
                        }
                    }
                }
            }
            var failures: [String] = []
            for await failure in group { if let failure { failures.append(failure) } }
            return failures
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }

    /// Swift 6 for every block; Swift 5 too for a block that says it compiles in both modes.
    static func languageModes(of code: String) -> [String] {
        code.hasPrefix(bothModesMarker) ? ["6", "5"] : ["6"]
    }

    static let bothModesMarker = "// Compiles in the Swift 5 and Swift 6 language modes."

    @Test func theDaemonExampleIsCheckedInBothModes() throws {
        #expect(try Self.swiftBlocks().contains { Self.languageModes(of: $0.code) == ["6", "5"] })
    }
}

/// Type-checks a Swift program against this build's `MSAL` module with the toolchain's `swiftc`
/// (Swift 6 mode unless asked for another), for code that lives outside the test targets: README blocks, the product
/// documents' fragments (which keep their own formatting and unused values).
enum SnippetCompiler {
    /// `typecheck` on a thread of its own: waiting for the compiler must not hold one of the few
    /// threads of Swift's cooperative pool (two on this machine), which other tests' tasks need.
    static func typecheckOffThePool(_ code: String, modules: URL, swiftVersion: String = "6", extraArguments: [String] = []) async
        -> String?
    {
        await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(
                    returning: typecheck(code, modules: modules, swiftVersion: swiftVersion, extraArguments: extraArguments))
            }.start()
        }
    }

    /// What a program importing `MSALSecretService` or `MSALRedis` needs besides the Swift modules:
    /// the module maps of the C shims and the libraries' headers (as `pkg-config` names them).
    static let cModuleArguments: [String] = {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var arguments: [String] = []
        for shim in ["CSecretService", "CMicroHTTPD", "CCrypto", "CRedisTLS"] {
            arguments += ["-I", repository.appendingPathComponent("Sources/\(shim)").path]
        }
        guard
            let flags = try? ChildProcess.runBlocking(
                "/usr/bin/env", ["pkg-config", "--cflags-only-I", "libsecret-1", "libmicrohttpd", "libcrypto", "openssl"], limit: 60
            ).stdout
        else { return arguments }
        for flag in flags.split(separator: " ") where flag.hasPrefix("-I") {
            arguments += ["-Xcc", String(flag).trimmingCharacters(in: .whitespacesAndNewlines)]
        }
        return arguments
    }()

    /// `-package-name` as this build passed it (SwiftPM names the package after its folder), read
    /// from the build's manifest beside `modules`, so that a snippet may use `package` declarations.
    static func packageNameArguments(modules: URL) -> [String] {
        var directory = modules
        for _ in 0..<6 {
            directory.deleteLastPathComponent()
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { continue }
            for name in names where name.hasSuffix(".yaml") {
                guard let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8),
                    let range = text.range(of: #""-package-name","[^"]+""#, options: .regularExpression)
                else { continue }
                let value = text[range].dropFirst(#""-package-name",""#.count).dropLast()
                return ["-package-name", String(value)]
            }
        }
        return []
    }

    /// Nil when `code` type-checks; else the compiler's output.
    static func typecheck(_ code: String, modules: URL, swiftVersion: String = "6", extraArguments: [String] = []) -> String? {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let file = directory.appendingPathComponent("main.swift")
            try code.write(to: file, atomically: true, encoding: .utf8)
            let result = try ChildProcess.runBlocking(
                "/usr/bin/env",
                ["swiftc", "-typecheck", "-swift-version", swiftVersion, "-I", modules.path] + cModuleArguments + extraArguments
                    + [file.path], limit: 600)
            return result.status == 0 ? nil : result.stdout + result.stderr
        } catch {
            return "could not run swiftc: \(error)"
        }
    }
}
