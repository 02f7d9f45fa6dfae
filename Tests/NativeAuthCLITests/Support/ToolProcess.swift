import Foundation
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
        try RunningTool(program: program, arguments: arguments, environment: environment)
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

/// A running tool whose stderr the test can wait on, to answer prompts one at a time.
final class RunningTool: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let lock = NSLock()
    private var stdoutData = Data()
    private var stderrData = Data()
    private var stdoutClosed = false
    private var stderrClosed = false

    init(program: String, arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in self?.append(handle.availableData, toStdout: true) }
        errors.fileHandleForReading.readabilityHandler = { [weak self] handle in self?.append(handle.availableData, toStdout: false) }
        try process.run()
    }

    private func append(_ data: Data, toStdout: Bool) {
        lock.withLock {
            if toStdout {
                if data.isEmpty { stdoutClosed = true } else { stdoutData.append(data) }
            } else {
                if data.isEmpty { stderrClosed = true } else { stderrData.append(data) }
            }
        }
        if data.isEmpty {
            (toStdout ? output : errors).fileHandleForReading.readabilityHandler = nil
        }
    }

    var stderr: String { lock.withLock { String(decoding: stderrData, as: UTF8.self) } }
    var stdout: String { lock.withLock { String(decoding: stdoutData, as: UTF8.self) } }
    var pid: Int32 { process.processIdentifier }

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

    /// Waits for the end of the tool. Foundation's `Process` sees the end only once every holder of
    /// its status pipe has closed it: a descriptor the tool leaked to a process it started (the
    /// background emulator) would make `waitUntilExit` hang, so the wait watches for that instead.
    func wait() -> ToolResult {
        var endedFor = 0
        while process.isRunning {
            endedFor = isZombie(process.processIdentifier) ? endedFor + 1 : 0
            if endedFor > 500 {
                Issue.record("the tool has ended but its status pipe is still open: it leaked a descriptor to a process it started")
                return ToolResult(status: -1, stdout: stdout, stderr: stderr)
            }
            usleep(10_000)
        }
        for _ in 0..<500 where !lock.withLock({ stdoutClosed && stderrClosed }) { usleep(10_000) }
        return lock.withLock {
            ToolResult(
                status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
                stderr: String(decoding: stderrData, as: UTF8.self))
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
