import Foundation
import MSALRedis

#if canImport(Glibc)
    import Glibc
#endif

/// A redis-server of the example's own: on a free loopback port, in a temporary directory, with a
/// random password and no snapshots. `stop()` ends it and removes the directory.
final class LocalRedisServer: Sendable {
    let port: Int
    let directory: String
    /// `redis://:password@127.0.0.1:port`: a secret, handed to the workers in their environment.
    let url: String
    private let process: SpawnedProcess

    /// Starts `redis-server` (found on PATH) and waits until it answers PING.
    static func start() throws(RedisWorkersError) -> LocalRedisServer {
        guard let executable = Self.onPath("redis-server") else {
            throw RedisWorkersError("redis-server is not installed (apt install redis-server), or give --redis URL")
        }
        var template = Array(URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("redis-workers-XXXXXX").path.utf8CString)
        guard let made = mkdtemp(&template) else { throw RedisWorkersError("cannot make a temporary directory") }
        let directory = String(cString: made)
        var lastError = RedisWorkersError("redis-server did not start")
        // A free port can be taken by someone else before the server binds it: try another.
        for _ in 0..<5 {
            do throws(RedisWorkersError) {
                return try LocalRedisServer(executable: executable, directory: directory, port: freePort())
            } catch {
                lastError = error
            }
        }
        try? FileManager.default.removeItem(atPath: directory)
        throw lastError
    }

    private init(executable: String, directory: String, port: Int) throws(RedisWorkersError) {
        let password = randomHex(16)
        let configuration = [
            "bind 127.0.0.1", "port \(port)", "dir \(directory)", "logfile \(directory)/redis.log", "daemonize no",
            "save \"\"", "appendonly no", "requirepass \(password)",
        ]
        let file = directory + "/redis.conf"
        // The file holds the password: only this user reads it (the directory is 0700 too).
        guard
            FileManager.default.createFile(
                atPath: file, contents: Data((configuration.joined(separator: "\n") + "\n").utf8),
                attributes: [.posixPermissions: 0o600])
        else { throw RedisWorkersError("cannot write \(file)") }
        self.port = port
        self.directory = directory
        url = "redis://:\(password)@127.0.0.1:\(port)"
        process = try SpawnedProcess(name: "redis-server", executable: executable, arguments: [file], talks: false, quiet: true)
        let client: MSALRedisClient
        do { client = try MSALRedisClient(configuration: MSALRedisConfiguration(url: url)) } catch {
            throw RedisWorkersError(error.message)
        }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            guard process.isRunning else {
                process.end()
                throw RedisWorkersError("redis-server exited at start (its log: \(directory)/redis.log)")
            }
            if (try? client.ping()) != nil { return }
            usleep(20_000)
        }
        process.end()
        throw RedisWorkersError("redis-server did not answer on port \(port) within 10 s")
    }

    /// Ends the server (SIGTERM; it has nothing to save) and removes its directory.
    func stop() {
        process.end()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A loopback port nobody listens on now: bound to port 0, read, closed.
    private static func freePort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
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
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// `count` random bytes as hex digits.
func randomHex(_ count: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
}
