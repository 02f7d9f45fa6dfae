import Foundation
import NativeAuthAppConfig

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The emulator that `--emulator` commands share: a `native-auth-emulator` process started in the
/// background by the first of them, its files in `Places.emulatorDirectory` (docs/cli.md#the-emulator-mode).
struct EmulatorInstance {
    let directory: String
    /// Its app configuration (the demo seed's email + password app), in the configuration file format.
    let configuration: AppConfiguration

    var configFile: String { directory + "/config.json" }
    static func stateFile(_ directory: String) -> String { directory + "/emulator.json" }
    static func logFile(_ directory: String) -> String { directory + "/emulator.log" }

    /// The instance recorded by an earlier command, or nil. Reads one file (the `token` path).
    static func load(_ places: Places) throws(CLIError) -> EmulatorInstance? {
        let directory = places.emulatorDirectory
        guard let data = try SecureFile.read(directory + "/config.json") else { return nil }
        do {
            return EmulatorInstance(directory: directory, configuration: try AppConfiguration.load(data))
        } catch {
            throw CLIError(
                .configuration, "the emulator's configuration \(directory)/config.json is damaged (native-auth emulator stop clears it)")
        }
    }

    /// The pid and base URL of the recorded process.
    struct Process: Codable {
        var pid: Int32
        var baseURL: String
        enum CodingKeys: String, CodingKey {
            case pid
            case baseURL = "base_url"
        }
    }

    static func process(_ directory: String) -> Process? {
        guard let data = try? SecureFile.read(stateFile(directory)) else { return nil }
        return try? JSONDecoder().decode(Process.self, from: data)
    }
}

/// Where `--emulator` finds the emulator it starts in the background.
public enum EmulatorSupport: Sendable {
    /// Linked into this executable, which is the emulator when started under the name
    /// `native-auth-emulator` (Sources/native-auth/main.swift): it starts itself so.
    case linked
    /// The `native-auth-emulator` program beside this executable (in-process tests).
    case beside
}

/// Starts, finds, stops and reads the mailbox of the background emulator.
struct EmulatorControl {
    let places: Places
    let executableDirectory: String
    let support: EmulatorSupport
    let terminal: any Terminal

    init(_ context: ToolContext, places: Places) {
        self.places = places
        executableDirectory = context.executableDirectory
        support = context.emulator
        terminal = context.terminal
    }

    var directory: String { places.emulatorDirectory }

    /// The running emulator, started now if none runs (under a lock, so two commands at once start one).
    func ensureRunning() throws(CLIError) -> EmulatorInstance {
        try SecureFile.makeDirectory(places.runtimeRoot)
        try SecureFile.makeDirectory(directory)
        let lock = open(directory + "/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw CLIError(.configuration, "cannot create \(directory)/lock: \(String(cString: strerror(errno)))") }
        defer { close(lock) } // closing releases the lock
        while flock(lock, LOCK_EX) != 0, errno == EINTR {}
        if let recorded = EmulatorInstance.process(directory), Self.isEmulator(recorded.pid),
            let instance = try EmulatorInstance.load(places)
        {
            return instance
        }
        clearFiles()
        return try start()
    }

    /// Stops the recorded emulator and removes its files (tokens and a saved sign-in included);
    /// false when none was running.
    func stop() -> Bool {
        var stopped = false
        if let recorded = EmulatorInstance.process(directory), Self.isEmulator(recorded.pid) {
            kill(recorded.pid, SIGTERM)
            for _ in 0..<500 where Self.isEmulator(recorded.pid) { usleep(10_000) }
            if Self.isEmulator(recorded.pid) { kill(recorded.pid, SIGKILL) }
            stopped = true
        }
        clearFiles()
        return stopped
    }

    /// The recorded emulator's process, when it runs.
    func running() -> EmulatorInstance.Process? {
        guard let recorded = EmulatorInstance.process(directory), Self.isEmulator(recorded.pid) else { return nil }
        return recorded
    }

    /// The codes the emulator "sent" to `username`, oldest first, as its mailbox hook lists them.
    func mailbox(_ username: String) async throws(CLIError) -> [[String: Any]] {
        guard let recorded = running() else { throw CLIError(.configuration, "the emulator is not running (native-auth emulator start)") }
        var components = URLComponents(string: recorded.baseURL + "/_emulator/mailbox")
        components?.queryItems = [URLQueryItem(name: "username", value: username)]
        guard let url = components?.url else { throw CLIError(.configuration, "the emulator's address \(recorded.baseURL) is not usable") }
        let data: Data
        do {
            let (body, response) = try await URLSession.shared.data(from: url)
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
            data = body
        } catch {
            throw CLIError(.network, "the emulator's mailbox did not answer: \(error.localizedDescription)")
        }
        guard let list = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] else {
            throw CLIError(.network, "the emulator's mailbox answered something that is not a list")
        }
        return list
    }

