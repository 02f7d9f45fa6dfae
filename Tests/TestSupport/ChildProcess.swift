import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program a test starts, owned by the test until it ends: the one way tests start processes,
/// so that none outlives its test, whether the test passes, fails an expectation, throws, times
/// out or is cancelled.
///
/// - The child leads a process group of its own (and whatever it starts stays in it unless it
///   leaves); `end()` sends SIGTERM to the group, waits a moment, then SIGKILL.
/// - Its environment carries `MSAL_TEST_CHILD=<a fresh id>`, which its descendants inherit even
///   when they leave the group (a tmux pane, a daemon that calls `setsid`): `end()` also signals
///   every process of this user whose environment has that id. It carries `MSAL_TEST_RUN` as well
///   when the test process has it (scripts/test sets it, and checks at the end that no process
///   with its value is left), even when the test gives the child an environment of its own.
/// - `end()` runs on `deinit`, so a child held in a local ends when the test's scope ends, on
///   every path; `ChildProcess.with` makes that scope explicit.
/// - If the test process itself dies on a signal (a crash in any test, SIGINT, SIGTERM), a handler
///   kills the groups of the children still running before the process goes, and so does `exit`.
///
/// It spawns with `posix_spawn`, an empty signal mask and default dispositions (threads of the
/// test process block signals, which a child would otherwise inherit), no descriptors but the three
/// given, and waits with `waitpid` on the child alone: Foundation's `Process` waits until every
/// holder of its status pipe has closed it, which a daemon started by the child never does.
package final class ChildProcess: @unchecked Sendable {
    /// Where one of the child's standard streams goes.
    package enum Stream {
        case null
        /// A file, created (or truncated) for output, read for input.
        case file(String)
        /// A descriptor of the test process (such as a pipe's end), duplicated into the child.
        case descriptor(Int32)
    }

    /// The variable whose value names this child and its descendants.
    package static let childVariable = "MSAL_TEST_CHILD"
    /// The variable scripts/test sets for the whole run.
    package static let runVariable = "MSAL_TEST_RUN"

    package let pid: pid_t
    /// The value of `MSAL_TEST_CHILD` in the child's environment.
    package let id: String
    package let executable: String
    private let lock = NSLock()
    /// Whether `end()` also ends the other processes carrying `id`: not when the id is shared.
    private let ownsID: Bool
    private var status: Int32?
    private var ended = false

    /// Starts `executable` (a path) with `arguments`; `environment` replaces the test process's
    /// (the two variables above are added either way). `blocked` signals start blocked, as a
    /// thread of the test process would leave them. `sharedID` tags the child with an id that
    /// several children (and what they start) share, which their owner ends with `endAll(carrying:)`;
    /// `end()` then ends the child's group only.
    package init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil, stdin: Stream = .null,
        stdout: Stream = .null, stderr: Stream = .null, blocked: [Int32] = [], sharedID: String? = nil
    ) throws {
        ChildRegistry.installHandlers()
        let id = sharedID ?? UUID().uuidString
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (number, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch stream {
            case .null: posix_spawn_file_actions_addopen(&actions, number, "/dev/null", number == 0 ? O_RDONLY : O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, number, path, number == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, number)
            }
        }
        ChildRegistry.closeFrom(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        for number in blocked { sigaddset(&mask, number) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        var variables = environment ?? ProcessInfo.processInfo.environment
        variables[Self.childVariable] = id
        if let run = ProcessInfo.processInfo.environment[Self.runVariable] { variables[Self.runVariable] = run }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        var code: Int32 = 0
        // Recorded while the registry's lock is held, so that no crash handler can miss the group.
        ChildRegistry.spawning {
            code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            return code == 0 ? pid : nil
        }
        guard code == 0 else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO, "cannot start \(executable)") }
        self.pid = pid
        self.id = id
        self.ownsID = sharedID == nil
        self.executable = executable
    }

    deinit { end() }

    /// Runs `body` with the started child and ends the child when `body` returns or throws
    /// (a failed `#require`, a timeout, cancellation).
    package static func with<T>(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil, stdin: Stream = .null,
        stdout: Stream = .null, stderr: Stream = .null, blocked: [Int32] = [], _ body: (ChildProcess) async throws -> T
    ) async throws -> T {
        let child = try ChildProcess(
            executable, arguments, environment: environment, stdin: stdin, stdout: stdout, stderr: stderr, blocked: blocked)
        defer { child.end() }
        return try await body(child)
    }

    /// Runs a program to its end (at most `limit` seconds, then it is ended) with `input` on its
    /// standard input; its exit status (128 + the signal for a signal) and its output. Output goes
    /// through files, so a descendant holding a descriptor cannot make this wait.
    package static func run(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil, input: Data? = nil,
        limit: Double = 300
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        let files = TemporaryFiles(3)
        defer { files.remove() }
        if let input { try input.write(to: URL(fileURLWithPath: files[0])) }
        return try await with(
            executable, arguments, environment: environment, stdin: input == nil ? .null : .file(files[0]), stdout: .file(files[1]),
            stderr: .file(files[2])
        ) { child in
            let status = await child.exitStatus(within: limit) ?? -1
            return (status, files.read(1), files.read(2))
        }
    }

    /// The same, blocking the calling thread (for synchronous helpers; prefer the `async` form
    /// on the cooperative pool).
    package static func runBlocking(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil, input: Data? = nil,
        limit: Double = 300
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let files = TemporaryFiles(3)
        defer { files.remove() }
        if let input { try input.write(to: URL(fileURLWithPath: files[0])) }
        let child = try ChildProcess(
            executable, arguments, environment: environment, stdin: input == nil ? .null : .file(files[0]), stdout: .file(files[1]),
            stderr: .file(files[2]))
        defer { child.end() }
        let status = child.waitBlocking(limit: limit) ?? -1
        return (status, files.read(1), files.read(2))
    }

    /// The exit status once the child has ended (128 + the signal if a signal ended it), nil while
    /// it runs. It leaves the child unreaped (`end()` reaps it), so that its pid, and the group
    /// that pid names, cannot be another process's meanwhile.
    package var exitStatus: Int32? {
        lock.withLock {
            if status == nil {
                var info = siginfo_t()
                if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info._sifields._sigchld.si_pid == pid {
                    let value = info._sifields._sigchld.si_status
                    status = Int(info.si_code) == Int(CLD_EXITED) ? value : 128 + value
                } else if errno == ECHILD {
                    status = -1 // reaped elsewhere
                }
            }
            return status
        }
    }

    package var isRunning: Bool { exitStatus == nil }

    /// Waits up to `seconds` for the end (polling with `Task.sleep`, so no thread of the
    /// cooperative pool is held); nil if it is still running then. Does not end it.
    package func exitStatus(within seconds: Double) async -> Int32? {
        _ = await waitUntil(seconds: seconds) { exitStatus != nil }
        return exitStatus
    }

    /// Waits up to `limit` seconds for the end, blocking the thread; nil if it is still running.
    package func waitBlocking(limit: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(limit)
        while Date() < deadline {
            if let status = exitStatus { return status }
            usleep(5_000)
        }
        return exitStatus
    }

    /// Sends `signal` to the child alone.
    package func signal(_ signal: Int32) {
        lock.withLock { if status == nil { kill(pid, signal) } }
    }

    /// Ends the child, its process group and every process carrying its id: SIGTERM, up to
    /// `grace` seconds to go, then SIGKILL; reaps the child. Safe to call more than once.
    package func end(grace: Double = 3) {
        let first = lock.withLock { () -> Bool in
            defer { ended = true }
            return !ended
        }
        guard first else { return }
        // The child is unreaped until the end of this (running or a zombie): its pid still names
        // its group, so signalling the group cannot reach anyone else.
        kill(-pid, SIGTERM)
        let others = { [ownsID, id] in ownsID ? Self.processes(carrying: id) : [] }
        var left = others()
        for other in left { kill(other, SIGTERM) }
        // The common case, a child that has ended and left nothing, costs one look at /proc.
        let deadline = Date().addingTimeInterval(grace)
        while !Self.isEnded(pid) || !left.isEmpty, Date() < deadline {
            usleep(20_000)
            left = others()
        }
        kill(-pid, SIGKILL)
        for other in left { kill(other, SIGKILL) }
        _ = waitBlocking(limit: 10)
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
        ChildRegistry.remove(pid)
    }

    /// Ends every process of this user carrying `id` (a `sharedID`): SIGTERM, up to `grace`
    /// seconds, then SIGKILL. For processes that are not children of the test process, so not reaped here.
    package static func endAll(carrying id: String, grace: Double = 3) {
        for other in processes(carrying: id) { kill(other, SIGTERM) }
        let deadline = Date().addingTimeInterval(grace)
        while Date() < deadline, !processes(carrying: id).isEmpty { usleep(20_000) }
        for other in processes(carrying: id) { kill(other, SIGKILL) }
    }

    /// Whether `pid` has ended (a zombie, or gone).
    static func isEnded(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
            return true
        }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state == "Z" || state == "X"
    }

    /// This user's live processes whose environment has `MSAL_TEST_CHILD=id` (zombies have none).
    package static func processes(carrying id: String) -> [pid_t] {
        let needle = Array("\(childVariable)=\(id)\0".utf8)
        let me = getpid()
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> pid_t? in
            var info = stat()
            guard let pid = pid_t(entry), pid != me, stat("/proc/\(entry)", &info) == 0, info.st_uid == getuid(),
                let data = FileManager.default.contents(atPath: "/proc/\(entry)/environ"), data.count >= needle.count
            else { return nil }
            let bytes = [UInt8](data)
            // Each variable starts the file or follows a NUL.
            var start = 0
            while start + needle.count <= bytes.count {
                if bytes[start..<start + needle.count].elementsEqual(needle) { return pid }
                guard let next = bytes[start...].firstIndex(of: 0) else { break }
                start = next + 1
            }
            return nil
        }
    }
}

