import Foundation
import Testing

@testable import MSAL

#if canImport(Glibc)
    import Glibc
#endif

/// The browser launcher with fake browsers: small scripts in a temporary folder that record their
/// arguments. Every environment here has PATH set to that folder only, so no real browser opens.
@Suite struct BrowserLauncherTests {
    /// A URL that a shell would mangle: `&` and `;` split commands, `$( )` substitutes, quotes nest.
    private static let trickyURL = URL(string: "https://login.example/t/oauth2/v2.0/authorize?a=1&b=2;touch%20pwned&c=$(id)&d='x'&e=%26")!

    /// A temporary folder with executable scripts; removed by `remove()`.
    private struct FakeBrowsers {
        let directory: URL
        var record: String { directory.appendingPathComponent("record").path }
        var argumentsFile: String { directory.appendingPathComponent("argv").path }

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("msal-browser-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // Writes its arguments NUL-separated, atomically, to $RECORD_FILE.
            try script("record", #"printf '%s\0' "$@" > "$RECORD_FILE.tmp" && /bin/mv "$RECORD_FILE.tmp" "$RECORD_FILE""#)
            try script("xdg-open", #"printf '%s\0' xdg-open "$@" > "$RECORD_FILE.tmp" && /bin/mv "$RECORD_FILE.tmp" "$RECORD_FILE""#)
            try script("fail", "exit 3")
            try script("crash", "kill -9 $$")
            try script("linger", "/bin/sleep 0.5")
        }

        func script(_ name: String, _ body: String) throws {
            let path = directory.appendingPathComponent(name).path
            try Data("#!/bin/sh\n\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o755)
        }

        func environment(_ extra: [String: String] = [:]) -> [String: String] {
            ["PATH": directory.path, "RECORD_FILE": argumentsFile].merging(extra) { $1 }
        }

        /// The arguments `record` received (without $0), nil when it never ran.
        func recordedArguments() -> [String]? {
            guard let data = FileManager.default.contents(atPath: argumentsFile) else { return nil }
            return String(decoding: data, as: UTF8.self).split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(
                String.init)
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    @Test func commandOrderFollowsTheSpec() {
        let url = URL(string: "https://x.example/a?b=1&c=2")!
        let launcher = BrowserLauncher(
            environment: ["BROWSER": "first:second --new-tab %s --flag::third --url=%s", "DISPLAY": ":0"], isWSL: true)
        #expect(
            launcher.commands(for: url) == [
                ["first", "https://x.example/a?b=1&c=2"],
                ["second", "--new-tab", "https://x.example/a?b=1&c=2", "--flag"],
                ["third", "--url=https://x.example/a?b=1&c=2"],
                ["xdg-open", "https://x.example/a?b=1&c=2"],
                ["wslview", "https://x.example/a?b=1&c=2"],
                ["powershell.exe", "-NoProfile", "-Command", "Start-Process 'https://x.example/a?b=1&c=2'"],
            ])
    }

    @Test func displayOrWaylandEnablesXdgOpen() {
        let url = URL(string: "https://x.example/")!
        #expect(BrowserLauncher(environment: [:], isWSL: false).commands(for: url) == [])
        #expect(BrowserLauncher(environment: ["DISPLAY": ""], isWSL: false).commands(for: url) == [])
        #expect(
            BrowserLauncher(environment: ["WAYLAND_DISPLAY": "wayland-0"], isWSL: false).commands(for: url) == [
                ["xdg-open", url.absoluteString]
            ])
    }

    @Test func powershellQuotesAreDoubled() {
        let url = URL(string: "https://x.example/?q='a'")!
        let commands = BrowserLauncher(environment: [:], isWSL: true).commands(for: url)
        #expect(commands.last?.last == "Start-Process 'https://x.example/?q=''a'''")
    }

    @Test func nothingConfiguredLaunchesNothing() async {
        let report = await BrowserLauncher(environment: ["PATH": "/nonexistent"], isWSL: false).open(Self.trickyURL)
        #expect(!report.launched)
        #expect(report.attempts.isEmpty)
        #expect(report.summary.contains("no launcher configured"))
    }

    @Test func urlArrivesIntactAsOneArgument() async throws {
        let fakes = try FakeBrowsers()
        defer { fakes.remove() }
        let report = await BrowserLauncher(environment: fakes.environment(["BROWSER": fakes.record]), isWSL: false).open(Self.trickyURL)
        #expect(report.launched)
        #expect(fakes.recordedArguments() == [Self.trickyURL.absoluteString])
        #expect(!FileManager.default.fileExists(atPath: "pwned"))
    }

    @Test func percentSIsReplacedAndCommandsAreFoundOnTheGivenPath() async throws {
        let fakes = try FakeBrowsers()
        defer { fakes.remove() }
        let launcher = BrowserLauncher(environment: fakes.environment(["BROWSER": "record --new-window %s --x"]), isWSL: false)
        #expect(await launcher.open(Self.trickyURL).launched)
        #expect(fakes.recordedArguments() == ["--new-window", Self.trickyURL.absoluteString, "--x"])
    }

    @Test func failingCommandsAreSkipped() async throws {
        let fakes = try FakeBrowsers()
        defer { fakes.remove() }
        let launcher = BrowserLauncher(
            environment: fakes.environment(["BROWSER": "missing-browser:fail:crash:record"]), isWSL: false)
        let report = await launcher.open(Self.trickyURL)
        #expect(report.launched)
        #expect(report.attempts.map(\.failure) == ["not found in PATH", "exit status 3", "killed by signal 9", nil])
        #expect(fakes.recordedArguments() == [Self.trickyURL.absoluteString])
    }

    @Test func xdgOpenIsUsedWithADisplay() async throws {
        let fakes = try FakeBrowsers()
        defer { fakes.remove() }
        let launcher = BrowserLauncher(environment: fakes.environment(["BROWSER": "fail", "DISPLAY": ":99"]), isWSL: false)
        let report = await launcher.open(Self.trickyURL)
        #expect(report.launched)
        #expect(report.attempts.map { $0.arguments.first } == ["fail", "xdg-open"])
        #expect(fakes.recordedArguments() == ["xdg-open", Self.trickyURL.absoluteString])
    }

    @Test func allFailingIsReported() async throws {
        let fakes = try FakeBrowsers()
        defer { fakes.remove() }
        let none = await BrowserLauncher(environment: ["PATH": fakes.directory.path, "BROWSER": "fail:fail"], isWSL: false).open(
            Self.trickyURL)
        #expect(!none.launched)
        #expect(none.summary == "fail: exit status 3; fail: exit status 3")
    }

    @Test func theAppsLauncherComesFirst() async throws {
        let fakes = try FakeBrowsers()
        defer { fakes.remove() }
        let seen = Locked<[URL]>([])
        let accepting = BrowserLauncher(
            launch: { url in
                seen.withLock { $0.append(url) }
                return true
            }, environment: fakes.environment(["BROWSER": "record"]), isWSL: false)
        #expect(await accepting.open(Self.trickyURL).launched)
        #expect(seen.withLock { $0 } == [Self.trickyURL])
        #expect(fakes.recordedArguments() == nil)

        let declining = BrowserLauncher(launch: { _ in false }, environment: fakes.environment(["BROWSER": "record"]), isWSL: false)
        let report = await declining.open(Self.trickyURL)
        #expect(report.launched)
        #expect(report.attempts.map(\.failure) == ["the app's launcher declined", nil])
        #expect(fakes.recordedArguments() == [Self.trickyURL.absoluteString])
    }

    @Test func aBrowserStillRunningAfterTheWindowCountsAsStartedAndIsReaped() async throws {
        let fakes = try FakeBrowsers()
        defer { fakes.remove() }
        let launcher = BrowserLauncher(environment: fakes.environment(["BROWSER": "linger"]), isWSL: false, failureWindow: 0.1)
        let report = await launcher.open(Self.trickyURL)
        #expect(report.launched)
        let pid = try #require(report.attempts.last?.pid)
        // Once it exits (0.5 s) the reaper collects it: then even kill(pid, 0) fails, which it
        // does not for a zombie.
        var gone = false
        for _ in 0..<200 where !gone {
            try await Task.sleep(nanoseconds: 20_000_000)
            gone = kill(pid, 0) == -1 && errno == ESRCH
        }
        #expect(gone)
    }

    @Test func theChildStartsWithAnEmptySignalMaskDefaultDispositionsAndItsOwnGroup() async throws {
        let fakes = try FakeBrowsers()
        defer { fakes.remove() }
        // Spawn from a thread that blocks SIGUSR1, in a process that ignores SIGUSR2 meanwhile.
        let previous = signal(SIGUSR2, SIG_IGN)
        defer { signal(SIGUSR2, previous) }
        let pid: pid_t = try await withCheckedThrowingContinuation { continuation in
            Thread {
                var blocked = sigset_t()
                sigemptyset(&blocked)
                sigaddset(&blocked, SIGUSR1)
                pthread_sigmask(SIG_BLOCK, &blocked, nil)
                // cp copies its own status: a shell would not do, dash clears its signal mask at start.
                let result = BrowserLauncher.spawn(
                    path: "/bin/cp", arguments: ["cp", "/proc/self/status", fakes.argumentsFile], environment: fakes.environment())
                continuation.resume(with: result)
            }.start()
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let lines = try String(contentsOfFile: fakes.argumentsFile, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.contains("SigBlk:\t0000000000000000"))
        // No standard signal (1…31) ignored. Signals 32 and 33 are glibc's own (SIGCANCEL,
        // SIGSETXID): sigfillset leaves them out and sigaction refuses them, so they are not checked.
        let ignored = try #require(lines.first { $0.hasPrefix("SigIgn:") }.flatMap { UInt64($0.dropFirst("SigIgn:\t".count), radix: 16) })
        #expect(ignored & 0x7FFF_FFFF == 0, "SigIgn \(String(ignored, radix: 16))")
        #expect(lines.contains("NSpgid:\t\(pid)"))
    }

    @Test func resolveSearchesTheGivenPathOnly() throws {
        let fakes = try FakeBrowsers()
        defer { fakes.remove() }
        #expect(BrowserLauncher.resolve("record", path: "/nonexistent:\(fakes.directory.path)") == fakes.record)
        #expect(BrowserLauncher.resolve("record", path: "/usr/bin") == nil)
        #expect(BrowserLauncher.resolve(fakes.record, path: nil) == fakes.record)
        #expect(BrowserLauncher.resolve(fakes.directory.path, path: nil) == nil) // a folder is not a program
    }
}
