import Foundation
import NativeAuthEmulator
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `native-auth-emulator` program itself: options, exit codes, and stopping on a signal even
/// when its parent started it with those signals blocked. Both forms: the program SwiftPM builds,
/// and `native-auth` started under that name through a link, as the Debian package installs it
/// (docs/cli.md#one-program-three-names).
@Suite struct EmulatorCommandTests {
    static var binary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("native-auth-emulator").path
    }

    /// `one-program/native-auth-emulator`, a link to `native-auth`, beside the test bundle (made once, kept).
    static let linkedBinary: String = {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("one-program")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let link = directory.appendingPathComponent("native-auth-emulator").path
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) != "../native-auth" {
            try? FileManager.default.removeItem(atPath: link)
            try? FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../native-auth")
        }
        return link
    }()

    static let programs = [binary, linkedBinary]

    /// A running child: its output goes to files, so nothing blocks on a full pipe. It ends (with
    /// its files) when the test's last reference goes, on every path out of the test.
    final class Child: Sendable {
        let process: ChildProcess
        let files = TemporaryFiles(2)

        init(_ arguments: [String], blocked: [Int32], program: String = EmulatorCommandTests.binary) throws {
            process = try ChildProcess(program, arguments, stdout: .file(files[0]), stderr: .file(files[1]), blocked: blocked)
        }

        deinit {
            process.end()
            files.remove()
        }

        var output: String { files.read(0) }
        var errors: String { files.read(1) }

        func signal(_ number: Int32) { process.signal(number) }

        /// Waits up to `seconds` for the exit status; nil if it is still running (then ended).
        /// Polls with `Task.sleep`, so the wait holds none of the cooperative pool's threads.
        func exitStatus(within seconds: Double) async -> Int32? {
            if let status = await process.exitStatus(within: seconds) { return status }
            process.end()
            return nil
        }
    }

    /// Starts the program with `blocked` signals in its initial mask, as a thread-pool parent would.
    static func start(_ arguments: [String], blocked: [Int32] = [], program: String = binary) throws -> Child {
        try Child(arguments, blocked: blocked, program: program)
    }

    /// Runs `body` with the program started and ends the program when `body` returns or throws:
    /// for a program that must not stay up a moment longer than its test (one on every interface).
    static func with<T>(_ arguments: [String], _ body: (Child) async throws -> T) async throws -> T {
        let child = try Child(arguments, blocked: [])
        defer { child.process.end() }
        return try await body(child)
    }

    /// Waits until the banner shows the server is listening.
    static func waitForBanner(_ child: Child) async -> Bool {
        await waitUntil(seconds: 60) { child.output.contains("authority: ") }
    }

    @Test(arguments: programs)
    func helpAndBadOptions(program: String) async throws {
        let help = try Self.start(["--help"], program: program)
        #expect(await help.exitStatus(within: 60) == 0)
        #expect(help.output.contains("--port"))
        #expect(help.output.contains("--strict-refresh-rotation"))
        #expect(help.output == EmulatorCommandLine.usage + "\n", "the same help under either form")

        let bad = try Self.start(["--no-such-option"], program: program)
        #expect(await bad.exitStatus(within: 60) == 2)
        #expect(bad.errors.contains("Try --help"))
        #expect(bad.errors.hasPrefix("native-auth-emulator: "))
    }

    /// A form POST to the running program; the reply's status and JSON.
    static func post(_ url: String, _ fields: [String: String]) async throws -> (Int, [String: Any]) {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        request.httpBody = Data(
            fields.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&").utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
    }

    /// By default a redeemed refresh token stays valid, as Entra's do; `--strict-refresh-rotation`
    /// retires it.
    @Test(arguments: [false, true])
    func strictRefreshRotationFlag(strict: Bool) async throws {
        let child = try Self.start(["--port", "0", "--quiet"] + (strict ? ["--strict-refresh-rotation"] : []))
        #expect(await Self.waitForBanner(child), "no banner: \(child.errors)")
        let authority = String(
            try #require(child.output.split(separator: "\n").first { $0.hasPrefix("authority: ") }?.dropFirst("authority: ".count)))
        let client = "11111111-1111-4111-8111-111111111111"
        let base = ["client_id": client, "challenge_type": "oob password redirect"]
        let (_, initiated) = try await Self.post(authority + "/oauth2/v2.0/initiate", base.merging(["username": "ada@example.com"]) { $1 })
        let (_, challenged) = try await Self.post(
            authority + "/oauth2/v2.0/challenge",
            base.merging(["continuation_token": try #require(initiated["continuation_token"] as? String)]) { $1 })
        let (status, tokens) = try await Self.post(
            authority + "/oauth2/v2.0/token",
            base.merging([
                "continuation_token": try #require(challenged["continuation_token"] as? String), "grant_type": "password",
                "username": "ada@example.com", "password": "Analytical-Engine-1843", "scope": "openid offline_access",
            ]) { $1 })
        try #require(status == 200, "sign-in failed: \(tokens)")
        let refresh = ["client_id": client, "grant_type": "refresh_token", "scope": "openid offline_access"]
        let rt = try #require(tokens["refresh_token"] as? String)
        let (first, _) = try await Self.post(authority + "/oauth2/v2.0/token", refresh.merging(["refresh_token": rt]) { $1 })
        let (second, reused) = try await Self.post(authority + "/oauth2/v2.0/token", refresh.merging(["refresh_token": rt]) { $1 })
        #expect(first == 200)
        if strict {
            #expect(second == 400 && reused["error"] as? String == "invalid_grant")
        } else {
            #expect(second == 200)
        }
    }

    /// After serving requests, as well as idle; with the signals blocked by the parent or not.
    /// (Once it stayed up after any request: a server thread took the signal and dropped it.)
    @Test(arguments: [(SIGTERM, false), (SIGINT, false), (SIGTERM, true), (SIGINT, true)])
    func stopsOnASignalAfterServing(signal: Int32, startedBlocked: Bool) async throws {
        try await Self.stopsOnASignalAfterServing(program: Self.binary, signal: signal, startedBlocked: startedBlocked)
    }

    /// The same through the link to `native-auth`, whose other code paths start threads of their
    /// own: the emulator is chosen before any of them (Sources/native-auth/main.swift).
    @Test(arguments: [(SIGTERM, false), (SIGINT, false), (SIGTERM, true), (SIGINT, true)])
    func theLinkedProgramStopsOnASignalAfterServing(signal: Int32, startedBlocked: Bool) async throws {
        try await Self.stopsOnASignalAfterServing(program: Self.linkedBinary, signal: signal, startedBlocked: startedBlocked)
    }

    static func stopsOnASignalAfterServing(program: String, signal: Int32, startedBlocked: Bool) async throws {
        let child = try Self.start(["--port", "0", "--quiet"], blocked: startedBlocked ? [SIGINT, SIGTERM] : [], program: program)
        #expect(await Self.waitForBanner(child), "no banner: \(child.errors)")
        let authority = try #require(
            child.output.split(separator: "\n").first { $0.hasPrefix("authority: ") }?.dropFirst("authority: ".count))
        let discovery = try #require(URL(string: authority + "/v2.0/.well-known/openid-configuration"))
        for _ in 0..<3 {
            let (_, response) = try await URLSession.shared.data(from: discovery)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
        }
        child.signal(signal)
        #expect(await child.exitStatus(within: 60) == 0, "still running 60 s after signal \(signal)")
        #expect(child.errors.contains("stopped"))
    }
}