/// Temporary files for a child's streams, removed together.
package struct TemporaryFiles {
    package let paths: [String]
    package init(_ count: Int) {
        let directory = FileManager.default.temporaryDirectory.path
        paths = (0..<count).map { _ in "\(directory)/msal-child-\(UUID().uuidString)" }
    }
    package subscript(_ index: Int) -> String { paths[index] }
    package func read(_ index: Int) -> String {
        String(decoding: FileManager.default.contents(atPath: paths[index]) ?? Data(), as: UTF8.self)
    }
    package func remove() { for path in paths { unlink(path) } }
}

/// The process groups of the children still running, for the handlers that end them when the test
/// process dies. Plain memory, so a signal handler can read it.
enum ChildRegistry {
    private static let capacity = 1024
    // Written under `lock`, read by the handlers without it (a word-sized store).
    nonisolated(unsafe) private static let groups: UnsafeMutablePointer<pid_t> = {
        let groups = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        groups.initialize(repeating: 0, count: capacity)
        return groups
    }()
    // Written once, before the handlers that read it are installed.
    nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = .allocate(capacity: Int(NSIG))
    private static let lock = NSLock()
    private static let fatalSignals = [SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV, SIGTERM]

    /// Runs `spawn` and records the group it returns, under the lock.
    static func spawning(_ spawn: () -> pid_t?) {
        lock.withLock {
            guard let pid = spawn() else { return }
            if let slot = (0..<capacity).first(where: { groups[$0] == 0 }) { groups[slot] = pid }
        }
    }

