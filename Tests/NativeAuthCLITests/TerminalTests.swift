import Foundation
import Testing

/// The password prompt on a real terminal: `script` gives the tool a pseudo-terminal, whose
/// output is what a person sees (echo included).
@Suite(.serialized) struct TerminalTests {
    /// `sh -c COMMAND` on a pseudo-terminal; stdin goes to the terminal, stdout is the screen.
    private func onTerminal(_ emulator: CLIEmulator, _ command: String) throws -> RunningTool {
        try emulator.home.start(["-q", "-f", "-e", "-c", command, "/dev/null"], program: "/usr/bin/script")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) from util-linux"))
    func thePasswordIsNotEchoed() throws {
        let emulator = try CLIEmulator()
        let tool = try onTerminal(
            emulator, "\(ToolHome.binary) --config \(emulator.config) login --username ada@example.com; echo status=$?")
        // The prompt goes to stderr, which is the terminal too; `script` passes it to its stdout.
        let screen = try waitForOutput(tool, "Password for ada@example.com: ")
        #expect(!screen.contains(CLIEmulator.adaPassword))
        tool.write(CLIEmulator.adaPassword + "\r")
        let result = try waitForOutput(tool, "status=")
        #expect(result.contains("status=0"), "\(result)")
        #expect(!result.contains(CLIEmulator.adaPassword), "the terminal did not echo the password: \(result)")
        tool.closeInput()
        _ = tool.wait()
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) from util-linux"))
    func echoComesBackAfterCtrlC() throws {
        let emulator = try CLIEmulator()
        // The shell ignores SIGINT, so it goes on to show the terminal's settings after the tool ends.
        let tool = try onTerminal(
            emulator,
            "trap '' INT; \(ToolHome.binary) --config \(emulator.config) login --username ada@example.com; echo status=$?; stty -a")
        _ = try waitForOutput(tool, "Password for ada@example.com: ")
        tool.write("\u{03}") // Ctrl-C
        // `extproc` ends the last line of `stty -a`: the whole of it has come (the output can
        // arrive in pieces, and `echo` is on a later line than `rows`).
        let result = try waitForOutput(tool, "extproc")
        #expect(result.contains("status=130"), "ended by SIGINT: \(result)")
        let settings = result.components(separatedBy: "status=130").last ?? ""
        #expect(settings.contains(" echo ") && !settings.contains("-echo "), "echo is back on: \(settings)")
        tool.closeInput()
        _ = tool.wait()
    }

    /// What the terminal showed so far, once it contains `text`.
    private func waitForOutput(_ tool: RunningTool, _ text: String) throws -> String {
        for _ in 0..<6000 {
            let shown = tool.stdout
            if shown.contains(text) { return shown }
            usleep(10_000)
        }
        Issue.record("the terminal never showed '\(text)': \(tool.stdout)")
        throw ToolTimeout()
    }
}
