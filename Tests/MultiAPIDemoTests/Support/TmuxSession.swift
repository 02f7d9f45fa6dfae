import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A private tmux server running one program at a fixed size: type, press keys, read the screen.
///
/// The server runs in the foreground (`tmux -D`) as a `ChildProcess` of the test, rather than as
/// the daemon tmux makes of itself: it ends with the session, on every path out of the test, and
/// so do the pane's shell and program, which carry the server's `MSAL_TEST_CHILD` in their
/// environment (tmux gives a pane the server's environment).
final class TmuxSession {
    /// The server's socket, in the temporary directory rather than tmux's shared one, removed on deinit.
    let socket = FileManager.default.temporaryDirectory.appendingPathComponent("msal-demo-\(UUID().uuidString.prefix(8)).tmux").path
    /// The program's exit status is written here by the wrapping shell.
    let statusFile = FileManager.default.temporaryDirectory.appendingPathComponent("demo-status-\(UUID().uuidString)").path
    private let server: ChildProcess

    static var demoBinary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("multi-api-demo").path
    }

    init(_ command: String, columns: Int = 80, rows: Int = 24, environment: [String: String] = [:]) throws {
        server = try ChildProcess(Self.tmuxPath, ["-S", socket, "-f", "/dev/null", "-D"])
        for _ in 0..<1000 where access(socket, F_OK) != 0 {
            guard server.isRunning else { throw TmuxError(message: "the tmux server ended at start") }
            usleep(10_000)
        }
        var arguments = ["-S", socket, "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-e", "LANG=C.UTF-8"]
        for (name, value) in environment { arguments += ["-e", "\(name)=\(value)"] }
        // The shell survives the Ctrl-C it shares with the program (a no-op trap; the program, once exec'd, gets default handling).
        arguments.append("/bin/sh -c 'trap : INT TERM; \(command); echo $? > \(statusFile)'")
        try tmux(arguments)
        try tmux(["-S", socket, "set-option", "-g", "remain-on-exit", "on"])
    }

    deinit {
        // kill-server hangs up the pane (its program ends as on a closed terminal); end() then
        // ends whatever is left, server and pane alike.
        _ = try? tmux(["-S", socket, "kill-server"])
        server.end()
        unlink(statusFile)
        unlink(socket)
    }

    func type(_ text: String) throws { try tmux(["-S", socket, "send-keys", "-l", text]) }
    func press(_ keys: String...) throws { try tmux(["-S", socket, "send-keys"] + keys) }
    func resize(columns: Int, rows: Int) throws {
        try tmux(["-S", socket, "resize-window", "-x", "\(columns)", "-y", "\(rows)"])
    }

    func screen(escapes: Bool = false) throws -> String {
        try tmux(["-S", socket, "capture-pane", "-p"] + (escapes ? ["-e"] : []))
    }

    /// Polls the screen until `condition` holds (`seconds` at most, 60 by default; `waitUntil`
    /// looks once more after the limit), returning that screen. The limit only ends a wait that
    /// would never succeed: on a loaded two-core machine a step that runs several requests against
    /// the embedded emulator has taken more than 15 s.
    @discardableResult
    func waitFor(_ what: String, seconds: Double = 60, _ condition: (String) -> Bool) async throws -> String {
        var last = ""
        let held = try await waitUntil(seconds: seconds, interval: 0.05) {
            last = try screen()
            return condition(last)
        }
        guard held else {
            Issue.record("timed out waiting for \(what); screen:\n\(last)")
            throw CancellationError()
        }
        // A capture can land while the program is still writing the frame (seen under load: the
        // line waited for drawn, others not yet). The frame a moment later is complete.
        try await Task.sleep(nanoseconds: 100_000_000)
        let settled = try screen()
        return condition(settled) ? settled : last
    }

    @discardableResult
    func waitFor(_ text: String, seconds: Double = 60) async throws -> String {
        try await waitFor("'\(text)'", seconds: seconds) { $0.contains(text) }
    }

    /// A tmux format evaluated for the pane, such as `#{pane_pid}`.
    func paneValue(_ format: String) throws -> String {
        try tmux(["-S", socket, "display-message", "-p", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The program's exit status once it has ended (nil while it runs).
    func exitStatus() throws -> Int? {
        guard let text = try? String(contentsOfFile: statusFile, encoding: .utf8) else { return nil }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Waits up to 60 s for the program's exit status.
    func waitForExit() async throws -> Int {
        var status: Int?
        guard
            try await waitUntil(
                seconds: 60, interval: 0.05,
                {
                    status = try exitStatus()
                    return status != nil
                }), let status
        else {
            Issue.record("the program did not exit; screen:\n\((try? screen()) ?? "")")
            throw CancellationError()
        }
        return status
    }

    static let tmuxPath = "/usr/bin/tmux"

    /// Runs a tmux client command to its end; its output. A failed command throws.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let result = try ChildProcess.runBlocking(Self.tmuxPath, arguments, limit: 60)
        guard result.status == 0 else {
            throw TmuxError(message: "tmux \(arguments.prefix(3)) failed (\(result.status)): \(result.stderr)")
        }
        return result.stdout
    }
}

struct TmuxError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Runs the demo binary directly (no terminal) and returns its exit status and output.
func runDemo(_ arguments: [String]) async throws -> (status: Int32, output: String, error: String) {
    let result = try await ChildProcess.run(TmuxSession.demoBinary, arguments, limit: 120)
    return (result.status, result.stdout, result.stderr)
}
