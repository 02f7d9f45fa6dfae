import Foundation
import MSAL
import Testing

/// The one version (the file VERSION) and the copies `scripts/set-version` writes where a file
/// cannot be read at build time: the SDK's constant, the C header's macro, the Python package's.
struct VersionTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// The first capture of `pattern` in the file at `path`.
    static func value(in path: String, _ pattern: String) throws -> String? {
        let text = try read(path)
        let regex = try NSRegularExpression(pattern: pattern, options: .anchorsMatchLines)
        guard let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }

    @Test func everyCopyIsTheVersionFile() throws {
        let version = try Self.read("VERSION").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(
            version.split(separator: ".").count == 3 && version.allSatisfy { $0.isNumber || $0 == "." }, "MAJOR.MINOR.PATCH: \(version)")
        #expect(MSALNativeAuthSDK.version == version)
        #expect(try Self.value(in: "Bindings/C/include/msal_native_auth.h", #"^#define MSAL_NA_VERSION "(.*)"$"#) == version)
        #expect(try Self.value(in: "Bindings/Python/msal_native_auth/_version.py", #"^__version__ = "(.*)"$"#) == version)
    }
}
