import Foundation
import MSALRedis
import NativeAuthEmulator
import Synchronization

/// The example's steps: start the emulator, Redis and two workers, then sign one user in across
/// the two workers and check each thing the example promises, printing as it goes.
final class RedisWorkersRun {
    let options: RedisWorkersCommand.Options
    /// The seed's email-code-only user and app, and its first protected API.
    let email = "grace@example.com"
    let seed = Seed.demo
    private let mailbox = Mailbox()
    /// How long a worker may take to start or to answer one request.
    var timeout: TimeInterval { options.timeout }
    /// The step under way, 0 while starting.
    private var step = 0

    init(options: RedisWorkersCommand.Options) { self.options = options }

    /// Runs every step; the error says which step did not hold.
    func run() throws(RedisWorkersError) {
        do throws(RedisWorkersError) { try steps() } catch {
            throw step == 0 ? error : RedisWorkersError("step \(step) did not hold: \(error)")
        }
    }

    private func steps() throws(RedisWorkersError) {
        say("redis-workers: two worker processes and one Redis share a sign-in and a token cache")
        // The service: the emulator, in this process, on a free loopback port.
        let app = seed.apps[1] // "Demo app (email code only)"
        let scope = seed.apis[0].scopeString(seed.apis[0].requiredScope)
        let mailbox = self.mailbox
        let emulator = try Cleanup.register(
            { () throws(RedisWorkersError) -> EmulatorServer in
                do {
                    let router = try EmulatorRouter(seed: seed, onMail: { [mailbox] mail in mailbox.mails.withLock { $0.append(mail) } })
                    return try EmulatorServer(router: router, port: 0)
                } catch {
                    throw RedisWorkersError("the emulator did not start: \(error.localizedDescription)")
                }
            }, undo: { $0.stop() })
        say("  emulator  \(emulator.authority) (in this process; client \(app.clientId), email codes)")

        // Redis: the one given, or a redis-server of our own.
        let redisURL: String
        if let given = options.redisURL {
            redisURL = given
            say("  redis     \((try? MSALRedisConfiguration(url: given))?.description ?? "the server given") (given with --redis)")
        } else {
            let server = try Cleanup.register({ () throws(RedisWorkersError) in try LocalRedisServer.start() }, undo: { $0.stop() })
            redisURL = server.url
            say("  redis     redis-server on 127.0.0.1:\(server.port) in \(server.directory) (started for this run)")
        }

        // The workers: this program in its worker mode. Every worker needs the same 32-byte key
        // (to seal what it puts in Redis) and the Redis URL; your app's would read both from a
        // secret store.
        let key = randomHex(32)
        let prefix = "redis-workers:\(randomHex(4)):"
        let workers = try (1...2).map { number throws(RedisWorkersError) in
            try startWorker(
                number, arguments: ["worker", "--authority", emulator.authority, "--client-id", app.clientId, "--prefix", prefix],
                environment: [RedisWorkersCommand.workerRedisVariable: redisURL, RedisWorkersCommand.workerKeyVariable: key])
        }
        let (worker1, worker2) = (workers[0], workers[1])

        // Worker 1 starts the sign-in; the id of the saved state goes back to the front end.
        begin(step: 1)
        let id = try ask(worker1, "start \(email)")
        guard id.count == 32 else { throw RedisWorkersError("worker 1 answered an id that is not 32 hex digits") }
        say("1. worker 1 starts the sign-in of \(email) and saves the waiting state in Redis under id \(cut(id))")

        // The user reads the code in their mail; here, the emulator's mailbox.
        begin(step: 2)
        let code = try waitForCode()
        say("2. the mailbox has the sign-in code for \(email) (\(code.count) digits; not shown)")

        // The user's next request lands on worker 2, which finishes the sign-in.
        begin(step: 3)
        let given = options.wrongID ? randomHex(16) : id
        let username = try ask(worker2, "finish \(given) \(code)")
        guard username == email else { throw RedisWorkersError("worker 2 signed in \(username), not \(email)") }
        say("3. worker 2 takes id \(cut(given)) from Redis, restores the state, submits the code: \(username) is signed in")

        // Worker 2 gets a token for the user it signed in.
        begin(step: 4)
        var until = try tokenValidity(from: worker2, scope: scope)
        say("4. worker 2 gets an access token for \(email) (\(scope), valid until \(until) UTC)")

        // Worker 1 never saw the sign-in finish: the account and its tokens come from Redis.
        begin(step: 5)
        until = try tokenValidity(from: worker1, scope: scope)
        say(
            "5. worker 1 gets an access token for \(email) from the token cache on Redis, without signing in itself (valid until \(until) UTC)"
        )

        // A replayed request with the same id is refused: the saved state was taken once.
        begin(step: 6)
        do throws(RedisWorkersError) {
            _ = try ask(worker1, "finish \(id) \(code)")
            throw RedisWorkersError("worker 1 continued the same saved sign-in a second time")
        } catch let error where error.description.contains("no saved sign-in under that id") {
            say("6. worker 1 is given id \(cut(id)) again: refused, \(error.description.dropFirst("worker 1: ".count))")
        }
        say("All held: a sign-in started on one worker finished on the other, both share its tokens, and its id worked once.")
    }

