import Foundation
import TestSupport
import Testing

/// The built `native-auth` with `"token_cache": "redis"` and `"saved_sign_ins": "redis"` against a
/// real `redis-server` the test starts and the emulator: two homes with their own configuration
/// files on one Redis stand for two machines (docs/cli.md#redis).
@Suite(.serialized) struct RedisEndToEndTests {
    /// The emulator, a Redis server, and two "machines" whose configurations point at both.
    struct TwoMachines {
        let emulator: CLIEmulator
        let redis: RedisServer
        let second: ToolHome
        let firstConfig: String
        let secondConfig: String

        init(redisOptions: RedisServer.Options = RedisServer.Options(), key: Data? = Data(repeating: 7, count: 32)) throws {
            emulator = try CLIEmulator()
            redis = try RedisServer(redisOptions)
            second = try ToolHome()
            var settings: [String: Any] = ["url": redis.url, "key_prefix": "cli-test:"]
            if let tls = redisOptions.tls { settings["ca_file"] = tls.caCertificate }
            if let key {
                let file = emulator.home.root + "/redis.key"
                try key.write(to: URL(fileURLWithPath: file))
                settings["encryption_key_file"] = file
            }
            firstConfig = try emulator.home.writeConfig(Self.config(emulator, settings), name: "redis.json")
            secondConfig = try second.writeConfig(Self.config(emulator, settings), name: "redis.json")
        }

        static func config(_ emulator: CLIEmulator, _ settings: [String: Any]) -> [String: Any] {
            [
                "client_id": emulator.server.router.seed.apps[0].clientId, "authority": emulator.server.authority,
                "api1": ["url": emulator.server.baseURL + "/api/todolist", "scopes": [CLIEmulator.todolist]],
                "token_cache": "redis", "saved_sign_ins": "redis", "redis": settings,
            ]
        }

        func onFirst(_ arguments: [String], input: String = "") throws -> ToolResult {
            try emulator.home.run(["--config", firstConfig] + arguments, input: input)
        }

        func onSecond(_ arguments: [String], input: String = "") throws -> ToolResult {
            try second.run(["--config", secondConfig] + arguments, input: input)
        }
    }

    @Test func twoMachinesShareTheSignedInAccount() async throws {
        let machines = try TwoMachines()
        let login = try machines.onFirst(
            ["login", "--username", "ada@example.com", "--password", "-"], input: CLIEmulator.adaPassword + "\n")
        #expect(login.status == 0 && login.stdout == "ada@example.com\n", "\(login)")

        let token = try machines.onSecond(["token"])
        #expect(token.status == 0 && token.stdout.count > 100, "the other machine has the account: \(token)")
        let status = try machines.onSecond(["status", "--json"])
        #expect(status.status == 0 && status.json["token_cache"] as? String == "redis", "\(status)")
        #expect((status.json["account"] as? [String: Any])?["username"] as? String == "ada@example.com", "\(status)")
        let requests = try await machines.emulator.tokenRequests()
        #expect(try machines.onSecond(["token"]).status == 0)
        #expect(try await machines.emulator.tokenRequests() == requests, "the second token is the cached one, from Redis")
        let accessToken = token.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await machines.emulator.callAPI("/api/todolist", token: accessToken) == 200)

        for home in [machines.emulator.home, machines.second] {
            let files = FileManager.default.subpaths(atPath: home.stateHome) ?? []
            #expect(!files.contains { $0.hasSuffix("token_cache.json") }, "no token file: \(files)")
        }
        // Sealed at rest: no token in Redis as it is; a machine with another key reads nothing it can use.
        let dump = try ChildProcess.runBlocking(
            "/usr/bin/redis-cli", ["-p", String(machines.redis.port), "--scan", "--pattern", "cli-test:tc:*"], limit: 10)
        #expect(dump.stdout.contains("cli-test:tc:{"), "the entries are under the key prefix: \(dump.stdout)")
        let otherKey = machines.emulator.home.root + "/other.key"
        try Data(repeating: 9, count: 32).write(to: URL(fileURLWithPath: otherKey))
        var settings: [String: Any] = ["url": "redis://127.0.0.1:\(machines.redis.port)", "key_prefix": "cli-test:"]
        settings["encryption_key_file"] = otherKey
        let other = try machines.second.writeConfig(TwoMachines.config(machines.emulator, settings), name: "other-key.json")
        let refused = try machines.second.run(["--config", other, "token"])
        #expect(refused.status == 1 && !refused.stdout.contains("ey"), "another key opens nothing: \(refused)")

