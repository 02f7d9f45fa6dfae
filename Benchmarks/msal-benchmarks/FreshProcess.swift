import Foundation
import NativeAuthEmulator

#if canImport(Glibc)
    import Glibc
#endif

// MARK: Fresh process: one cached token, start to exit

/// What the fresh-process figure starts, besides this program's own fixture.
struct FreshTokenOptions {
    /// Where `msal-fresh-token` and `bare-foundation` built with `--static-swift-stdlib` are
    /// (scripts/bench: `.build/static/release`); nil: those rows are left out.
    var staticBuild: String?
    /// A command to time in place of the SDK probe for the target, such as `native-auth token
    /// --scope …` (`--token-command PATH ARGS…`); it must print a token and exit 0.
    var tokenCommand: [String]?
    var runs = 30
}

/// A command ready to start many times: argv and environment made once, outside the timing.
private final class TimedCommand {
    let label: String
    let path: String
    private let argv: [UnsafeMutablePointer<CChar>?]
    private let envp: [UnsafeMutablePointer<CChar>?]
    var wall: [Double] = []
    var cpu: [Double] = []

    init(_ label: String, _ command: [String]) {
        self.label = label
        path = command[0]
        argv = command.map { strdup($0) } + [nil]
        envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    }

    deinit {
        for pointer in argv + envp { free(pointer) }
    }

    /// Starts the command with standard output to `output` (a path) and waits for it: wall time
    /// from `posix_spawn` to the reaped exit, and the child's CPU time (user + system), in ms.
    func run(output: String = "/dev/null") throws -> (status: Int32, wall: Double, cpu: Double) {
        let start = now()
        let pid = try spawn(path, argv: argv, envp: envp) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        let wall = Double(now() - start) / 1_000_000
        func ms(_ time: timeval) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000 }
        return (status, wall, ms(usage.ru_utime) + ms(usage.ru_stime))
    }

    /// One run whose output is kept: the token it printed, or an error naming the command.
    func firstOutput() throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bench-fresh-\(UUID().uuidString)").path
        defer { unlink(file) }
        let result = try run(output: file)
        let text = ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, !text.isEmpty else {
            throw EmulatorError("\(label): exit status \(result.status), output '\(text.prefix(80))'")
        }
        return text
    }

    func median(_ samples: [Double]) -> Double { percentile(samples, 0.5) }
    func p90(_ samples: [Double]) -> Double { percentile(samples, 0.9) }

    private func percentile(_ samples: [Double], _ q: Double) -> Double {
        let sorted = samples.sorted()
        return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]
    }

    /// "median / p90 ms, CPU c ms".
    var summary: String { "\(format(median(wall), 1)) / \(format(p90(wall), 1)) ms, CPU \(format(median(cpu), 1)) ms" }
}

