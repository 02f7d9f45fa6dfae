import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `native-auth-emulator` program itself: options, exit codes, and stopping on a signal even
/// when its parent started it with those signals blocked.
@Suite struct EmulatorCommandTests {
    static var binary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("native-auth-emulator").path
    }

    /// A running child: its output goes to files, so nothing blocks on a full pipe.
    struct Child {
        let pid: pid_t
        let stdoutPath: String
        let stderrPath: String

        var output: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
        var errors: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

        /// Waits up to `seconds` for the exit status; nil if it is still running (then killed).
        /// Polls with `Task.sleep`, so the wait holds none of the cooperative pool's threads.
        func exitStatus(within seconds: Double) async -> Int32? {
            let deadline = Date().addingTimeInterval(seconds)
            var status: Int32 = 0
            while Date() < deadline {
                if waitpid(pid, &status, WNOHANG) == pid { return (status >> 8) & 0xff }
                try? await Task.sleep(nanoseconds: 20_000_000)
            }
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            return nil
        }

        func cleanUp() {
            unlink(stdoutPath)
            unlink(stderrPath)
        }
    }

    /// Starts the program with `blocked` signals in its initial mask, as a thread-pool parent would.
    static func start(_ arguments: [String], blocked: [Int32] = []) throws -> Child {
        let directory = FileManager.default.temporaryDirectory.path
        let child = Child(
            pid: 0, stdoutPath: "\(directory)/emulator-out-\(UUID().uuidString)",
            stderrPath: "\(directory)/emulator-err-\(UUID().uuidString)")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, child.stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, child.stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        for number in blocked { sigaddset(&mask, number) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, binary, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        return Child(pid: pid, stdoutPath: child.stdoutPath, stderrPath: child.stderrPath)
    }

    /// Waits until the banner shows the server is listening.
    static func waitForBanner(_ child: Child) async -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if child.output.contains("authority: ") { return true }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return false
    }

    @Test func helpAndBadOptions() async throws {
        let help = try Self.start(["--help"])
        defer { help.cleanUp() }
        #expect(await help.exitStatus(within: 60) == 0)
        #expect(help.output.contains("--port"))
        #expect(help.output.contains("--strict-refresh-rotation"))

        let bad = try Self.start(["--no-such-option"])
        defer { bad.cleanUp() }
        #expect(await bad.exitStatus(within: 60) == 2)
        #expect(bad.errors.contains("Try --help"))
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
        defer { child.cleanUp() }
        defer { kill(child.pid, SIGTERM) }
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
        let child = try Self.start(["--port", "0", "--quiet"], blocked: startedBlocked ? [SIGINT, SIGTERM] : [])
        defer { child.cleanUp() }
        #expect(await Self.waitForBanner(child), "no banner: \(child.errors)")
        let authority = try #require(
            child.output.split(separator: "\n").first { $0.hasPrefix("authority: ") }?.dropFirst("authority: ".count))
        let discovery = try #require(URL(string: authority + "/v2.0/.well-known/openid-configuration"))
        for _ in 0..<3 {
            let (_, response) = try await URLSession.shared.data(from: discovery)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
        }
        kill(child.pid, signal)
        #expect(await child.exitStatus(within: 60) == 0, "still running 60 s after signal \(signal)")
        #expect(child.errors.contains("stopped"))
    }
}