    private func clearFiles() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name != "lock" { SecureFile.remove(directory + "/" + name) }
    }

    private func start() throws(CLIError) -> EmulatorInstance {
        // The emulator is named native-auth-emulator in its argv[0] either way: that name chooses it
        // in a linked program, and `isEmulator` below recognises it by it.
        let program = support == .linked ? currentExecutable() : executableDirectory + "/native-auth-emulator"
        guard access(program, X_OK) == 0 else {
            throw CLIError(
                .configuration,
                "cannot find native-auth-emulator beside this program (\(program)); build it with swift build --product native-auth-emulator"
            )
        }
        let log = EmulatorInstance.logFile(directory)
        let pid = try Self.spawnDetached(program, named: "native-auth-emulator", ["--port", "0"], log: log)
        var banner: Banner?
        for _ in 0..<3000 { // up to 30 s: a debug build on a busy machine makes its RSA key slowly
            if let text = try? SecureFile.read(log), let parsed = Banner(String(decoding: text, as: UTF8.self)) {
                banner = parsed
                break
            }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                let text = (try? SecureFile.read(log)).map { String(decoding: $0, as: UTF8.self) } ?? ""
                throw CLIError(.configuration, "the emulator did not start: \(text.trimmingCharacters(in: .whitespacesAndNewlines))")
            }
            usleep(10_000)
        }
        guard let banner else {
            kill(pid, SIGKILL)
            throw CLIError(.configuration, "the emulator did not print its address within 30 s (log: \(log))")
        }
        let configuration = AppConfiguration(
            clientId: banner.clientId, authority: banner.authority, api1: banner.apis.first, api2: banner.apis.dropFirst().first,
            cacheFile: directory + "/token_cache.json")
        let process = EmulatorInstance.Process(pid: pid, baseURL: banner.baseURL)
        try SecureFile.write((try? JSONEncoder().encode(process)) ?? Data(), to: EmulatorInstance.stateFile(directory))
        try SecureFile.write(configuration.encoded(), to: directory + "/config.json")
        terminal.message(
            """
            Started the emulator (pid \(pid)) at \(banner.baseURL); it runs until 'native-auth emulator stop'.
            Accounts: ada@example.com / Analytical-Engine-1843, grace@example.com (email code),
              alan@example.com / Turing-Machine-1936 (MFA), katherine@example.com / Orbital-Mechanics-1962.
            V2 only (login --v2): barbara@example.com / Substitution-Principle-1987 (password or email code),
              hedy@example.com (the browser only), margaret@example.com / Apollo-Guidance-1969 (MFA).
            Codes it sends: native-auth emulator mailbox EMAIL

            """)
        return EmulatorInstance(directory: directory, configuration: configuration)
    }

    /// Whether the emulator `instance` came from still runs.
    static func isRunning(_ instance: EmulatorInstance) -> Bool {
        EmulatorInstance.process(instance.directory).map { isEmulator($0.pid) } ?? false
    }

    /// Whether `pid` is a live `native-auth-emulator` (not a zombie, not a recycled pid).
    static func isEmulator(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { return false } // our own child that has ended
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")"),
            stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first != "Z",
            let command = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))
        else { return false }
        let program = command.split(separator: 0).first.map { String(decoding: $0, as: UTF8.self) } ?? ""
        return program.hasSuffix("native-auth-emulator")
    }

    /// Starts `program` in a session of its own (Ctrl-C in this terminal does not reach it), stdin
    /// from /dev/null, stdout and stderr appended to `log` (0600), and no other descriptor.
    static func spawnDetached(_ program: String, named name: String, _ arguments: [String], log: String) throws(CLIError) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of ours: a pipe it inherited would keep whoever waits on it waiting for as
        // long as the emulator runs (a test runner's status pipe, a `$(native-auth …)`). The child
        // closes every descriptor from 3 on as it starts, so also one that another thread opens
        // without close-on-exec while this one spawns. Marking ours close-on-exec first, the
        // fallback for a C library without closefrom, cannot see those.
        if let addCloseFrom = addCloseFromFunction {
            guard addCloseFrom(&actions, 3) == 0 else { throw CLIError(.configuration, "cannot start \(program): closefrom") }
        } else {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
                if let descriptor = Int32(name), descriptor > 2 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            }
        }
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
        // glibc's POSIX_SPAWN_SETSID (spawn.h, only with _GNU_SOURCE, so not imported): setsid() in the child.
        let setSessionId: Int32 = 0x80
        posix_spawnattr_setflags(&attributes, Int16(setSessionId | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let result = withArgv([name] + arguments) { posix_spawn(&pid, program, &actions, &attributes, $0, environ) }
        guard result == 0 else { throw CLIError(.configuration, "cannot start \(program): \(String(cString: strerror(result)))") }
        return pid
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module
/// does not import (it is a GNU extension), looked up once; nil with an older C library.
private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
private let addCloseFromFunction: AddCloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
    .map { unsafeBitCast($0, to: AddCloseFrom.self) }

/// The lines `native-auth-emulator` prints at start (Sources/NativeAuthEmulator/EmulatorProgram.swift).
struct Banner: Equatable {
    var baseURL: String
    var authority: String
    var clientId: String
    var apis: [AppConfiguration.API]

    /// Nil until the banner is complete: it is written in one piece, and ends with the apis.
    init?(_ text: String) {
        var baseURL: String?
        var authority: String?
        var clientId: String?
        var apis: [AppConfiguration.API] = []
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("base URL: ") {
                baseURL = String(line.dropFirst("base URL: ".count))
            } else if line.hasPrefix("authority: ") {
                authority = String(line.dropFirst("authority: ".count))
            } else if line.hasPrefix("client id: "), clientId == nil {
                clientId = line.dropFirst("client id: ".count).split(separator: " ").first.map(String.init)
            } else if line.hasPrefix("api: "), let scopes = line.range(of: "  scopes: ") {
                let url = String(line[line.index(line.startIndex, offsetBy: 5)..<scopes.lowerBound])
                let list = line[scopes.upperBound...].split(separator: " ").map(String.init)
                if let first = list.first { apis.append(AppConfiguration.API(url: url, scopes: [first])) }
            }
        }
        guard let baseURL, let authority, let clientId, !apis.isEmpty else { return nil }
        self.baseURL = baseURL
        self.authority = authority
        self.clientId = clientId
        self.apis = apis
    }
}