/// A fresh process that prints one cached access token from a 10-token cache and exits: the SDK
/// probe (`msal-fresh-token`, fast-start and ordinary builds), a bare Foundation program as the
/// floor, and MSAL for Python on the same document, started in turn `runs` times each.
func freshToken(selfPath: String, python: String?, options: FreshTokenOptions) throws -> [Row] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-fresh-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("token_cache.json")
    let scopeSet = 5
    try CacheFixture.write(to: file, accounts: 1, scopeSets: 10)
    let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? -1
    let expected = CacheFixture.secret(account: 0, scopeSet: scopeSet)
    let here = URL(fileURLWithPath: selfPath).deletingLastPathComponent()
    let probeArguments = [file.path, CacheFixture.clientId, CacheFixture.authority, CacheFixture.scope(scopeSet)]

    var commands: [(command: TimedCommand, expectsFixtureToken: Bool)] = []
    let tokenLabel = options.tokenCommand.map(shortLabel)
    if let tokenCommand = options.tokenCommand, let tokenLabel {
        commands.append((TimedCommand(tokenLabel, tokenCommand), false))
    }
    if let staticBuild = options.staticBuild {
        commands.append((TimedCommand("msal-fresh-token, fast start", ["\(staticBuild)/msal-fresh-token"] + probeArguments), true))
    }
    commands.append(
        (TimedCommand("msal-fresh-token, ordinary build", [here.appendingPathComponent("msal-fresh-token").path] + probeArguments), true))
    if let staticBuild = options.staticBuild {
        commands.append((TimedCommand("bare Foundation, static", ["\(staticBuild)/bare-foundation"]), false))
    }
    commands.append((TimedCommand("bare Foundation, dynamic", [here.appendingPathComponent("bare-foundation").path]), false))
    if let python {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "peer_msal.py"
        ).path
        let arguments = [python, script, "token", file.path, CacheFixture.clientId, CacheFixture.authority, CacheFixture.scope(scopeSet)]
        commands.append((TimedCommand("MSAL for Python", arguments), true))
    }

    // Each must work before it is timed; three starts each warm the page cache.
    for (command, expectsFixtureToken) in commands {
        let output = try command.firstOutput()
        if expectsFixtureToken, output != expected {
            throw EmulatorError("\(command.label) printed '\(output.prefix(40))…', not the cached token")
        }
        for _ in 0..<3 { _ = try command.run() }
    }
    // Interleaved, so that every command sees the same load on the shared cores.
    for _ in 0..<options.runs {
        for (command, _) in commands {
            let result = try command.run()
            guard result.status == 0 else { throw EmulatorError("\(command.label): exit status \(result.status)") }
            command.wall.append(result.wall)
            command.cpu.append(result.cpu)
        }
    }

    func command(_ label: String) -> TimedCommand? { commands.first { $0.command.label == label }?.command }
    let peer = command("MSAL for Python")
    let peerText = peer.map { "  (MSAL for Python \($0.summary))" } ?? ""
    var rows: [Row] = []
    let target = "median ≤ 15 ms"
    if let tokenLabel, let timed = command(tokenLabel) {
        rows.append(
            Row(
                figure: "fresh process, cached token: \(tokenLabel) (median / p90)",
                measured: timed.summary + peerText, target: target, met: timed.median(timed.wall) <= 15))
    }
    if let fast = command("msal-fresh-token, fast start"), let staticBuild = options.staticBuild {
        let objects = sharedObjects(of: "\(staticBuild)/msal-fresh-token")
        rows.append(
            Row(
                figure: "fresh process, cached token, 10-token cache: SDK, fast-start build (median / p90)",
                measured: fast.summary + "; \(objects)" + peerText, target: options.tokenCommand == nil ? target : "(reported)",
                met: options.tokenCommand == nil ? fast.median(fast.wall) <= 15 : nil))
    }
    for label in ["msal-fresh-token, ordinary build", "bare Foundation, static", "bare Foundation, dynamic", "MSAL for Python"] {
        guard let timed = command(label) else { continue }
        let name =
            switch label {
            case "msal-fresh-token, ordinary build": "SDK, ordinary build (shared Swift libraries)"
            case "MSAL for Python": "MSAL for Python, acquire_token_silent"
            default: "\(label) (print, exit)"
            }
        rows.append(Row(figure: "fresh process: \(name) (median / p90)", measured: timed.summary, target: "(reported)", met: nil))
    }
    rows.append(
        Row(figure: "fresh process: saved state, 1 account, 10 access tokens", measured: "\(size) bytes", target: "(reported)", met: nil))
    return rows
}

/// A command as the table shows it: paths by their last component, at most 60 characters.
private func shortLabel(_ command: [String]) -> String {
    let text = command.map { $0.hasPrefix("/") ? URL(fileURLWithPath: $0).lastPathComponent : $0 }.joined(separator: " ")
    return text.count <= 60 ? text : text.prefix(59) + "…"
}

/// How many shared objects the dynamic loader maps for `path` at start, and whether libcurl is one.
private func sharedObjects(of path: String) -> String {
    guard let listing = try? run(path, [], environment: ["LD_TRACE_LOADED_OBJECTS": "1"]), listing.status == 0 else { return "objects ?" }
    let lines = listing.output.split(separator: "\n").filter { !$0.contains("linux-vdso") }
    let curl = lines.contains { $0.contains("libcurl") }
    return "\(lines.count) shared objects at start" + (curl ? ", libcurl among them" : ", libcurl not among them")
}
