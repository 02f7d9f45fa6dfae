import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// One program under three names, as the Debian package installs it (docs/cli.md#one-program-three-names):
/// `native-auth`, with `native-auth-emulator` and `native-auth-keyring` as links to it in the same
/// directory. The emulator's libraries, like libsecret, are loaded only by what uses them.
@Suite struct OneProgramTests {
    /// `one-program-tool/`, beside the test bundle: the built program (`program(in:)`) and the two
    /// links to it. Made once, kept.
    static let directory: String = {
        let directory = (program(in: "one-program-tool") as NSString).deletingLastPathComponent
        for name in ["native-auth-emulator", "native-auth-keyring"]
        where (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name)) == nil {
            try? FileManager.default.createSymbolicLink(atPath: directory + "/" + name, withDestinationPath: "native-auth")
        }
        return directory
    }()

    /// `one-program-alone/native-auth`, beside the test bundle: the built program with nothing beside it.
    static let alone = program(in: "one-program-alone")

    /// `<folder>/native-auth` beside the test bundle: a hard link of the built `native-auth` (so that
    /// /proc/self/exe names this folder), made afresh, as the build replaces the program with a new file.
    static func program(in folder: String) -> String {
        let build = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let directory = build.appendingPathComponent(folder).path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let program = directory + "/native-auth"
        unlink(program)
        if link(ToolHome.binary, program) != 0 { _ = try? FileManager.default.copyItem(atPath: ToolHome.binary, toPath: program) }
        return program
    }

    @Test func aPlainTokenLoadsNeitherTheEmulatorsLibrariesNorLibsecret() throws {
        let emulator = try CLIEmulator()
        let token = try emulator.tokenUnderTheLoadersLog()
        let loads = token.stderr.split(separator: "\n").filter { $0.contains("needed by") || $0.contains("dynamically loaded by") }
        for library in ["libmicrohttpd.so", "libsecret-1.so", "libglib-2.0.so"] {
            #expect(!loads.contains { $0.contains("file=\(library)") }, "\(library) is not loaded for a plain token")
        }
        // A shared libcurl (the ordinary build's FoundationNetworking) brings libcrypto of its own;
        // native-auth itself neither needs nor opens it.
        #expect(!loads.contains { $0.contains("file=libcrypto.so") && ($0.contains("native-auth [") || $0.contains("dynamically loaded")) })
    }

    /// `--emulator` starts the program itself under the name `native-auth-emulator`, which makes
    /// it the emulator: no second program is needed beside it (here a directory with `native-auth`
    /// alone); `emulator stop` recognizes it by that name and ends it.
    @Test func theEmulatorModeRunsTheProgramItselfAsTheEmulator() throws {
        let home = try ToolHome()
        let program = Self.alone
        let first = try home.start(["--emulator", "login", "--no-prompt", "--username", "ada@example.com"], program: program)
        first.closeInput()
        let started = first.wait()
        #expect(started.status == 4 || started.status == 0, "\(started)")
        #expect(started.stderr.contains("Started the emulator"), "\(started)")
        let state = try String(contentsOfFile: home.runtimeDir + "/native-auth/emulator/emulator.json", encoding: .utf8)
        let pid = try #require(
            (try JSONSerialization.jsonObject(with: Data(state.utf8)) as? [String: Any])?["pid"] as? Int, "pid in \(state)")
        let command = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")).split(separator: 0).first.map {
            String(decoding: $0, as: UTF8.self)
        }
        #expect(command == "native-auth-emulator", "the program, by the emulator's name: \(command ?? "")")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) == program)
        let stop = try home.start(["emulator", "stop"], program: program)
        stop.closeInput()
        #expect(stop.wait().status == 0)
        // Gone, or a zombie waiting for its reaper (which has no command line any more).
        var gone = false
        for _ in 0..<100 where !gone {
            gone = ((try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")))?.isEmpty ?? true)
            if !gone { usleep(100_000) }
        }
        #expect(gone, "the linked emulator ended")
    }

    /// libmicrohttpd hidden by a private mount (as on a machine without the package's Recommends):
    /// the emulator ends with one line naming the package and its "cannot start" status, 1.
    @Test(.enabled(if: HiddenLibrary.canHide, "needs `unshare --mount` (root, or user namespaces) to hide a library"))
    func withoutLibmicrohttpdTheEmulatorEndsWithOneLineNamingThePackage() throws {
        let home = try ToolHome()
        let library = try #require(HiddenLibrary.path("libmicrohttpd.so.12"))
        let hidden = try home.start(
            HiddenLibrary.arguments(hiding: library) + [Self.directory + "/native-auth-emulator", "--port", "0", "--quiet"],
            program: HiddenLibrary.unshare)
        hidden.closeInput()
        let result = hidden.wait()
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr.hasPrefix("native-auth-emulator: cannot load libmicrohttpd.so.12")
                && result.stderr.contains("apt install libmicrohttpd12"), "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
    }

    /// The old keyring program's name still runs the tool.
    @Test func theKeyringNameIsTheTool() throws {
        let home = try ToolHome()
        let help = try home.start(["--help"], program: Self.directory + "/native-auth-keyring")
        help.closeInput()
        let result = help.wait()
        #expect(result.status == 0 && result.stdout.contains("token"), "\(result)")
    }
}
