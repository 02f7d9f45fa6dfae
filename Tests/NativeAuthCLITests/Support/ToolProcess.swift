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
///
/// Spawned here rather than with Foundation's `Process`, so that the end of the tool is seen
/// whatever its siblings hold. On Linux `Process` makes its pipes and status socket without
/// close-on-exec and closes, in each child, only the descriptors open when it looks: a child
/// another test spawns at the same moment can inherit this tool's status socket, and `Process`
/// then reports the tool running for as long as that child lives. Here every pipe is made
/// close-on-exec, the tool gets descriptors 0 to 3 and nothing else, and its end is `waitpid`'s.
final class RunningTool: @unchecked Sendable {
    let pid: Int32
    private let input: FileHandle
    private let output: FileHandle
    private let errors: FileHandle
    /// The read end of a pipe whose only write end is the tool's descriptor 3: it reads end of file
    /// once the tool and everything it passed the descriptor on to have ended.
    private let descendants: Int32
    private let lock = NSLock()
    private var stdoutData = Data()
    private var stderrData = Data()
    private var stdoutClosed = false
    private var stderrClosed = false
    private var exitStatus: Int32?

    init(program: String, arguments: [String], environment: [String: String]) throws {
        let stdin = try closeOnExecPipe()
        let stdout = try closeOnExecPipe()
        let stderr = try closeOnExecPipe()
        let watch = try closeOnExecPipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copies; the originals all have it. Every pipe end is 3
        // or above (0, 1 and 2 are open), and the copy to 3 comes last.
        posix_spawn_file_actions_adddup2(&actions, stdin.read, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout.write, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr.write, 2)
        posix_spawn_file_actions_adddup2(&actions, watch.write, 3)
        // And nothing another thread opens meanwhile without close-on-exec.
        if let addCloseFrom = addCloseFromFunction { _ = addCloseFrom(&actions, 4) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // A process group of its own, as `Process` gives.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        for descriptor in [stdin.read, stdout.write, stderr.write, watch.write] { close(descriptor) }
        guard spawned == 0 else {
            for descriptor in [stdin.write, stdout.read, stderr.read, watch.read] { close(descriptor) }
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO)
        }
        self.pid = pid
        input = FileHandle(fileDescriptor: stdin.write, closeOnDealloc: true)
        output = FileHandle(fileDescriptor: stdout.read, closeOnDealloc: true)
        errors = FileHandle(fileDescriptor: stderr.read, closeOnDealloc: true)
        descendants = watch.read
        output.readabilityHandler = { [weak self] handle in self?.append(handle.availableData, toStdout: true) }
        errors.readabilityHandler = { [weak self] handle in self?.append(handle.availableData, toStdout: false) }
    }

    deinit {
        close(descendants)
        if lock.withLock({ exitStatus }) == nil {
            kill(pid, SIGKILL)
            _ = reap(blocking: true)
        }
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
            (toStdout ? output : errors).readabilityHandler = nil
        }
    }

    var stderr: String { lock.withLock { String(decoding: stderrData, as: UTF8.self) } }
    var stdout: String { lock.withLock { String(decoding: stdoutData, as: UTF8.self) } }

    func write(_ text: String) {
        guard !text.isEmpty else { return }
        try? input.write(contentsOf: Data(text.utf8))
    }

    func closeInput() { try? input.close() }

    /// The tool's exit status (128 + the signal when a signal ended it) once it has ended; nil while it runs.
    private func reap(blocking: Bool) -> Int32? {
        if let status = lock.withLock({ exitStatus }) { return status }
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
        guard result == pid else { return nil }
        let signal = status & 0x7f
        let code = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        lock.withLock { exitStatus = code }
        return code
    }

    /// Waits (polling; at most `seconds`, so a broken tool fails the test instead of hanging it)
    /// until stderr contains `text`.
    func waitForStderr(_ text: String, seconds: Double = 60) throws {
        for _ in 0..<Int(seconds * 100) {
            if stderr.contains(text) { return }
            if reap(blocking: false) != nil, lock.withLock({ stderrClosed }) { break }
            usleep(10_000)
        }
        Issue.record("stderr never showed '\(text)'; it has: \(stderr)")
        throw ToolTimeout()
    }

    /// Waits for the end of the tool, then checks that it left nothing of its own running: a
    /// process it started (the background emulator) must not have inherited its descriptors, or a
    /// script's `$(native-auth …)` would wait for as long as that process runs.
    func wait() -> ToolResult {
        guard let status = reap(blocking: true) else {
            Issue.record("waitpid failed for the tool: \(String(cString: strerror(errno)))")
            return ToolResult(status: -1, stdout: stdout, stderr: stderr)
        }
        var watch = pollfd(fd: descendants, events: Int16(POLLIN), revents: 0)
        var ready: Int32
        repeat { ready = poll(&watch, 1, 5_000) } while ready < 0 && errno == EINTR
        if ready == 0 {
            Issue.record("the tool has ended but a process it started still holds a descriptor the tool was given")
            return ToolResult(status: -1, stdout: stdout, stderr: stderr)
        }
        for _ in 0..<500 where !lock.withLock({ stdoutClosed && stderrClosed }) { usleep(10_000) }
        return lock.withLock {
            ToolResult(
                status: status, stdout: String(decoding: stdoutData, as: UTF8.self), stderr: String(decoding: stderrData, as: UTF8.self))
        }
    }
}

/// A pipe whose ends are both close-on-exec from the start (`pipe2`), so that no process another
/// thread spawns meanwhile inherits them.
private func closeOnExecPipe() throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    guard let pipe2 = pipe2Function, pipe2(&ends, O_CLOEXEC) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    return (ends[0], ends[1])
}

/// `pipe2(2)` and glibc's `posix_spawn_file_actions_addclosefrom_np`, GNU extensions that Swift's
/// Glibc module does not import, looked up once.
private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
private let pipe2Function: Pipe2? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }
private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
private let addCloseFromFunction: AddCloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
    .map { unsafeBitCast($0, to: AddCloseFrom.self) }

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
