import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `--emulator`: the background native-auth-emulator that later invocations share, its mailbox,
/// and `emulator stop`.
@Suite(.serialized) struct EmulatorModeTests {
    @Test func aCodeLoginAgainstTheBackgroundEmulatorThenStop() throws {
        let home = try ToolHome()
        let first = try home.run(["--emulator", "login", "--no-prompt", "--username", "grace@example.com"])
        #expect(first.status == 4 && first.stderr.contains("Started the emulator"), "\(first)")
        // The V1 accounts and the V2-only ones, as the demo names them.
        for account in ["ada@example.com", "katherine@example.com", "barbara@example.com", "hedy@example.com", "margaret@example.com"] {
            #expect(first.stderr.contains(account), "\(account) is not listed")
        }

        let status = try home.run(["emulator", "status", "--json"])
        #expect(status.status == 0 && status.json["running"] as? Bool == true, "\(status)")
        let pid = try #require(status.json["pid"] as? Int)
        let directory = home.runtimeDir + "/native-auth/emulator"
        #expect(mode(home.runtimeDir + "/native-auth") == 0o700 && mode(directory) == 0o700)
        for file in ["config.json", "emulator.json", "emulator.log", "login-state.json"] {
            #expect(mode(directory + "/" + file) == 0o600, "\(file)")
        }

        let mailbox = try home.run(["emulator", "mailbox", "grace@example.com"])
        #expect(mailbox.status == 0 && mailbox.stdout.contains("sign_in"), "\(mailbox)")
        let code = try home.run(["emulator", "mailbox", "grace@example.com", "--latest"])
        #expect(code.status == 0 && code.stdout.count == 9, "\(code)")

        let second = try home.run(["--emulator", "login", "--no-prompt", "--code", String(code.stdout.dropLast())])
        #expect(second.status == 0 && second.stdout == "grace@example.com\n" && !second.stderr.contains("Started"), "\(second)")
        let token = try home.run(["--emulator", "token"]) // api1 of the emulator's configuration
        #expect(token.status == 0 && token.stdout.split(separator: ".").count == 3, "\(token)")

        let stop = try home.run(["emulator", "stop"])
        #expect(stop.status == 0, "\(stop)")
        #expect(!isLive(Int32(pid)), "the emulator process is gone")
        #expect(mode(directory + "/token_cache.json") == -1 && mode(directory + "/config.json") == -1, "its tokens and files are gone")
        let after = try home.run(["--emulator", "token"])
        #expect(after.status == 8, "\(after)")
        let stopped = try home.run(["emulator", "status"])
        #expect(stopped.status == 1 && stopped.stdout == "not running\n", "\(stopped)")
    }
}

/// Whether `pid` runs: not gone, and not a zombie (a container's init may be slow to reap it).
private func isLive(_ pid: Int32) -> Bool {
    FileManager.default.fileExists(atPath: "/proc/\(pid)/stat") && !isZombie(pid)
}
