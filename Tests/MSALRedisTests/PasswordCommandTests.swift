import Foundation
import MSALRedis
import Testing

/// `MSALRedisPasswordCommand`: what a program prints becomes credentials, and every way it can go
/// wrong is a typed error that names the program and never what it printed.
@Suite struct PasswordCommandTests {
    static func failure(_ command: MSALRedisPasswordCommand) -> MSALRedisError? {
        do {
            _ = try command.credentials()
            return nil
        } catch {
            return error
        }
    }

    static func shell(_ script: String, timeLimit: TimeInterval = 30) -> MSALRedisPasswordCommand {
        MSALRedisPasswordCommand(["sh", "-c", script], timeLimit: timeLimit)
    }

    @Test func theFirstLineIsThePasswordAndItHoldsForTheRefreshInterval() throws {
        let before = Date()
        let credentials = try MSALRedisPasswordCommand(["printf", "s3cret\\r\\n"], username: "worker", refreshInterval: 600).credentials()
        #expect(credentials.password == "s3cret")
        #expect(credentials.username == "worker")
        let expiry = try #require(credentials.expiresOn)
        #expect(expiry >= before.addingTimeInterval(600) && expiry <= Date().addingTimeInterval(600))
    }

    @Test func aTokenExpiresAtItsExpiryAndNamesItsUser() throws {
        func part(_ object: [String: Any]) throws -> String {
            try JSONSerialization.data(withJSONObject: object).base64EncodedString()
                .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        }
        let token = try "\(part(["typ": "JWT"])).\(part(["exp": 1_900_000_000, "oid": "9f8e7d6c-0000-4000-8000-00000000abcd"])).c2ln"
        let credentials = try MSALRedisPasswordCommand(["echo", token]).credentials()
        #expect(credentials.password == token)
        #expect(credentials.username == "9f8e7d6c-0000-4000-8000-00000000abcd")
        #expect(credentials.expiresOn == Date(timeIntervalSince1970: 1_900_000_000))
        let named = try MSALRedisPasswordCommand(["echo", token], username: "app-user").credentials()
        #expect(named.username == "app-user")
    }

    @Test(arguments: [
        ("echo s3cret-out; exit 3", "failed (exit status 3)"),
        ("true", "printed no password"),
        ("printf 's3cret-out\\nsecond\\n'", "printed more than one line (it must print the password alone)"),
        ("head -c 100000 /dev/zero | tr '\\\\0' s", "printed more than 64 KiB"),
        ("echo s3cret-out; kill -KILL $$", "failed (signal 9)"),
    ])
    func aProgramThatDoesNotPrintOnePasswordIsAnAuthenticationErrorNamingIt(script: String, reason: String) throws {
        let error = try #require(Self.failure(Self.shell(script)))
        #expect(error.code == .authentication)
        #expect(error.message == "The Redis password command 'sh' \(reason)")
        #expect(!error.message.contains("s3cret"))
    }

    @Test(arguments: ["sleep 30", "exec >&-; sleep 30", "echo partial; sleep 30"])
    func aProgramThatOutlivesItsTimeLimitIsStopped(script: String) throws {
        let error = try #require(Self.failure(Self.shell(script, timeLimit: 0.3)))
        #expect(error.code == .authentication)
        #expect(error.message == "The Redis password command 'sh' did not finish within 0.3 s and was stopped")
    }

    @Test func aProgramThatIsNotThereIsAConfigurationError() throws {
        for arguments in [["no-such-program-msal"], ["/nonexistent/az"], [""], []] {
            let error = try #require(Self.failure(MSALRedisPasswordCommand(arguments)))
            #expect(error.code == .invalidConfiguration)
        }
    }

    /// What the program started is stopped with it: it runs in a process group of its own.
    @Test func whatTheProgramStartedIsStoppedWithIt() throws {
        let file = NSTemporaryDirectory() + "msal-grandchild-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let error = try #require(Self.failure(Self.shell("sleep 30 & echo $! > \(file); wait", timeLimit: 0.5)))
        #expect(error.message.hasSuffix("did not finish within 0.5 s and was stopped"))
        let pid = try #require(Int32(try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // Gone, or a zombie waiting for whoever reaps orphans here.
        func alive() -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
            return !(stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") ?? true)
        }
        let end = Date().addingTimeInterval(10)
        while alive() && Date() < end { usleep(20_000) }
        #expect(!alive(), "the program's child \(pid) outlived it")
        if alive() { kill(pid, SIGKILL) }
    }
}