    /// Starts one worker and waits until it is ready (it reached Redis).
    private func startWorker(_ number: Int, arguments: [String], environment: [String: String]) throws(RedisWorkersError)
        -> SpawnedProcess
    {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let worker = try Cleanup.register(
            { () throws(RedisWorkersError) in
                try SpawnedProcess(
                    name: "worker \(number)", executable: executable, arguments: arguments, environment: environment, talks: true)
            }, undo: { $0.end() })
        let first = try worker.receive(timeout: timeout)
        guard first == "ready" else {
            throw RedisWorkersError("worker \(number) did not start: \(first.hasPrefix("error ") ? String(first.dropFirst(6)) : first)")
        }
        say("  worker \(number)  pid \(worker.pid), ready")
        return worker
    }

    /// Sends a worker one request; its `ok` answer, or its `error` as a thrown error.
    private func ask(_ worker: SpawnedProcess, _ request: String) throws(RedisWorkersError) -> String {
        try worker.send(request)
        let answer = try worker.receive(timeout: timeout)
        if answer.hasPrefix("ok ") { return String(answer.dropFirst(3)) }
        throw RedisWorkersError("\(worker.name): \(answer.hasPrefix("error ") ? String(answer.dropFirst(6)) : answer)")
    }

    /// Asks `worker` for an access token for `email`; when it is valid until (`HH:mm:ss`, UTC).
    private func tokenValidity(from worker: SpawnedProcess, scope: String) throws(RedisWorkersError) -> String {
        let answer = try ask(worker, "token \(scope)").split(separator: " ")
        guard answer.first.map(String.init) == email, let expires = answer.last.flatMap({ Double($0) }) else {
            throw RedisWorkersError("\(worker.name) got a token for someone else")
        }
        return Self.clock(Date(timeIntervalSince1970: expires))
    }

    /// The newest sign-in code sent to `email`.
    private func waitForCode() throws(RedisWorkersError) -> String {
        let deadline = Date().addingTimeInterval(5)
        repeat {
            if let mail = mailbox.mails.withLock({ $0.last { $0.to == email && $0.purpose == "sign_in" } }) { return mail.code }
            usleep(20_000)
        } while Date() < deadline
        throw RedisWorkersError("no sign-in code arrived in the mailbox")
    }

    /// An id lets its holder continue the sign-in: only its first four digits are shown.
    private func cut(_ id: String) -> String { String(id.prefix(4)) + "…" }

    /// Marks the start of step `number` (a failure from here on names it), and with `--step`
    /// waits for Enter.
    private func begin(step number: Int) {
        step = number
        guard options.step else { return }
        say("(press Enter for step \(number))")
        _ = readLine()
    }

    /// `HH:mm:ss` in UTC.
    private static func clock(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: date)
    }

    private func say(_ line: String) { RedisWorkersKit.say(line) }
}

/// The codes the emulator "sent" (its `onMail`), as a mail catcher would show them.
private final class Mailbox: Sendable {
    let mails = Mutex<[EmulatorMail]>([])
}
