import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A private tmux server running one program at a fixed size: type, press keys, read the screen.
final class TmuxSession {
    /// The server's socket, in the temporary directory rather than tmux's shared one, removed on deinit.
    let socket = FileManager.default.temporaryDirectory.appendingPathComponent("msal-demo-\(UUID().uuidString.prefix(8)).tmux").path
    /// The program's exit status is written here by the wrapping shell.
    let statusFile = FileManager.default.temporaryDirectory.appendingPathComponent("demo-status-\(UUID().uuidString)").path

    static var demoBinary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("multi-api-demo").path
    }

    init(_ command: String, columns: Int = 80, rows: Int = 24, environment: [String: String] = [:]) throws {
        var arguments = ["-S", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-e", "LANG=C.UTF-8"]
        for (name, value) in environment { arguments += ["-e", "\(name)=\(value)"] }
        // The shell survives the Ctrl-C it shares with the program (a no-op trap; the program, once exec'd, gets default handling).
        arguments.append("/bin/sh -c 'trap : INT TERM; \(command); echo $? > \(statusFile)'")
        // The new tmux server inherits this call's descriptors: give it none to hold open.
        try tmux(arguments, captureOutput: false)
        try tmux(["-S", socket, "set-option", "-g", "remain-on-exit", "on"])
    }

    deinit {
        _ = try? tmux(["-S", socket, "kill-server"])
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

    /// Polls the screen until `condition` holds (`seconds` at most, 15 by default), returning that screen.
    @discardableResult
    /// Polls with `Task.sleep`, so the wait holds none of the cooperative pool's threads (two
    /// here), which other tests' tasks need meanwhile.
    func waitFor(_ what: String, seconds: Double = 15, _ condition: (String) -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if condition(last) {
                // A capture can land while the program is still writing the frame (seen under load:
                // the line waited for drawn, others not yet). The frame a moment later is complete.
                try await Task.sleep(nanoseconds: 100_000_000)
                let settled = try screen()
                return condition(settled) ? settled : last
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        Issue.record("timed out waiting for \(what); screen:\n\(last)")
        throw CancellationError()
    }

    @discardableResult
    func waitFor(_ text: String, seconds: Double = 15) async throws -> String {
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

    func waitForExit() async throws -> Int {
        for _ in 0..<200 {
            if let status = try exitStatus() { return status }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        Issue.record("the program did not exit; screen:\n\((try? screen()) ?? "")")
        throw CancellationError()
    }

    /// Runs tmux with posix_spawn and waitpid. Foundation's `Process` on Linux treats a child as
    /// running until every process that inherited its status descriptor exits, and the tmux
    /// server that `new-session` forks never does: `waitUntilExit` would hang (seen here).
    @discardableResult
    private func tmux(_ arguments: [String], captureOutput: Bool = true) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)").path
        defer { unlink(output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, captureOutput ? output : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = (["tmux"] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // A clean signal state: this runs on a thread-pool thread whose blocked signals the child
        // would otherwise inherit.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/tmux", &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return captureOutput ? ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "") : ""
    }
}

/// Runs the demo binary directly (no terminal) and returns its exit status and output.
func runDemo(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: TmuxSession.demoBinary)
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let error = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
}
