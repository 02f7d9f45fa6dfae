import Foundation
import MSALRedis
import NativeAuthEmulator
import Synchronization

/// The example's steps: start the emulator, Redis and two workers, then sign three users in across
/// the two workers, serve their requests interleaved on both, and check each thing the example
/// promises, printing as it goes.
final class RedisWorkersRun {
    let options: RedisWorkersCommand.Options
    /// Three email-code users: the seed's, and two more this run adds.
    let emails = ["grace@example.com", "radia@example.com", "frances@example.com"]
    let seed: Seed
    private let mailbox = Mailbox()
    /// How long a worker may take to start or to answer one request.
    var timeout: TimeInterval { options.timeout }
    /// The step under way, 0 while starting.
    private var step = 0

    init(options: RedisWorkersCommand.Options) {
        self.options = options
        var seed = Seed.demo
        seed.users += [
            Seed.User(username: "radia@example.com", password: nil, attributes: ["displayName": "Radia Perlman"]),
            Seed.User(username: "frances@example.com", password: nil, attributes: ["displayName": "Frances Allen"]),
        ]
        self.seed = seed
    }

    /// Runs every step; the error says which step did not hold.
    func run() throws(RedisWorkersError) {
        do throws(RedisWorkersError) { try steps() } catch {
            throw step == 0 ? error : RedisWorkersError("step \(step) did not hold: \(error)")
        }
    }

    private func steps() throws(RedisWorkersError) {
        say("redis-workers: two worker processes and one Redis share sign-ins and a token cache")
        // The service: the emulator, in this process, on a free loopback port.
        let app = seed.apps[1] // "Demo app (email code only)"
        let scope = seed.apis[0].scopeString(seed.apis[0].requiredScope)
        let mailbox = self.mailbox
        let emulator = try Cleanup.register(
            { [seed] () throws(RedisWorkersError) -> EmulatorServer in
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
        // User i starts on one worker and finishes on the other.
        func starter(_ user: Int) -> SpawnedProcess { workers[user % 2] }
        func finisher(_ user: Int) -> SpawnedProcess { workers[(user + 1) % 2] }

        // Each user's sign-in starts on a worker; the id of the saved state goes back to the front end.
        begin(step: 1)
        var ids: [String] = []
        for (user, email) in emails.enumerated() {
            let id = try ask(starter(user), "start \(email)")
            guard id.count == 32 else { throw RedisWorkersError("\(starter(user).name) answered an id that is not 32 hex digits") }
            ids.append(id)
            say("1. \(starter(user).name) starts the sign-in of \(email) and saves the waiting state in Redis under id \(cut(id))")
        }

        // The users read their codes in their mail; here, the emulator's mailbox.
        begin(step: 2)
        let codes = try emails.map { email throws(RedisWorkersError) in try waitForCode(email) }
        for (email, code) in zip(emails, codes) {
            say("2. the mailbox has the sign-in code for \(email) (\(code.count) digits; not shown)")
        }

        // Each user's next request lands on the other worker, which finishes the sign-in; the
        // front end keeps the account id it answers in the user's session.
        begin(step: 3)
        var accounts: [String] = []
        for (user, email) in emails.enumerated() {
            let given = options.wrongID && user == 0 ? randomHex(16) : ids[user]
            let answer = try ask(finisher(user), "finish \(given) \(codes[user])").split(separator: " ").map(String.init)
            guard answer.count == 2, answer[0] == email else {
                throw RedisWorkersError("\(finisher(user).name) signed in \(answer.first ?? "nobody"), not \(email)")
            }
            accounts.append(answer[1])
            say("3. \(finisher(user).name) takes id \(cut(given)) from Redis, restores the state, submits the code: \(email) is signed in")
        }

        // The users' requests interleave across the workers, each naming its user by account id:
        // every answer must be that user's token, whoever signed in last on that worker.
        begin(step: 4)
        for round in 0..<2 {
            for user in (round == 0 ? Array(emails.indices) : emails.indices.reversed()) {
                let worker = workers[(user + round) % 2]
                let until = try tokenValidity(from: worker, for: user, account: accounts[user], scope: scope)
                let origin = worker === finisher(user) ? "" : ", from the token cache on Redis, without signing the user in itself"
                say("4. \(worker.name) gets an access token for \(emails[user]) (\(scope), valid until \(until) UTC\(origin))")
            }
        }

        // A replayed request with the same id is refused: the saved state was taken once.
        begin(step: 5)
        do throws(RedisWorkersError) {
            _ = try ask(starter(0), "finish \(ids[0]) \(codes[0])")
            throw RedisWorkersError("\(starter(0).name) continued the same saved sign-in a second time")
        } catch let error where error.description.contains("no saved sign-in under that id") {
            say("5. \(starter(0).name) is given id \(cut(ids[0])) again: refused, \(error.description.dropFirst("worker 1: ".count))")
        }
        say(
            "All held: sign-ins started on one worker finished on the other, both workers served each user its own tokens, and each id worked once."
        )
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

    /// Asks `worker` for an access token for the user with `account`; when it is valid until
    /// (`HH:mm:ss`, UTC). Any other user's token fails the step.
    private func tokenValidity(from worker: SpawnedProcess, for user: Int, account: String, scope: String) throws(RedisWorkersError)
        -> String
    {
        let answer = try ask(worker, "token \(account) \(scope)").split(separator: " ")
        guard answer.first.map(String.init) == emails[user], let expires = answer.last.flatMap({ Double($0) }) else {
            throw RedisWorkersError("\(worker.name) answered \(emails[user])'s request with a token for \(answer.first ?? "nobody")")
        }
        return Self.clock(Date(timeIntervalSince1970: expires))
    }

    /// The newest sign-in code sent to `email`.
    private func waitForCode(_ email: String) throws(RedisWorkersError) -> String {
        let deadline = Date().addingTimeInterval(5)
        repeat {
            if let mail = mailbox.mails.withLock({ $0.last { $0.to == email && $0.purpose == "sign_in" } }) { return mail.code }
            usleep(20_000)
        } while Date() < deadline
        throw RedisWorkersError("no sign-in code arrived in the mailbox for \(email)")
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