        let logout = try machines.onSecond(["logout"])
        #expect(logout.status == 0, "\(logout)")
        #expect(try machines.onFirst(["token"]).status == 8, "signed out on both machines")
    }

    @Test func aSavedSignInIsContinuedOnAnotherMachineOnce() async throws {
        let machines = try TwoMachines()
        let started = try machines.onFirst(["login", "--no-prompt", "--username", "grace@example.com"])
        #expect(started.status == 4, "\(started)")
        let id = started.stdout.trimmingCharacters(in: .newlines)
        #expect(id.count == 32 && id.allSatisfy(\.isHexDigit), "the id is the result, on stdout: \(started)")
        #expect(started.stderr.contains("native-auth login --sign-in-id ID --code CODE"), "\(started)")
        #expect(!started.stderr.contains(id), "the id, which continues the sign-in, is not in the message")
        #expect(!FileManager.default.fileExists(atPath: machines.emulator.appDirectory + "/login-state.json"), "nothing saved locally")

        let wrong = try machines.onSecond(["login", "--no-prompt", "--sign-in-id", id, "--code", "00000000"])
        #expect(wrong.status == 5, "\(wrong)")
        let kept = wrong.stdout.trimmingCharacters(in: .newlines)
        #expect(kept.count == 32 && kept != id, "a wrong code keeps the sign-in, under a new id: \(wrong)")

        let code = try await machines.emulator.lastCode("grace@example.com")
        let finished = try machines.onSecond(["login", "--no-prompt", "--sign-in-id", kept, "--code", code, "--json"])
        #expect(finished.status == 0 && finished.json["status"] as? String == "signed_in", "\(finished)")
        let again = try machines.onFirst(["login", "--no-prompt", "--sign-in-id", kept, "--code", code])
        #expect(again.status == 9 && again.stderr.contains("already continued"), "an id continues once: \(again)")
        let old = try machines.onFirst(["login", "--no-prompt", "--sign-in-id", id, "--code", code])
        #expect(old.status == 9, "the first id was used up by the wrong code: \(old)")
        #expect(try machines.onFirst(["token"]).status == 0, "the sign-in finished on the second machine serves the first")

        let json = try machines.onFirst(["login", "--no-prompt", "--username", "grace@example.com", "--json"])
        #expect(json.status == 4 && (json.json["sign_in_id"] as? String)?.count == 32, "\(json)")
        #expect((json.json["next"] as? String)?.contains("--sign-in-id ID") == true, "\(json)")
        let noID = try machines.onFirst(["login", "--no-prompt", "--code", code])
        #expect(noID.status == 2 && noID.stderr.contains("--sign-in-id"), "\(noID)")
    }

    /// A machine whose key is another (a rolling deploy, a typo) cannot open a saved sign-in and
    /// leaves it in Redis: the machine with the right key continues it afterwards.
    @Test func aMachineWithAnotherKeyLeavesTheSavedSignInForTheRightOne() async throws {
        let machines = try TwoMachines()
        let started = try machines.onFirst(["login", "--no-prompt", "--username", "grace@example.com"])
        #expect(started.status == 4, "\(started)")
        let id = started.stdout.trimmingCharacters(in: .newlines)
        let code = try await machines.emulator.lastCode("grace@example.com")

        let otherKey = machines.second.root + "/other.key"
        try Data(repeating: 9, count: 32).write(to: URL(fileURLWithPath: otherKey))
        let settings: [String: Any] = ["url": machines.redis.url, "key_prefix": "cli-test:", "encryption_key_file": otherKey]
        let other = try machines.second.writeConfig(TwoMachines.config(machines.emulator, settings), name: "other-key.json")
        let refused = try machines.second.run(["--config", other, "login", "--no-prompt", "--sign-in-id", id, "--code", code])
        #expect(refused.status == 9 && refused.stderr.contains("cannot be opened"), "\(refused)")

        let finished = try machines.onSecond(["login", "--no-prompt", "--sign-in-id", id, "--code", code])
        #expect(finished.status == 0 && finished.stdout == "grace@example.com\n", "the right key still continues it: \(finished)")
    }

    /// MFA across three invocations on alternating machines: each waiting step is saved under a new
    /// id, and the id of a step already continued is refused.
    @Test func mfaStepsAlternateBetweenMachines() async throws {
        let machines = try TwoMachines()
        let first = try machines.onFirst(
            ["login", "--no-prompt", "--json", "--username", "alan@example.com", "--password", CLIEmulator.alanPassword])
        let methodID = try #require(first.json["sign_in_id"] as? String, "\(first)")
        #expect(first.status == 4 && first.json["needs"] as? String == "method", "\(first)")
        let second = try machines.onSecond(["login", "--no-prompt", "--json", "--sign-in-id", methodID, "--method", "sms"])
        let codeID = try #require(second.json["sign_in_id"] as? String, "\(second)")
        #expect(second.status == 4 && second.json["needs"] as? String == "code" && codeID != methodID, "\(second)")
        let replayed = try machines.onFirst(["login", "--no-prompt", "--sign-in-id", methodID, "--method", "sms"])
        #expect(replayed.status == 9, "the method step was continued once already: \(replayed)")
        let code = try await machines.emulator.lastCode("alan@example.com")
        let third = try machines.onFirst(["login", "--no-prompt", "--sign-in-id", codeID, "--code", code])
        #expect(third.status == 0 && third.stdout == "alan@example.com\n", "\(third)")
        let status = try machines.onSecond(["status"])
        #expect(status.status == 0 && status.stdout.contains("token cache: redis"), "\(status)")
    }

    /// TLS and AES-256-GCM through OpenSSL loaded at its first use (Sources/LazyOpenSSL): a saved
    /// sign-in and the tokens over rediss://, sealed; a certificate for another host is status 3.
    @Test func overTLSWithAKey() async throws {
        let machines = try TwoMachines(redisOptions: RedisServer.Options(tls: try TLSFiles()))
        let started = try machines.onFirst(["login", "--no-prompt", "--username", "grace@example.com"])
        #expect(started.status == 4, "\(started)")
        let code = try await machines.emulator.lastCode("grace@example.com")
        let finished = try machines.onSecond(
            ["login", "--no-prompt", "--sign-in-id", started.stdout.trimmingCharacters(in: .newlines), "--code", code])
        #expect(finished.status == 0, "\(finished)")
        let token = try machines.onFirst(["token"])
        #expect(token.status == 0 && token.stdout.count > 100, "\(token)")

        let elsewhere = try TLSFiles(names: "DNS:elsewhere.example")
        let wrongHost = try RedisServer(RedisServer.Options(tls: elsewhere))
        let config = try machines.second.writeConfig(
            TwoMachines.config(machines.emulator, ["url": wrongHost.url, "ca_file": elsewhere.caCertificate]), name: "elsewhere.json")
        let refused = try machines.second.run(["--config", config, "token"])
        #expect(refused.status == 3 && refused.stderr.contains("Redis server cannot be used"), "\(refused)")
    }

    /// native-auth asks for neither libssl nor libcrypto at start (docs/cli.md#redis): its own
    /// dependencies, as the dynamic loader reads them.
    @Test func nativeAuthDoesNotLinkOpenSSLAtStart() throws {
        let result = try ChildProcess.runBlocking("/usr/bin/readelf", ["-d", ToolHome.binary], limit: 60)
        let needed = result.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(result.status == 0 && !needed.isEmpty, "\(result.stderr)")
        #expect(!needed.contains { $0.contains("libssl") || $0.contains("libcrypto") }, "\(needed)")
    }

    @Test func redisDownOrAWrongPasswordIsAClearStatus() throws {
        let emulator = try CLIEmulator()
        let port = RedisServer.freePort()
        var object = TwoMachines.config(emulator, ["url": "redis://127.0.0.1:\(port)"])
        let down = try emulator.home.run(["--config", try emulator.home.writeConfig(object, name: "down.json"), "token"])
        #expect(down.status == 7 && down.stderr.contains("Redis server cannot be reached"), "\(down)")
        let downLogin = try emulator.home.run(
            [
                "--config", try emulator.home.writeConfig(object, name: "down.json"), "login", "--no-prompt", "--username",
                "grace@example.com",
            ])
        #expect(downLogin.status == 7, "\(downLogin)")

        let redis = try RedisServer(RedisServer.Options(aclUser: ("worker", "correct-horse")))
        let passwordFile = emulator.home.root + "/redis.password"
        try "Wrong-Horse-42\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        object["redis"] = ["url": "redis://worker@127.0.0.1:\(redis.port)", "password_file": passwordFile]
        let config = try emulator.home.writeConfig(object, name: "acl.json")
        let wrong = try emulator.home.run(["--config", config, "token", "--json"])
        #expect(wrong.status == 3 && wrong.errorJSON["code"] as? String == "configuration", "\(wrong)")
        #expect((wrong.errorJSON["message"] as? String)?.contains("refused the credentials") == true, "\(wrong)")
        #expect(!wrong.stderr.contains("Wrong-Horse-42") && !wrong.stderr.contains("correct-horse"))

        try "correct-horse\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        let right = try emulator.home.run(["--config", config, "token"])
        #expect(right.status == 8, "the password is read from the file's first line; no account yet: \(right)")

        // The password printed by a command: one that works, one that fails (named, its output never shown).
        object["redis"] = ["url": "redis://worker@127.0.0.1:\(redis.port)", "password_command": ["cat", passwordFile]]
        let command = try emulator.home.run(["--config", try emulator.home.writeConfig(object, name: "command.json"), "token"])
        #expect(command.status == 8, "the password is what the command prints; no account yet: \(command)")
        object["redis"] = ["url": "redis://worker@127.0.0.1:\(redis.port)", "password_command": ["sh", "-c", "echo Leaked-Horse; exit 4"]]
        let failing = try emulator.home.run(["--config", try emulator.home.writeConfig(object, name: "failing.json"), "token", "--json"])
        #expect(failing.status == 3 && failing.errorJSON["code"] as? String == "configuration", "\(failing)")
        #expect((failing.errorJSON["message"] as? String)?.contains("password command 'sh' failed (exit status 4)") == true, "\(failing)")
        #expect(!failing.stderr.contains("Leaked-Horse"))
    }

    /// One process runs its password command once, although its token cache and its saved sign-in
    /// both use Redis: they share one client (`LazyRedisBackend`, Sources/NativeAuthCLI/RedisBackend.swift).
    @Test func oneProcessRunsItsPasswordCommandOnce() throws {
        let emulator = try CLIEmulator()
        let redis = try RedisServer(RedisServer.Options(aclUser: ("worker", "correct-horse")))
        let root = emulator.home.root
        try "correct-horse\n".write(toFile: root + "/redis.password", atomically: true, encoding: .utf8)
        let asked = root + "/asked"
        let command = ["sh", "-c", "echo . >> '\(asked)'; cat '\(root)/redis.password'"]
        let object = TwoMachines.config(emulator, ["url": "redis://worker@127.0.0.1:\(redis.port)", "password_command": command])
        let config = try emulator.home.writeConfig(object, name: "command.json")
        let started = try emulator.home.run(["--config", config, "login", "--no-prompt", "--username", "grace@example.com"])
        #expect(started.status == 4, "a sign-in saved in Redis, with the token cache there too: \(started)")
        #expect((try? String(contentsOfFile: asked, encoding: .utf8))?.split(separator: "\n").count == 1)
    }

    /// A Redis that accepts connections and never answers: `token` gives up within the command
    /// timeout (2 s, docs/redis.md#connections) as a whole, `AUTH` and `SELECT` included.
    @Test func aRedisThatNeverAnswersIsStatus7WithinTheCommandTimeout() throws {
        let emulator = try CLIEmulator()
        let silent = try SilentServer()
        let passwordFile = emulator.home.root + "/redis.password"
        try "secret\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        let object = TwoMachines.config(emulator, ["url": silent.url + "/2", "password_file": passwordFile])
        let config = try emulator.home.writeConfig(object, name: "silent.json")
        let start = Date()
        let token = try emulator.home.run(["--config", config, "token"])
        let time = Date().timeIntervalSince(start)
        #expect(token.status == 7 && token.stderr.contains("did not answer"), "\(token)")
        #expect(time >= 1.8 && time < 3.6, "gave up after \(time) s, where the command timeout is 2 s")
    }

    @Test func redisSettingsThatCannotBeUsedAreConfigurationErrors() throws {
        let emulator = try CLIEmulator()
        let root = emulator.home.root
        try Data(repeating: 1, count: 16).write(to: URL(fileURLWithPath: root + "/short.key"))
        try (String(repeating: "ab", count: 32) + "\n").write(toFile: root + "/hex.key", atomically: true, encoding: .utf8)
        let cases: [([String: Any], String)] = [
            (["url": "redis://127.0.0.1:1", "password_file": root + "/missing"], "field 'redis.password_file'"),
            (["url": "redis://127.0.0.1:1", "encryption_key_file": root + "/short.key"], "must hold 32 bytes or 64 hex digits"),
            (
                ["url": "redis://127.0.0.1:1", "encryption_key_file": root + "/missing"],
                "field 'redis.encryption_key_file'"
            ),
            (["url": "redis://127.0.0.1:99999"], "field 'redis.url'"),
            (["url": "rediss://127.0.0.1:1", "ca_file": root + "/missing.pem"], "'redis'"),
            (["url": "redis://127.0.0.1:1", "colour": "red"], "unknown field 'redis.colour'"),
        ]
        for (settings, expected) in cases {
            let config = try emulator.home.writeConfig(TwoMachines.config(emulator, settings), name: "bad.json")
            let result = try emulator.home.run(["--config", config, "token"])
            #expect(result.status == 3 && result.stderr.contains(expected), "\(settings): \(result)")
        }
        let hex = try emulator.home.writeConfig(
            TwoMachines.config(emulator, ["url": "redis://127.0.0.1:\(RedisServer.freePort())", "encryption_key_file": root + "/hex.key"]),
            name: "hex.json")
        #expect(try emulator.home.run(["--config", hex, "token"]).status == 7, "64 hex digits are a key: the next problem is the server")
        var savedOnly = TwoMachines.config(emulator, ["url": "redis://127.0.0.1:1", "password_file": root + "/missing"])
        savedOnly["token_cache"] = "file"
        let token = try emulator.home.run(["--config", try emulator.home.writeConfig(savedOnly, name: "saved-only.json"), "token"])
        #expect(token.status == 8, "token on the file never uses the Redis of saved sign-ins: \(token)")
        let fileConfig = try emulator.run(["login", "--no-prompt", "--sign-in-id", String(repeating: "a", count: 32), "--code", "1"])
        #expect(fileConfig.status == 2 && fileConfig.stderr.contains("saved_sign_ins"), "\(fileConfig)")
    }
}
