import Foundation
import MSALRedis

#if canImport(Glibc)
    import Glibc
#endif

/// The `redis-workers` command: its options, and the worker mode it starts itself in.
public enum RedisWorkersCommand {
    public static let usage = """
        Usage: redis-workers [--redis URL] [--step] [--wrong-id] [--timeout SECONDS]

        A backend with two worker processes and one Redis, signing one user in: worker 1 starts an
        email + one-time-code sign-in and saves the waiting state in Redis; worker 2 takes it and
        finishes the sign-in with the code; then both get an access token from the token cache on
        Redis, and a replay of the saved sign-in's id is refused. It prints each step.

        It starts an emulator of the native-auth API inside this program (its mailbox has the
        code), a redis-server of its own on a free loopback port in a temporary directory (unless
        --redis), and the two workers (this program, `redis-workers worker`), and ends them all
        when it exits, on Ctrl-C too.

        Options:
          --redis URL   use this Redis server instead (redis://, rediss:// or unix://, as in
                        docs/redis.md); keys go under a prefix of their own for this run
          --step        wait for Enter before each step
          --wrong-id    give worker 2 an id that was never saved, to see a step fail
          --timeout SECONDS
                        how long a worker may take to start or answer a request (30)
          -h, --help    show this help

        Exit status: 0 when every step held, 1 when one did not (or something could not start),
        2 for bad arguments, 130 on Ctrl-C (SIGINT), 143 on SIGTERM.
        """

    /// What the command line asks for.
    public struct Options: Equatable, Sendable {
        public var redisURL: String?
        public var step = false
        public var wrongID = false
        /// Seconds a worker may take to start or to answer one request.
        public var timeout: TimeInterval = 30
        public init() {}
    }

    /// Runs the command with `arguments` (without the program's name) and exits.
    public static func main(_ arguments: [String]) async -> Never {
        if arguments.first == "worker" { await runWorker(Array(arguments.dropFirst())) }
        let options: Options
        do throws(RedisWorkersError) { options = try parse(arguments) } catch {
            complain("redis-workers: \(error)\n\(usage)")
            exit(2)
        }
        Cleanup.handleSignals()
        do throws(RedisWorkersError) {
            try RedisWorkersRun(options: options).run()
            Cleanup.exit(0)
        } catch {
            complain("redis-workers: \(error)")
            Cleanup.exit(1)
        }
    }

    /// The options; `--help` prints the usage and exits 0.
    public static func parse(_ arguments: [String]) throws(RedisWorkersError) -> Options {
        var options = Options()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help":
                say(usage)
                exit(0)
            case "--redis":
                guard let url = rest.popFirst(), options.redisURL == nil else { throw RedisWorkersError("--redis needs one URL") }
                // Checked now, so that a URL that cannot be read is a usage error. Never printed: it may hold a password.
                do { _ = try MSALRedisConfiguration(url: url) } catch { throw RedisWorkersError("--redis: \(error.message)") }
                options.redisURL = url
            case "--step": options.step = true
            case "--wrong-id": options.wrongID = true
            case "--timeout":
                guard let value = rest.popFirst().flatMap(Double.init), value > 0, value <= 3600 else {
                    throw RedisWorkersError("--timeout needs a number of seconds, more than 0 and at most 3600")
                }
                options.timeout = value
            default: throw RedisWorkersError("unknown argument \(argument)")
            }
        }
        return options
    }

    /// The worker mode: `redis-workers worker --authority URL --client-id ID --prefix PREFIX`, with
    /// `REDIS_WORKERS_REDIS_URL` and `REDIS_WORKERS_KEY` (64 hex digits) in the environment, where
    /// other users cannot read them (a command line they can).
    static func runWorker(_ arguments: [String]) async -> Never {
        var values: [String: String] = [:]
        var rest = arguments[...]
        while let name = rest.popFirst(), let value = rest.popFirst() { values[name] = value }
        let environment = ProcessInfo.processInfo.environment
        guard let authority = values["--authority"], let clientId = values["--client-id"], let prefix = values["--prefix"],
            let url = environment[workerRedisVariable], let key = environment[workerKeyVariable].flatMap(data(hex:)), key.count == 32
        else {
            say("error the worker needs --authority, --client-id, --prefix, \(workerRedisVariable) and \(workerKeyVariable)")
            exit(2)
        }
        do throws(RedisWorkersError) {
            let worker = try Worker(
                Worker.Settings(authority: authority, clientId: clientId, redisURL: url, keyPrefix: prefix, encryptionKey: key))
            await worker.serve()
            exit(0)
        } catch {
            say("error \(error)")
            exit(1)
        }
    }

    static let workerRedisVariable = "REDIS_WORKERS_REDIS_URL"
    static let workerKeyVariable = "REDIS_WORKERS_KEY"

    static func data(hex: String) -> Data? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes = Data()
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
