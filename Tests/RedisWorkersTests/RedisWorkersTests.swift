import Foundation
import MSALRedis
import TestSupport
import Testing

@testable import RedisWorkersKit

#if canImport(Glibc)
    import Glibc
#endif

/// The built `redis-workers` end to end, as a user runs it: its own redis-server (or one given),
/// the emulator inside it, two worker processes. Each run also checks that nothing the example
/// started outlives it: every process it starts inherits `MSAL_TEST_CHILD` from it, and its own
/// redis-server (which overwrites its environment with its title, so cannot be found by it) no longer
/// answers on the port the output names.
@Suite(.serialized) struct RedisWorkersTests {
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
        "redis-workers"
    ).path

    /// What a run of the example left: its status, output, and the processes still carrying its id.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var leftovers: [pid_t]
        /// Whether something still accepts connections on the port of the example's own redis-server.
        var redisStillAnswers: Bool
    }

    /// Runs the example to its end (120 s at most). Once its output has `whenPrinted`, `then` is
    /// called with the output so far, the example and the writing end of its standard input.
    static func run(
        _ arguments: [String], whenPrinted text: String? = nil, then action: (String, ChildProcess, Int32) -> Void = { _, _, _ in }
    ) async throws -> Run {
        let files = TemporaryFiles(2)
        defer { files.remove() }
        // An input nobody writes to (for --step): the example waits at its first step.
        var input: [Int32] = [-1, -1]
        #expect(pipe(&input) == 0)
        defer {
            close(input[0])
            close(input[1])
        }
        let child = try ChildProcess(
            executable, arguments, stdin: .descriptor(input[0]), stdout: .file(files[0]), stderr: .file(files[1]))
        defer { child.end() }
        if let text {
            let printed = await waitUntil(seconds: 60) { files.read(0).contains(text) }
            #expect(printed, "never printed \(text): \(files.read(0)) \(files.read(1))")
            // Everything is up: the example, redis-server and two workers carry the id.
            #expect(ChildProcess.processes(carrying: child.id).count >= 3)
            action(files.read(0), child, input[1])
        }
        let status = await child.exitStatus(within: 120) ?? -1
        // Whatever is still alive once the example has exited, before `end()` sweeps it.
        let stdout = files.read(0)
        return Run(
            status: status, stdout: stdout, stderr: files.read(1), leftovers: ChildProcess.processes(carrying: child.id),
            redisStillAnswers: redisPort(in: stdout).map(accepts(port:)) ?? false)
    }

    /// The temporary directory of the example's own redis-server, as its output names it.
    static func redisDirectory(in output: String) -> String? {
        output.split(whereSeparator: { $0 == " " || $0 == "\n" }).first { $0.hasPrefix("/") && $0.contains("/redis-workers-") }.map(
            String.init)
    }

    /// The port of the example's own redis-server, from `redis-server on 127.0.0.1:PORT in …`.
    static func redisPort(in output: String) -> Int? {
        guard let range = output.range(of: "redis-server on 127.0.0.1:") else { return nil }
        return Int(output[range.upperBound...].prefix { $0.isNumber })
    }

    static func accepts(port: Int) -> Bool {
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

    @Test func threeUsersSignInAcrossTheWorkersAndEachGetsItsOwnTokens() async throws {
        let run = try await Self.run([])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        var expected = [
            "3. worker 2 takes id ", ": grace@example.com is signed in",
            "5. worker 1 is given id ", "again: refused, no saved sign-in under that id", "All held:",
        ]
        // Each user starts on one worker and finishes on the other; then both workers, in turns,
        // get each user a token: from the cache on Redis where the other worker signed the user in.
        for (user, starter, finisher) in [("grace", 1, 2), ("radia", 2, 1), ("frances", 1, 2)] {
            expected += [
                "1. worker \(starter) starts the sign-in of \(user)@example.com and saves the waiting state in Redis under id ",
                "2. the mailbox has the sign-in code for \(user)@example.com (8 digits; not shown)",
                ": \(user)@example.com is signed in",
                "4. worker \(starter) gets an access token for \(user)@example.com (api://emulator/todolist/ToDoList.Read, valid until ",
                "4. worker \(finisher) gets an access token for \(user)@example.com (api://emulator/todolist/ToDoList.Read, valid until ",
            ]
            #expect(
                run.stdout.split(separator: "\n").contains {
                    $0.hasPrefix("4. worker \(starter) gets an access token for \(user)@example.com")
                        && $0.hasSuffix("from the token cache on Redis, without signing the user in itself)")
                }, "\(run.stdout)")
        }
        for text in expected { #expect(run.stdout.contains(text), "missing: \(text)\n\(run.stdout)") }
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        // Secrets stay out of the output: no whole saved-sign-in id (32 hex digits), no code (8 digits).
        #expect(try run.stdout.firstMatch(of: Regex("[0-9a-f]{32}")) == nil)
        // (the emulator's line has the client id, 22222222-…)
        let steps = run.stdout.split(separator: "\n").filter { !$0.hasPrefix("  emulator") }.joined(separator: "\n")
        #expect(try steps.firstMatch(of: Regex("(^|[^0-9])[0-9]{8}([^0-9]|$)")) == nil)
        #expect(run.leftovers.isEmpty)
        #expect(!run.redisStillAnswers)
        // Its own redis-server's directory is gone.
        #expect(Self.redisPort(in: run.stdout) != nil)
        let directory = try #require(Self.redisDirectory(in: run.stdout))
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    @Test func worker2GivenAWrongIdFailsTheRunAndSaysWhy() async throws {
        let run = try await Self.run(["--wrong-id"])
        #expect(run.status == 1)
        #expect(
            run.stderr.contains(
                "redis-workers: step 3 did not hold: worker 2: no saved sign-in under that id (never saved, expired, or taken already)"),
            "\(run.stderr)")
        #expect(run.stdout.contains("1. worker 1 starts the sign-in"))
        #expect(!run.stdout.contains("3. worker 2"))
        #expect(!run.stdout.contains("All held"))
        #expect(run.leftovers.isEmpty)
        #expect(!run.redisStillAnswers)
    }

    @Test func usesARedisGivenWithItsOwnKeysAndLeavesTheServerRunning() async throws {
        let server = try LocalRedisServer.start()
        defer { server.stop() }
        let run = try await Self.run(["--redis", server.url])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("(given with --redis)"))
        #expect(!run.stdout.contains("started for this run"))
        let password = try #require(server.url.split(separator: "@").first?.split(separator: ":").last)
        #expect(!run.stdout.contains(password) && !run.stderr.contains(password))
        // Its keys are under a prefix of the run's own, and the server it did not start still answers.
        let client = try MSALRedisClient(configuration: MSALRedisConfiguration(url: server.url))
        let keys = try client.command("KEYS", "redis-workers:*").array ?? []
        #expect(!keys.isEmpty)
        #expect(try client.command("PING").string == "PONG")
        #expect(run.leftovers.isEmpty)
        #expect(!run.redisStillAnswers)
    }

    @Test func aRedisThatDoesNotAnswerFailsAtTheStartAndEndsTheWorkers() async throws {
        let run = try await Self.run(["--redis", "redis://127.0.0.1:1"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("redis-workers: worker 1 did not start: Redis at 127.0.0.1 port 1 cannot be reached"), "\(run.stderr)")
        #expect(run.leftovers.isEmpty)
        #expect(!run.redisStillAnswers)
    }

    @Test func ctrlCEndsRedisAndBothWorkers() async throws {
        let run = try await Self.run(["--step"], whenPrinted: "(press Enter for step 1)") { _, child, _ in child.signal(SIGINT) }
        #expect(run.status == 130, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stderr.contains("redis-workers: interrupted, stopping"))
        #expect(run.leftovers.isEmpty, "left running: \(run.leftovers)")
        #expect(!run.redisStillAnswers)
        #expect(Self.redisPort(in: run.stdout) != nil)
        let directory = try #require(Self.redisDirectory(in: run.stdout))
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    @Test func sigtermEndsThemToo() async throws {
        let run = try await Self.run(["--step"], whenPrinted: "(press Enter for step 1)") { _, child, _ in child.signal(SIGTERM) }
        #expect(run.status == 143)
        #expect(run.leftovers.isEmpty, "left running: \(run.leftovers)")
        #expect(!run.redisStillAnswers)
    }

    /// The pid of `worker N` from its `  worker N  pid P, ready` line.
    static func workerPid(_ number: Int, in output: String) -> pid_t? {
        guard let range = output.range(of: "worker \(number)  pid ") else { return nil }
        return pid_t(output[range.upperBound...].prefix { $0.isNumber })
    }

    @Test func aWorkerThatStopsAnsweringFailsItsStepAfterTheTimeout() async throws {
        let run = try await Self.run(["--step", "--timeout", "1"], whenPrinted: "(press Enter for step 1)") { output, _, input in
            guard let pid = Self.workerPid(1, in: output) else {
                Issue.record("no pid for worker 1 in \(output)")
                return
            }
            kill(pid, SIGSTOP) // alive, but answers nothing
            _ = write(input, "\n", 1)
        }
        #expect(run.status == 1)
        #expect(run.stderr.contains("redis-workers: step 1 did not hold: worker 1 did not answer within 1 s"), "\(run.stderr)")
        #expect(run.leftovers.isEmpty, "left running: \(run.leftovers)")
        #expect(!run.redisStillAnswers)
    }

    @Test func aWorkerThatDiesFailsItsStepAndSaysHow() async throws {
        let run = try await Self.run(["--step"], whenPrinted: "(press Enter for step 1)") { output, _, input in
            guard let pid = Self.workerPid(1, in: output) else {
                Issue.record("no pid for worker 1 in \(output)")
                return
            }
            kill(pid, SIGKILL)
            _ = write(input, "\n", 1)
        }
        #expect(run.status == 1)
        #expect(run.stderr.contains("redis-workers: step 1 did not hold: worker 1 stopped: killed by signal 9"), "\(run.stderr)")
        #expect(run.leftovers.isEmpty, "left running: \(run.leftovers)")
        #expect(!run.redisStillAnswers)
    }

    @Test func badArgumentsAreUsageErrors() async throws {
        for arguments in [["--nope"], ["--redis"], ["--redis", "ftp://example.com"], ["--timeout", "0"], ["--timeout", "soon"]] {
            let run = try await Self.run(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.contains("Usage: redis-workers"))
        }
        let help = try await Self.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("Usage: redis-workers [--redis URL] [--step] [--wrong-id] [--timeout SECONDS]"))
    }
}