    static func remove(_ pid: pid_t) {
        lock.withLock {
            for slot in 0..<capacity where groups[slot] == pid { groups[slot] = 0 }
        }
    }

    /// Kills every recorded group: only async-signal-safe calls.
    static func killAll() {
        for slot in 0..<capacity where groups[slot] > 0 { kill(-groups[slot], SIGKILL) }
    }

    private static let installed: Void = {
        _ = groups
        atexit { ChildRegistry.killAll() }
        for number in fatalSignals {
            var current = sigaction()
            sigaction(number, nil, &current)
            // A signal the test process ignores stays ignored.
            if unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1 { continue } // SIG_IGN
            previous[Int(number)] = current
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                ChildRegistry.killAll()
                // Then what would have happened: the previous handler (the runtime's backtracer
                // for a crash) or the default action, once this handler returns.
                sigaction(number, ChildRegistry.previous + Int(number), nil)
                raise(number)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(number, &action, nil)
        }
    }()

    static func installHandlers() { _ = installed }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which Swift does not import: the
    /// child gets no descriptor of the test process but the three it is given.
    static func closeFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ first: Int32) {
        typealias Function = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = closeFromSymbol else { return }
        _ = unsafeBitCast(symbol, to: Function.self)(actions, first)
    }

    nonisolated(unsafe) private static let closeFromSymbol: UnsafeMutableRawPointer? = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
}

extension POSIXError {
    fileprivate init(_ code: POSIXErrorCode, _ message: String) {
        self.init(code, userInfo: [NSLocalizedDescriptionKey: message])
    }
}
