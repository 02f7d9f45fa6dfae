import CommandLineOptions
import Foundation
import MSAL
import TestSupport
import Testing

@testable import NativeAuthCLI

/// The manual page and the completions list exactly what `--help` lists, and each is valid in its
/// own language (groff renders the page without a warning; bash parses and completes).
struct CommandReferenceTests {
    /// Every option of the tool: the global ones, and each command's own.
    static var everyOption: [(command: Command?, name: String)] {
        GlobalOptions.names.map { (nil, $0) } + Command.allCases.flatMap { command in command.spec.options.names.map { (command, $0) } }
    }

    @Test func theManualPageListsEveryCommandOptionAndExitStatus() {
        let page = CommandReference.manPage
        for command in Command.allCases {
            #expect(page.contains(".SS \(command.rawValue)\n"), "\(command)")
            #expect(page.contains(Roff.text(command.spec.summary.dropFirst())), "\(command)")
        }
        for (command, name) in Self.everyOption {
            #expect(page.contains("\\fB\\-\\-\(Roff.text(name))\\fR"), "\(String(describing: command)) --\(name)")
        }
        for code in ExitCode.allCases { #expect(page.contains(".TP\n\\fB\(code.rawValue)\\fR\n\(Roff.text(code.summary))\n")) }
        #expect(page.contains("native-auth \(MSALNativeAuthSDK.version)"))
    }

    @Test func everyCompletionOffersEveryCommandAndOption() {
        for (format, text) in [
            ("bash", CommandReference.bashCompletion), ("zsh", CommandReference.zshCompletion), ("fish", CommandReference.fishCompletion),
        ] {
            for command in Command.allCases { #expect(text.contains(command.rawValue), "\(format): \(command)") }
            for (command, name) in Self.everyOption {
                let spelled = format == "fish" ? "-l \(name)" : "--\(name)"
                #expect(text.contains(spelled), "\(format): \(String(describing: command)) --\(name)")
            }
        }
    }

    @Test func groffRendersThePageWithoutAWarning() throws {
        let page = try Self.write(CommandReference.manPage, name: "native-auth.1")
        let result = try Self.run("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", page])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
    }

    @Test(arguments: [
        (["native-auth", "lo"], "login logout"), (["native-auth", "--config", "x.json", "tok"], "token"),
        (["native-auth", "login", "--us"], "--username"), (["native-auth", "login", "--method", ""], "email sms"),
        (["native-auth", "emulator", "st"], "start stop status"), (["native-auth", "help", "acc"], "accounts"),
        (["native-auth", "--vers"], "--version"),
    ])
    func bashCompletes(_ words: [String], _ expected: String) throws {
        let file = try Self.write(CommandReference.bashCompletion, name: "native-auth.bash")
        #expect(try Self.run("/bin/bash", ["-n", file]).status == 0)
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let script = "source '\(file)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _native_auth; echo \"${COMPREPLY[*]}\""
        let result = try Self.run("/bin/bash", ["--norc", "--noprofile", "-c", script])
        #expect(result.status == 0 && result.stdout == expected + "\n", "\(words): \(result)")
    }

    // MARK: Helpers

    static func write(_ text: String, name: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reference-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func run(_ program: String, _ arguments: [String]) throws -> ToolResult {
        let result = try ChildProcess.runBlocking(
            program, arguments, environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"], limit: 60)
        return ToolResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }
}
