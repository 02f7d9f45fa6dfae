import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program that prints the Redis password, run again before it expires: how a configuration
/// file (`password_command`, docs/redis.md#credentials-that-change) feeds rotating credentials, as
/// git's credential helpers and AWS's `credential_process` do.
///
/// ```swift
/// // Azure Managed Redis with Microsoft Entra (docs/redis.md#azure-managed-redis)
/// var configuration = try MSALRedisConfiguration(url: "rediss://contoso.eastus.redis.azure.net:10000")
/// let command = MSALRedisPasswordCommand(
///     ["az", "account", "get-access-token", "--resource", "https://redis.azure.com", "--query", "accessToken", "--output", "tsv"])
/// configuration.credentialSource = command.source
/// ```
///
/// The program (found on `PATH` unless its name has a `/`) runs without a shell and with no input;
/// its standard error is the process's. It must print one line, the password, and exit with 0.
/// When the password is a JSON web token (as an Entra access token is), it expires at the token's
/// `exp` and its user is the token's `oid` unless `username` is set; any other password is taken
/// to hold for `refreshInterval`. A program that fails, outlives `timeLimit`, prints nothing, more
/// than one line or more than 64 KiB is `.authentication`, with a message that names the program
/// and never what it printed.
public struct MSALRedisPasswordCommand: Sendable, Equatable {
    /// The program and its arguments.
    public var arguments: [String]
    /// The ACL user; `nil`: the token's `oid`, else the default user.
    public var username: String?
    /// How long a password that is not a token holds: the program runs again before then.
    public var refreshInterval: TimeInterval
    /// The longest the program may run; it is then killed.
    public var timeLimit: TimeInterval

    /// The longest output read.
    static let maxOutput = 64 << 10

    /// `arguments`: the program, then its arguments; the rest as the properties say.
    public init(_ arguments: [String], username: String? = nil, refreshInterval: TimeInterval = 3600, timeLimit: TimeInterval = 30) {
        self.arguments = arguments
        self.username = username
        self.refreshInterval = refreshInterval
        self.timeLimit = timeLimit
    }

    /// The program, as messages name it (its arguments are left out).
    var name: String { arguments.first.map { "'\($0)'" } ?? "(none)" }

    /// A `credentialSource` that runs the program each time it is asked.
    public var source: @Sendable () throws -> MSALRedisCredentials {
        { [self] () throws -> MSALRedisCredentials in try credentials() }
    }

    /// Runs the program and reads the credentials it prints.
    public func credentials() throws(MSALRedisError) -> MSALRedisCredentials {
        let started = Date()
        var output = try run()
        defer { output.resetBytes(in: 0..<output.count) }
        if output.last == UInt8(ascii: "\n") { output.removeLast() }
        if output.last == UInt8(ascii: "\r") { output.removeLast() }
        guard !output.isEmpty else { throw failure("printed no password") }
        guard !output.contains(UInt8(ascii: "\n")), !output.contains(UInt8(ascii: "\r")), !output.contains(0) else {
            throw failure("printed more than one line (it must print the password alone)")
        }
        guard let password = String(data: output, encoding: .utf8) else { throw failure("printed something that is not UTF-8 text") }
        let claims = Self.tokenClaims(password)
        let expiry = (claims?["exp"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) }
        return MSALRedisCredentials(
            username: username ?? claims?["oid"] as? String, password: password,
            expiresOn: expiry ?? started.addingTimeInterval(refreshInterval))
    }

    private func failure(_ what: String) -> MSALRedisError {
        MSALRedisError(.authentication, "The Redis password command \(name) \(what)")
    }

    /// The program's standard output, once it exited with 0 within the time limit. It runs in a
    /// process group of its own, so that stopping it stops what it started too.
    private func run() throws(MSALRedisError) -> Data {
        guard let program = arguments.first, !program.isEmpty, let executable = Self.locate(program) else {
            throw MSALRedisError(.invalidConfiguration, "The Redis password command \(name) is not an executable program (PATH searched)")
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw failure("could not be started (no pipe)") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { Glibc.close(ends[0]) }
        let child = Self.spawn(executable, arguments, output: ends[1])
        Glibc.close(ends[1])
        guard let child else { throw failure("could not be started") }
        let deadline = Deadline(after: timeLimit)
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        defer { for index in buffer.indices { buffer[index] = 0 } }
        var problem: String?
        while problem == nil {
            var poller = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, deadline.remainingMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else {
                problem = "did not finish within \(String(format: "%g", timeLimit)) s and was stopped"
                break
            }
            let count = Glibc.read(ends[0], &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output.append(contentsOf: buffer[0..<count])
            if output.count > Self.maxOutput { problem = "printed more than 64 KiB" }
        }
        // Its output closed: it is exiting, or is stopped at its deadline.
        var status: Int32 = 0
        while problem == nil, waitpid(child, &status, WNOHANG) == 0 {
            guard !deadline.hasPassed else {
                problem = "did not finish within \(String(format: "%g", timeLimit)) s and was stopped"
                break
            }
            usleep(2_000)
        }
        if problem != nil {
            kill(-child, SIGKILL)
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        }
        if problem == nil, status & 0x7f != 0 || (status >> 8) & 0xff != 0 {
            problem = status & 0x7f != 0 ? "failed (signal \(status & 0x7f))" : "failed (exit status \((status >> 8) & 0xff))"
        }
        if let problem {
            output.resetBytes(in: 0..<output.count)
            throw failure(problem)
        }
        return output
    }

    /// Starts `executable` with `arguments`, no input, `output` as its standard output and the
    /// process's standard error, in a new process group; its pid, or `nil`.
    private static func spawn(_ executable: String, _ arguments: [String], output: Int32) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, &actions, &attributes, argv, environ) == 0 else { return nil }
        return pid
    }

    /// `program` itself when it names a path, else the first executable of that name on `PATH`.
    static func locate(_ program: String) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(program)"
            var status = stat()
            if stat(candidate, &status) == 0, status.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The claims of `text` when it is a JSON web token (three base64url parts), else `nil`.
    static func tokenClaims(_ text: String) -> [String: Any]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        guard let data = Data(base64Encoded: payload), let object = try? JSONSerialization.jsonObject(with: data) else { return nil }
        return object as? [String: Any]
    }
}
