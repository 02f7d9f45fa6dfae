import Foundation
import Testing

/// A first run, as a new user makes it: the tool writes only under its own XDG places (and the
/// emulator's run directory), nothing else in the home, not even the empty directories Foundation
/// makes for its shared URL cache and cookie store (Sources/MSAL/Network/UnusedFoundationDirectories.swift).
@Suite(.serialized) struct FreshHomeTests {
    @Test func aFirstLoginAndTokenAgainstATenantWriteOnlyTheStateDirectory() throws {
        let emulator = try CLIEmulator()
        let login = try emulator.run(["login", "--username", "ada@example.com", "--password", "-"], input: CLIEmulator.adaPassword + "\n")
        #expect(login.status == 0, "\(login)")
        let token = try emulator.run(["token", "--scope", CLIEmulator.todolist, "--force-refresh"])
        #expect(token.status == 0, "\(token)")

        let home = emulator.home
        let ours = [emulator.config, home.stateHome + "/native-auth", home.runtimeDir]
        #expect(Self.outside(ours, in: home) == [])
    }

    @Test func theBackgroundEmulatorLeavesNothingOnceStopped() throws {
        let home = try ToolHome()
        let login = try home.run(
            ["--emulator", "login", "--username", "ada@example.com", "--password", "-"], input: CLIEmulator.adaPassword + "\n")
        #expect(login.status == 0, "\(login)")
        #expect(try home.run(["emulator", "stop"]).status == 0)
        #expect(Self.outside([home.runtimeDir], in: home) == [])
    }

    /// Every path under the home that is neither one of `places` nor inside one, nor a folder on
    /// the way to one.
    static func outside(_ places: [String], in home: ToolHome) -> [String] {
        let everything = (FileManager.default.subpaths(atPath: home.root) ?? []).map { home.root + "/" + $0 }
        return everything.filter { path in
            !places.contains { place in path == place || path.hasPrefix(place + "/") || place.hasPrefix(path + "/") }
        }.sorted()
    }
}
