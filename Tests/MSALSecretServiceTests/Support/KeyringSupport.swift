import Foundation
import MSAL
import MSALSecretService
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension KeyringSession {
    /// The directory of the test binary and the helper tools.
    static var tools: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent() }
    static var helper: String { tools.appendingPathComponent("msal-keyring-helper").path }
}

/// A temporary directory for signal and lock files, removed at the end.
final class TemporaryDirectory: Sendable {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("msal-keyring-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    var signalFile: URL { url.appendingPathComponent("cache/token_cache.signal") }
}

/// A keyring item of its own for each test (a unique schema name), so that tests running at once
/// never share one; removed at the end.
final class TestItem: Sendable {
    let directory: TemporaryDirectory
    let schema = "com.example.msal-tests.\(UUID().uuidString.prefix(8).lowercased())"
    let app = "msal-keyring-tests"
    let persistence: MSALSecretServicePersistence

    init() throws {
        directory = try TemporaryDirectory()
        persistence = try MSALSecretServicePersistence(schemaName: schema, attributes: ["app": app], signalFile: directory.signalFile)
        do {
            try persistence.checkAvailable()
        } catch {
            Issue.record("the private session's Secret Service is not usable: \(error)")
            throw error
        }
    }

    deinit { _ = try? persistence.remove() }

    var helperArguments: [String] { [directory.signalFile.path, schema, app] }
}

/// Runs a program to its end; returns its exit status and output (standard output and error).
///
/// `posix_spawn` with an empty signal mask and default dispositions, in a process group of its
/// own: threads of the test process (Foundation's and the cooperative pool's) block most signals,
/// which a child would inherit, and a `dbus-run-session` could then not stop its bus daemon. The
/// output goes to a file (a daemon left behind would keep a pipe open), the wait is a `waitpid` on
/// a thread of its own (never on the cooperative pool), and a group still running after
/// `limit` seconds is killed, so that a test fails instead of hanging.
func run(_ tool: String, _ arguments: [String], environment: [String: String]? = nil, limit: Double = 120) async throws -> (
    status: Int32, output: String
) {
    let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("msal-keyring-output-\(UUID().uuidString)").path
    defer { unlink(outputPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
    let argv = ([tool] + arguments).map { strdup($0) } + [nil]
    let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, tool, &actions, &attributes, argv, envp)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
    let child = pid
    let status = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
        let done = Locked(false)
        Thread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0, errno == EINTR {}
            done.withLock { $0 = true }
            continuation.resume(returning: (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f))
        }.start()
        Thread {
            var slept = 0.0
            while slept < limit, !done.withLock({ $0 }) {
                usleep(100_000)
                slept += 0.1
            }
            if !done.withLock({ $0 }) { kill(-child, SIGKILL) }
        }.start()
    }
    // Whatever the child left in its group (a bus daemon) goes too.
    kill(-child, SIGKILL)
    let output = FileManager.default.contents(atPath: outputPath) ?? Data()
    return (status, String(decoding: output, as: UTF8.self))
}
