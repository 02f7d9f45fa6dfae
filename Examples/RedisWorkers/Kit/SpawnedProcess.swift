import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A process the example starts (redis-server, a worker) and always ends.
///
/// It is started with `posix_spawn` rather than Foundation's `Process`, in a process group of its
/// own (so a Ctrl-C in the terminal reaches this program alone, which then ends its children), with
/// an empty signal mask and default signal dispositions whatever thread starts it, and only the
/// descriptors given. `end()` asks it to stop (SIGTERM), waits a moment, then kills it (SIGKILL).
final class SpawnedProcess: Sendable {
    /// What the output shows for it: `worker 1`, `redis-server`.
    let name: String
    let pid: pid_t
    /// Our end of its standard input and output, for a worker; -1 for redis-server.
    private let input: Int32
    private let output: Int32
    private let state = Mutex<(buffer: [UInt8], status: Int32?, ended: Bool)>(([], nil, false))

    /// Starts `executable` with `arguments`; `environment` is added to this program's. With
    /// `talks`, its standard input and output are pipes to this program; otherwise /dev/null.
    /// Its standard error is this program's, unless `quiet`.
    init(name: String, executable: String, arguments: [String], environment: [String: String] = [:], talks: Bool, quiet: Bool = false)
        throws(RedisWorkersError)
    {
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        // Close-on-exec: the other worker must not inherit this one's pipes, or it would never see
        // the end of its input.
        if talks {
            guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else {
                throw RedisWorkersError("cannot make pipes for \(name): \(String(cString: strerror(errno)))")
            }
            for descriptor in toChild + fromChild { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if talks {
            posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
            posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        // This program ignores SIGINT, SIGTERM and SIGPIPE (RedisWorkersSignals), and an ignored
        // signal stays ignored across exec: the child gets the defaults back.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGPIPE, SIGHUP] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        if talks {
            close(toChild[0])
            close(fromChild[1])
        }
        guard code == 0 else {
            if talks {
                close(toChild[1])
                close(fromChild[0])
            }
            throw RedisWorkersError("cannot start \(name) (\(executable)): \(String(cString: strerror(code)))")
        }
        self.name = name
        self.pid = pid
        input = toChild[1]
        output = fromChild[0]
    }

    deinit { end() }

    /// Sends one line to its standard input.
    func send(_ line: String) throws(RedisWorkersError) {
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(input, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw RedisWorkersError("\(name) stopped: \(statusDescription())") }
            written += count
        }
    }

    /// The next line of its standard output, waiting at most `timeout` seconds.
    func receive(timeout: TimeInterval) throws(RedisWorkersError) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let line = state.withLock { state -> String? in
                guard let newline = state.buffer.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
                defer { state.buffer.removeSubrange(...newline) }
                return String(decoding: state.buffer[..<newline], as: UTF8.self)
            }
            if let line { return line }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                let seconds = timeout == timeout.rounded() ? String(Int(timeout)) : String(timeout)
                throw RedisWorkersError("\(name) did not answer within \(seconds) s")
            }
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(left, 1) * 1000))
            guard ready > 0 else { continue } // nothing yet, or interrupted
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(output, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw RedisWorkersError("\(name) stopped: \(statusDescription())") }
            state.withLock { $0.buffer += chunk[0..<count] }
        }
    }

    /// Whether it is still running (not ended, not exited).
    var isRunning: Bool { reap(blocking: false) == nil }

    /// Ends it and what it started in its group: its input closed (a worker leaves at the end of
    /// its input), SIGTERM, up to `grace` seconds, then SIGKILL; reaps it. Safe to call again.
    func end(grace: TimeInterval = 3) {
        let first = state.withLock { state -> Bool in
            defer { state.ended = true }
            return !state.ended
        }
        guard first else { return }
        if input >= 0 { close(input) }
        // Until it is reaped, its pid names its group and no other process's.
        kill(-pid, SIGTERM)
        let deadline = Date().addingTimeInterval(grace)
        while reap(blocking: false) == nil, Date() < deadline { usleep(10_000) }
        kill(-pid, SIGKILL)
        _ = reap(blocking: true)
        if output >= 0 { close(output) }
    }

    /// Its exit status (128 + the signal if a signal ended it), once it has ended.
    private func reap(blocking: Bool) -> Int32? {
        if let status = state.withLock({ $0.status }) { return status }
        var raw: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &raw, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
        guard result == pid else { return nil }
        // WIFEXITED and friends are macros Swift does not import.
        let status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        state.withLock { $0.status = status }
        return status
    }

    private func statusDescription() -> String {
        let deadline = Date().addingTimeInterval(1)
        while reap(blocking: false) == nil, Date() < deadline { usleep(10_000) }
        guard let status = reap(blocking: false) else { return "its output closed" }
        return status > 128 ? "killed by signal \(status - 128)" : "exit status \(status)"
    }
}
