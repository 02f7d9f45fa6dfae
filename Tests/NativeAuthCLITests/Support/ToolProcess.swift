import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built `native-auth` run as a subprocess, in a home of its own (fresh XDG directories, no
/// browser, no display), with its stdin a pipe the test writes to.
final class ToolHome: @unchecked Sendable {
    /// `.build/<configuration>/native-auth`, beside the test bundle.
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("native-auth")
        .path

    let root: String
    /// The `MSAL_TEST_CHILD` of every tool run in this home, and so of the background emulator a
    /// tool starts (which later runs share): ended with the home.
    let processID = UUID().uuidString
    /// Variables added to the tool's environment.
    var extraEnvironment: [String: String] = [:]
    var configHome: String { root + "/config" }
    var stateHome: String { root + "/state" }
    var runtimeDir: String { root + "/run" }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("native-auth-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(
            atPath: runtimeDir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit {
        // An emulator a test started in the background must not outlive it.
        _ = try? run(["emulator", "stop"])
        ChildProcess.endAll(carrying: processID)
        try? FileManager.default.removeItem(atPath: root)
    }

    var environment: [String: String] {
        [
            "HOME": root, "XDG_CONFIG_HOME": configHome, "XDG_STATE_HOME": stateHome, "XDG_RUNTIME_DIR": runtimeDir,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8",
            "BROWSER": "", "DISPLAY": "", "WAYLAND_DISPLAY": "",
        ].merging(extraEnvironment) { _, extra in extra }
    }

    /// Writes `object` as a configuration file and returns its path.
    func writeConfig(_ object: [String: Any], name: String = "config.json") throws -> String {
        let path = root + "/" + name
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs the tool to the end with `input` on stdin (then closed).
    func run(_ arguments: [String], input: String = "") throws -> ToolResult {
        let running = try start(arguments)
        running.write(input)
        running.closeInput()
        return running.wait()
    }

    /// Starts the tool; the test writes stdin as the prompts come (`RunningTool`).
    func start(_ arguments: [String], program: String = ToolHome.binary) throws -> RunningTool {
        try RunningTool(program: program, arguments: arguments, environment: environment, processID: processID)
    }
}

/// How a run ended.
struct ToolResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]) ?? [:] }
    /// The `--json` error object on stderr.
    var errorJSON: [String: Any] {
        let object = (try? JSONSerialization.jsonObject(with: Data(stderr.utf8))) as? [String: Any]
        return object?["error"] as? [String: Any] ?? [:]
    }
    var description: String { "status \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

/// A running tool whose stderr the test can wait on, to answer prompts one at a time. A
/// `ChildProcess`: it ends, with its process group, when the test lets go of it.
final class RunningTool: @unchecked Sendable {
    private let process: ChildProcess
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let lock = NSLock()
    private var stdoutData = Data()
    private var stderrData = Data()
    private var stdoutClosed = false
    private var stderrClosed = false

    init(program: String, arguments: [String], environment: [String: String], processID: String) throws {
        // Every other program this process starts at the same moment must not inherit them: a
        // pipe held open by another child would read as a descriptor the tool leaked.
        for pipe in [input, output, errors] {
            for handle in [pipe.fileHandleForReading, pipe.fileHandleForWriting] {
                _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
            }
        }
        process = try ChildProcess(
            program, arguments, environment: environment, stdin: .descriptor(input.fileHandleForReading.fileDescriptor),
            stdout: .descriptor(output.fileHandleForWriting.fileDescriptor),
            stderr: .descriptor(errors.fileHandleForWriting.fileDescriptor),
            sharedID: processID)
        // The child's ends: with this process's copies closed, the pipes close when the tool's do.
        try? input.fileHandleForReading.close()
        try? output.fileHandleForWriting.close()
        try? errors.fileHandleForWriting.close()
        // A thread per pipe reads to the end: a `readabilityHandler` has been seen to miss the end
        // of a pipe for seconds on a loaded machine.
        for (pipe, toStdout) in [(output, true), (errors, false)] {
            let handle = pipe.fileHandleForReading
            Thread { [weak self] in
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = read(handle.fileDescriptor, &buffer, buffer.count)
                    if count < 0, errno == EINTR { continue }
                    self?.append(count > 0 ? Data(buffer[0..<count]) : Data(), toStdout: toStdout)
                    if count <= 0 { return }
                }
            }.start()
        }
    }

    deinit { process.end() }

    private func append(_ data: Data, toStdout: Bool) {
        lock.withLock {
            if toStdout {
                if data.isEmpty { stdoutClosed = true } else { stdoutData.append(data) }
            } else {
                if data.isEmpty { stderrClosed = true } else { stderrData.append(data) }
            }
        }
    }

    var stderr: String { lock.withLock { String(decoding: stderrData, as: UTF8.self) } }
    var stdout: String { lock.withLock { String(decoding: stdoutData, as: UTF8.self) } }
    var pid: Int32 { process.pid }

    func write(_ text: String) {
        guard !text.isEmpty else { return }
        try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    func closeInput() { try? input.fileHandleForWriting.close() }

    /// Waits (polling; at most `seconds`, so a broken tool fails the test instead of hanging it)
    /// until stderr contains `text`.
    func waitForStderr(_ text: String, seconds: Double = 60) throws {
        for _ in 0..<Int(seconds * 100) {
            if stderr.contains(text) { return }
            if !process.isRunning, lock.withLock({ stderrClosed }) { break }
            usleep(10_000)
        }
        Issue.record("stderr never showed '\(text)'; it has: \(stderr)")
        throw ToolTimeout()
    }

    /// Waits for the end of the tool (at most `seconds`; then it is ended and the test fails), then
    /// for its output to close.
    func wait(seconds: Double = 300) -> ToolResult {
        guard let status = process.waitBlocking(limit: seconds) else {
            Issue.record("the tool was still running after \(Int(seconds)) s")
            process.end()
            return ToolResult(status: -1, stdout: stdout, stderr: stderr)
        }
        for _ in 0..<500 where !lock.withLock({ stdoutClosed && stderrClosed }) { usleep(10_000) }
        if !lock.withLock({ stdoutClosed && stderrClosed }) {
            Issue.record("the tool has ended but its output is still open: it leaked a descriptor to a process it started")
        }
        return lock.withLock {
            ToolResult(
                status: status, stdout: String(decoding: stdoutData, as: UTF8.self), stderr: String(decoding: stderrData, as: UTF8.self))
        }
    }
}

struct ToolTimeout: Error {}

/// The mode bits of a file or directory.
func mode(_ path: String) -> Int {
    var info = stat()
    guard lstat(path, &info) == 0 else { return -1 }
    return Int(info.st_mode & 0o777)
}

/// Whether `pid` has ended and waits to be reaped.
func isZombie(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
        return false
    }
    return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first == "Z"
}
