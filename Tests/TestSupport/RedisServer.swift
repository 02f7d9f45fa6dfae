import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real `redis-server` (Debian's) that a test starts on a free loopback port, in a temporary
/// directory of its own with its own configuration file and no snapshots, and always stops: on
/// `stop()`, on `deinit`, and (through `ChildProcess`) if the test process dies.
public final class RedisServer: @unchecked Sendable {
    /// What the server is started with beyond the plain defaults.
    public struct Options {
        public init(
            aclUser: (name: String, password: String)? = nil, tls: TLSFiles? = nil, appendOnly: Bool = false, cluster: Bool = false,
            debugCommand: Bool = false, unixSocket: Bool = false, requireClientCertificates: Bool = false, replicaOf: Int? = nil,
            sentinel: Bool = false, lines: [String] = []
        ) {
            self.aclUser = aclUser
            self.tls = tls
            self.appendOnly = appendOnly
            self.cluster = cluster
            self.debugCommand = debugCommand
            self.unixSocket = unixSocket
            self.requireClientCertificates = requireClientCertificates
            self.replicaOf = replicaOf
            self.sentinel = sentinel
            self.lines = lines
        }
        /// An ACL user with this name and password, all commands and keys; the default user off.
        public var aclUser: (name: String, password: String)?
        /// TLS only (no plain port), with this certificate set.
        public var tls: TLSFiles?
        /// `appendonly yes`, `appendfsync always`: nothing acknowledged is lost to a kill -9.
        public var appendOnly = false
        /// `cluster-enabled yes`, for `RedisCluster`.
        public var cluster = false
        /// `enable-debug-command yes` (for `DEBUG SLEEP`).
        public var debugCommand = false
        /// Also listen on a unix socket in the server's directory.
        public var unixSocket = false
        /// With `tls`: `tls-auth-clients yes`, a client must send a certificate its CA signed.
        public var requireClientCertificates = false
        /// `replicaof 127.0.0.1 <port>`: a replica of the server on that loopback port.
        public var replicaOf: Int?
        /// Started with `--sentinel` (the binary Debian's redis-sentinel runs), for `RedisSentinelSet`.
        public var sentinel = false
        /// More configuration lines, written last.
        public var lines: [String] = []
    }

    public let options: Options
    public let directory: String
    public private(set) var port = 0
    private var process: ChildProcess?
    /// How many times the server was started: its log says "Ready to accept connections" once each.

    public var host: String { "127.0.0.1" }
    public var unixSocketPath: String { directory + "/redis.sock" }
    public var url: String {
        let credentials = options.aclUser.map { "\($0.name):\($0.password)@" } ?? ""
        return "\(options.tls == nil ? "redis" : "rediss")://\(credentials)\(host):\(port)"
    }

    public init(_ options: Options = Options()) throws {
        self.options = options
        directory = try RedisServer.temporaryDirectory()
        var lastError: Error?
        for _ in 0..<5 {
            let port = RedisServer.freePort()
            do {
                self.port = port
                try writeConfiguration()
                try start()
                return
            } catch {
                lastError = error
                process?.end()
                process = nil
            }
        }
        throw lastError ?? RedisTestError("redis-server did not start")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Starts the server on its port and directory (again, after `stop()` or `kill9()`), and
    /// waits until it accepts connections.
    public func start() throws {
        // The log is kept across starts (and across a first port that was taken, whose server
        // exited without this line): this start is ready at one more line than there were.
        let readyBefore = Self.readyLines(directory)
        let child = try ChildProcess(
            "/usr/bin/redis-server", [directory + "/redis.conf"] + (options.sentinel ? ["--sentinel"] : []),
            stdout: .file(directory + "/stdout.log"),
            stderr: .file(directory + "/stderr.log"))
        process = child
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            guard child.isRunning else {
                throw RedisTestError(
                    "redis-server exited: \((try? String(contentsOfFile: directory + "/redis.log", encoding: .utf8)) ?? "")")
            }
            // A sentinel does not log "Ready to accept connections".
            if (options.sentinel || Self.readyLines(directory) > readyBefore) && Self.accepts(port: port) { return }
            usleep(20_000)
        }
        // What the server said, to tell a slow start from a port taken or a crash.
        let log = (try? String(contentsOfFile: directory + "/redis.log", encoding: .utf8)) ?? "(no log)"
        let running = child.isRunning ? "running" : "exited"
        throw RedisTestError(
            "redis-server did not accept connections on port \(port) within 15 s (\(running); ready lines \(Self.readyLines(directory)), "
                + "before this start \(readyBefore); log tail: \(log.split(separator: "\n").suffix(6).joined(separator: " | ")))")
    }

    /// SIGTERM, then SIGKILL after a grace period; safe to call twice.
    public func stop() {
        process?.end()
        process = nil
    }

    /// Kills the server at once (SIGKILL), as a crash would.
    public func kill9() {
        let child = process
        process = nil
        child?.signal(SIGKILL)
        _ = child?.waitBlocking(limit: 10)
        child?.end()
    }

    /// Stops (SIGSTOP) or resumes (SIGCONT) the server: a paused server accepts connections
    /// (the kernel does) but answers nothing.
    public func pause() { process?.signal(SIGSTOP) }
    public func resume() { process?.signal(SIGCONT) }

    private func writeConfiguration() throws {
        var lines = [
            "bind 127.0.0.1", "dir \(directory)", "save \"\"", "daemonize no", "logfile \(directory)/redis.log",
            "protected-mode no",
        ]
        if let tls = options.tls {
            lines += [
                "port 0", "tls-port \(port)", "tls-cert-file \(tls.serverCertificate)", "tls-key-file \(tls.serverKey)",
                "tls-ca-cert-file \(tls.caCertificate)", "tls-auth-clients \(options.requireClientCertificates ? "yes" : "no")",
            ]
        } else {
            lines.append("port \(port)")
        }
        if let user = options.aclUser {
            lines += ["user default off", "user \(user.name) on >\(user.password) ~* &* +@all"]
        }
        if options.appendOnly { lines += ["appendonly yes", "appendfsync always"] }
        if options.cluster {
            lines += ["cluster-enabled yes", "cluster-config-file \(directory)/nodes.conf", "cluster-node-timeout 5000"]
        }
        if options.debugCommand { lines.append("enable-debug-command yes") }
        if options.unixSocket { lines += ["unixsocket \(unixSocketPath)", "unixsocketperm 700"] }
        if let primary = options.replicaOf { lines.append("replicaof 127.0.0.1 \(primary)") }
        lines += options.lines
        try (lines.joined(separator: "\n") + "\n").write(toFile: directory + "/redis.conf", atomically: true, encoding: .utf8)
    }

    /// How many times the server's log says it is ready (after loading its data, AOF included).
    private static func readyLines(_ directory: String) -> Int {
        let log = (try? String(contentsOfFile: directory + "/redis.log", encoding: .utf8)) ?? ""
        return log.components(separatedBy: "Ready to accept connections").count - 1
    }

    public static func accepts(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// A loopback port nobody listens on now (and, for a cluster node, whose bus port, +10000, is
    /// free too): bound to port 0, read, closed.
    public static func freePort() -> Int {
        while true {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, length)
                    return getsockname(descriptor, $0, &length)
                }
            }
            close(descriptor)
            let port = Int(UInt16(bigEndian: address.sin_port))
            if port < 55000 && !accepts(port: port + 10000) { return port }
        }
    }

    public static func temporaryDirectory() throws -> String {
        var template = Array((NSTemporaryDirectory() + "/msal-redis-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw RedisTestError("mkdtemp failed") }
        return String(cString: made)
    }
}

/// A failure of the test harness itself.
public struct RedisTestError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
