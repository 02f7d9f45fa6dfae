import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Opens the authorize URL in the user's browser (docs/error-mapping.md#launching-the-browser), trying in order:
///
/// 1. the app's own launcher closure, if any;
/// 2. each command of `$BROWSER` (`:`-separated; arguments split on spaces; `%s` replaced by the
///    URL, else the URL appended);
/// 3. `xdg-open URL` when `DISPLAY` or `WAYLAND_DISPLAY` is set;
/// 4. on WSL, `wslview URL`, then `powershell.exe -NoProfile -Command Start-Process '<URL>'`.
///
/// Commands are started with `posix_spawn` and an argument array, never through a shell, so `&`
/// and `;` in the URL arrive intact. The child gets an empty signal mask, default signal
/// dispositions, its own process group (a Ctrl-C meant for the app does not close the browser),
/// `/dev/null` for stdin, stdout and stderr, and no descriptor of ours. It is not waited for
/// beyond `failureWindow`: a non-zero exit (or death by signal) within it is a failure and the next
/// candidate is tried; still running or exit 0 is success. A child still running is reaped later
/// by a small thread, so no zombie stays.
///
/// The environment is a parameter (default: the process's), so tests never open a real browser.
///
/// ```swift
/// // given: authorizeURL: URL
/// let launcher = BrowserLauncher()
/// let report = await launcher.open(authorizeURL)
/// if !report.launched { /* hand the URL to the app, or fail */ }
/// ```
package struct BrowserLauncher: Sendable {
    /// The app's launcher: returns whether it showed the URL.
    package typealias Launch = @Sendable (URL) async -> Bool

    /// What one attempt did.
    package struct Attempt: Sendable, Equatable {
        /// The launcher closure, or the command's arguments with the URL.
        package var arguments: [String]
        /// Empty when it worked, else why not (e.g. "exit status 3", "not found in PATH").
        package var failure: String?
        /// The child's process id, when one was started.
        package var pid: Int32?
    }

    /// The attempts made, in order; the last one worked when `launched` is true.
    package struct Report: Sendable, Equatable {
        /// Every candidate tried, in order.
        package var attempts: [Attempt] = []
        /// Whether some candidate worked.
        package var launched: Bool { attempts.last.map { $0.failure == nil } ?? false }
        /// One line per attempt, for logs and the "no browser" error.
        package var summary: String {
            attempts.isEmpty
                ? "no launcher configured ($BROWSER unset, no DISPLAY or WAYLAND_DISPLAY, not WSL)"
                : attempts.map { "\($0.arguments.first ?? "?"): \($0.failure ?? "started")" }.joined(separator: "; ")
        }
    }

    /// The app's launcher, tried first.
    package var launch: Launch?
    /// Where `BROWSER`, `DISPLAY`, `WAYLAND_DISPLAY` and `PATH` are read; also the child's environment.
    package var environment: [String: String]
    /// Whether this is Windows Subsystem for Linux (then `wslview` and `powershell.exe` are tried).
    package var isWSL: Bool
    /// How long a started command is watched for a failing exit: 2 s.
    package var failureWindow: Double
    /// Where the watch waits between checks.
    package var clock: any NativeAuthClock

    /// A launcher for the given environment (default: this process's).
    package init(
        launch: Launch? = nil, environment: [String: String] = ProcessInfo.processInfo.environment, isWSL: Bool? = nil,
        failureWindow: Double = 2, clock: any NativeAuthClock = SystemClock()
    ) {
        self.launch = launch
        self.environment = environment
        self.isWSL = isWSL ?? Self.runningOnWSL()
        self.failureWindow = failureWindow.isNaN ? 2 : max(0, failureWindow)
        self.clock = clock
    }

    /// Whether the kernel release names Microsoft (WSL 1 and 2).
    package static func runningOnWSL() -> Bool {
        guard let release = try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8) else { return false }
        return release.lowercased().contains("microsoft")
    }

    /// The commands that would be tried for `url`, in order (without the launcher closure).
    package func commands(for url: URL) -> [[String]] {
        let text = url.absoluteString
        var commands: [[String]] = []
        for entry in (environment["BROWSER"] ?? "").split(separator: ":") {
            let words = entry.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard !words.isEmpty else { continue }
            if words.contains(where: { $0.contains("%s") }) {
                commands.append(words.map { $0.replacingOccurrences(of: "%s", with: text) })
            } else {
                commands.append(words + [text])
            }
        }
        if !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty {
            commands.append(["xdg-open", text])
        }
        if isWSL {
            commands.append(["wslview", text])
            // Single quotes: PowerShell expands nothing inside them; a quote is doubled.
            let quoted = "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
            commands.append(["powershell.exe", "-NoProfile", "-Command", "Start-Process \(quoted)"])
        }
        return commands
    }

    /// Tries each candidate until one works.
    package func open(_ url: URL) async -> Report {
        var report = Report()
        if let launch {
            let shown = await launch(url)
            report.attempts.append(Attempt(arguments: ["browserLauncher"], failure: shown ? nil : "the app's launcher declined"))
            if shown { return report }
        }
        for command in commands(for: url) {
            let attempt = await run(command)
            report.attempts.append(attempt)
            if attempt.failure == nil { return report }
        }
        return report
    }

    /// Starts `command` and watches it for `failureWindow`.
    private func run(_ command: [String]) async -> Attempt {
        guard let path = Self.resolve(command[0], path: environment["PATH"]) else {
            return Attempt(arguments: command, failure: "not found in PATH")
        }
        let pid: pid_t
        switch Self.spawn(path: path, arguments: command, environment: environment) {
        case .success(let started): pid = started
        case .failure(let code):
            return Attempt(arguments: command, failure: "cannot start: \(String(cString: strerror(code.code.rawValue)))")
        }
        let step = min(0.02, max(failureWindow, 0))
        var waited = 0.0
        while true {
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid {
                let failure = Self.describeFailure(status)
                return Attempt(arguments: command, failure: failure, pid: pid)
            }
            if reaped < 0 && errno != EINTR {
                return Attempt(arguments: command, failure: nil, pid: pid) // reaped elsewhere; cannot tell
            }
            if waited >= failureWindow || Task.isCancelled {
                Self.reapLater(pid)
                return Attempt(arguments: command, failure: nil, pid: pid)
            }
            try? await clock.sleep(seconds: step)
            waited += step
        }
    }

    /// nil for exit status 0, else what went wrong.
    private static func describeFailure(_ status: Int32) -> String? {
        // WIFEXITED / WEXITSTATUS / WTERMSIG are C macros, not imported.
        let signal = status & 0x7F
        if signal == 0 {
            let code = (status >> 8) & 0xFF
            return code == 0 ? nil : "exit status \(code)"
        }
        return "killed by signal \(signal)"
    }

    /// Waits for `pid` on a thread of its own so that it does not stay a zombie.
    private static func reapLater(_ pid: pid_t) {
        let thread = Thread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        thread.name = "MSAL browser reaper"
        thread.start()
    }

    /// `name` if it contains a slash, else the first `dir/name` along `path`; only executable
    /// regular files count.
    package static func resolve(_ name: String, path: String?) -> String? {
        func executable(_ candidate: String) -> Bool {
            var info = stat()
            return stat(candidate, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && access(candidate, X_OK) == 0
        }
        if name.contains("/") { return executable(name) ? name : nil }
        for directory in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + name
            if executable(candidate) { return candidate }
        }
        return nil
    }

    /// `posix_spawn` with a clean signal state, a new process group, /dev/null for the standard
    /// streams and descriptors 3 and up closed. Internal so that tests can check the signal state.
    static func spawn(path: String, arguments: [String], environment: [String: String]) -> Result<pid_t, POSIXError> {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        // Every catchable signal back to its default: an ignored SIGPIPE (or any other ignored
        // signal) would otherwise survive exec into the browser.
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Our own descriptors are close-on-exec; this also covers any that other code opened without.
        if let closeFrom = addCloseFrom { _ = closeFrom(&actions, 3) }

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        var code: Int32 = 0
        // ETXTBSY: the program file is still open for writing somewhere (just installed, or a
        // descriptor another thread's fork inherited for a moment); it passes, so try again briefly.
        for attempt in 0..<5 {
            code = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
            guard code == ETXTBSY else { break }
            usleep(UInt32(10_000 << attempt))
        }
        return code == 0 ? .success(pid) : .failure(POSIXError(POSIXErrorCode(rawValue: code) ?? .EINVAL))
    }
}

/// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+), a GNU extension that Swift's Glibc
/// module does not export; looked up once, nil on older C libraries.
private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
private let addCloseFrom: AddCloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np").map {
    unsafeBitCast($0, to: AddCloseFrom.self)
}
