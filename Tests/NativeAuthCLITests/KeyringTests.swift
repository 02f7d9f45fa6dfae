import Foundation
import TestSupport
import Testing

/// `--keyring`: native-auth keeps the tokens in
/// the Secret Service; without one the command fails instead of losing the tokens.
@Suite(.serialized) struct CLIKeyringTests {
    @Test func withoutASecretServiceKeyringIsAConfigurationError() throws {
        let emulator = try CLIEmulator() // its fresh runtime directory has no D-Bus socket, and there is no display
        let login = try emulator.run(["--keyring", "login", "--username", "ada@example.com", "--password", CLIEmulator.adaPassword])
        #expect(login.status == 3 && login.stderr.contains("keyring"), "\(login)")
        #expect(mode(emulator.appDirectory + "/token_cache.json") == -1, "no file instead")
        // A first run that failed leaves the home as it found it: no state directory, no ~/.cache.
        #expect(FreshHomeTests.outside([emulator.config, emulator.home.runtimeDir], in: emulator.home) == [])
        #expect(mode(emulator.appDirectory) == -1, "the state directory is removed again")
    }

    @Test func withoutARuntimeDirectoryAFailedKeyringStartLeavesNoCacheHome() throws {
        let emulator = try CLIEmulator()
        // Without XDG_RUNTIME_DIR, GLib falls back to the cache home for its runtime directory and makes it.
        emulator.home.extraEnvironment["XDG_RUNTIME_DIR"] = ""
        let login = try emulator.run(["--keyring", "login", "--username", "ada@example.com", "--password", CLIEmulator.adaPassword])
        #expect(login.status == 3 && login.stderr.contains("keyring"), "\(login)")
        #expect(FreshHomeTests.outside([emulator.config, emulator.home.runtimeDir], in: emulator.home) == [])
    }

    @Test func aFailedKeyringStartKeepsADirectoryThatExistedBefore() throws {
        let emulator = try CLIEmulator()
        #expect(try emulator.run(["login", "--username", "ada@example.com", "--password", CLIEmulator.adaPassword]).status == 0)
        let login = try emulator.run(["--keyring", "login", "--username", "ada@example.com", "--password", CLIEmulator.adaPassword])
        #expect(login.status == 3, "\(login)")
        #expect(mode(emulator.appDirectory + "/token_cache.json") == 0o600, "the file store's tokens stay")
        #expect(mode(emulator.appDirectory + "/token_cache.keyring-signal") == -1)
    }

    @Test(.enabled(if: KeyringSession.isPrivate, KeyringSession.reason))
    func tokensGoToTheKeyring() throws {
        let emulator = try CLIEmulator()
        emulator.home.extraEnvironment["DBUS_SESSION_BUS_ADDRESS"] = KeyringSession.environment["DBUS_SESSION_BUS_ADDRESS"]
        let login = try emulator.run(
            ["--keyring", "login", "--username", "ada@example.com", "--password", CLIEmulator.adaPassword, "--scope", CLIEmulator.todolist])
        #expect(login.status == 0, "\(login)")
        let token = try emulator.run(["--keyring", "token", "--scope", CLIEmulator.todolist])
        #expect(token.status == 0 && token.stdout.split(separator: ".").count == 3, "\(token)")
        #expect(mode(emulator.appDirectory + "/token_cache.json") == -1, "the tokens are not in a file")
        #expect(mode(emulator.appDirectory + "/token_cache.keyring-signal") == 0o600)
        let withoutKeyring = try emulator.run(["token", "--scope", CLIEmulator.todolist])
        #expect(withoutKeyring.status == 8, "the file store has no account: \(withoutKeyring)")
        let logout = try emulator.run(["--keyring", "logout"])
        #expect(logout.status == 0 && logout.stdout == "ada@example.com\n", "\(logout)")
        #expect(try emulator.run(["--keyring", "token", "--scope", CLIEmulator.todolist]).status == 8)
    }
}
