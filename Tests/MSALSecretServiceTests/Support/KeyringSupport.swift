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
/// A `ChildProcess`: an empty signal mask and default dispositions (threads of the test process,
/// Foundation's and the cooperative pool's, block most signals, which a child would inherit, and a
/// `dbus-run-session` could then not stop its bus daemon), a process group of its own, output to a
/// file (a daemon left behind would keep a pipe open), a wait that holds no thread of the
/// cooperative pool; a child still running after `limit` seconds is ended, so that a test fails
/// instead of hanging, and whatever it left (a bus daemon) ends with it.
func run(_ tool: String, _ arguments: [String], environment: [String: String]? = nil, limit: Double = 120) async throws -> (
    status: Int32, output: String
) {
    let files = TemporaryFiles(1)
    defer { files.remove() }
    guard FileManager.default.createFile(atPath: files[0], contents: nil, attributes: [.posixPermissions: 0o600]),
        let output = FileHandle(forWritingAtPath: files[0])
    else { throw CocoaError(.fileWriteUnknown) }
    let status = try await ChildProcess.with(
        tool, arguments, environment: environment, stdout: .descriptor(output.fileDescriptor), stderr: .descriptor(output.fileDescriptor)
    ) { child in
        try? output.close()
        return await child.exitStatus(within: limit) ?? 128 + SIGKILL
    }
    return (status, files.read(0))
}
