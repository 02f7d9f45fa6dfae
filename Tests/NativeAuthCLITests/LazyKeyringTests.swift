import Foundation
import TestSupport
import Testing

/// native-auth links the keyring store, but libsecret and GLib are loaded only at the first keyring
/// call (Sources/LazySecretService): a plain command maps none of them, and a machine without
/// libsecret gets one line naming the package and status 3 when it asks for the keyring.
@Suite struct LazyKeyringTests {
    static let libraries = ["libsecret-1.so", "libgio-2.0.so", "libgobject-2.0.so", "libglib-2.0.so"]

    @Test func aPlainTokenLoadsNoLibsecretAndTheKeyringLoadsItAtItsFirstCall() throws {
        let emulator = try CLIEmulator()
        let token = try emulator.tokenUnderTheLoadersLog()
        for library in Self.libraries {
            #expect(!token.stderr.contains("file=\(library)"), "\(library) is not loaded for a plain token")
        }
        // No Secret Service in the test's home: the keyring fails, but only after libsecret was loaded for it.
        let keyring = try emulator.run(["--keyring", "token", "--scope", CLIEmulator.todolist])
        #expect(keyring.status == 3, "\(keyring.status)")
        #expect(keyring.stderr.contains("file=libsecret-1.so.0 [0];  dynamically loaded by"), "loaded by dlopen for --keyring")
    }

    /// libsecret hidden by a private mount (as on a machine without it): a clear line, status 3, no crash.
    @Test(.enabled(if: HiddenLibrary.canHide, "needs `unshare --mount` (root, or user namespaces) to hide libsecret"))
    func withoutLibsecretTheKeyringEndsWithOneLineNamingThePackage() throws {
        let emulator = try CLIEmulator()
        let library = try #require(HiddenLibrary.path("libsecret-1.so.0"))
        let hidden = try emulator.home.start(
            HiddenLibrary.arguments(hiding: library)
                + [ToolHome.binary, "--config", emulator.config, "--keyring", "token", "--scope", CLIEmulator.todolist],
            program: HiddenLibrary.unshare)
        hidden.closeInput()
        let result = hidden.wait()
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr.contains("cannot load libsecret-1.so.0") && result.stderr.contains("apt install libsecret-1-0"), "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        // Without --keyring the same hidden library changes nothing.
        let plain = try emulator.home.start(
            HiddenLibrary.arguments(hiding: library) + [
                ToolHome.binary, "--config", emulator.config, "token", "--scope", CLIEmulator.todolist,
            ],
            program: HiddenLibrary.unshare)
        plain.closeInput()
        let plainResult = plain.wait()
        #expect(
            plainResult.status == 8 && !plainResult.stderr.contains("libsecret"), "no account, and nothing about libsecret: \(plainResult)")
    }
}
