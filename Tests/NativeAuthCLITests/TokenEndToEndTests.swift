import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `token`, `status`, `accounts` and `logout` as a subprocess against the emulator.
@Suite(.serialized) struct TokenEndToEndTests {
    private func signedIn(scopes: [String] = []) throws -> CLIEmulator {
        let emulator = try CLIEmulator()
        let login = try emulator.run(
            ["login", "--username", "ada@example.com", "--password", CLIEmulator.adaPassword] + scopes.flatMap { ["--scope", $0] })
        try #require(login.status == 0, "\(login)")
        return emulator
    }

    @Test func tokensForTwoScopesAreTheTokenAloneAndServedFromTheCache() async throws {
        let emulator = try signedIn(scopes: [CLIEmulator.todolist])
        let before = try await emulator.tokenRequests()
        let todolist = try emulator.run(["token", "--scope", CLIEmulator.todolist])
        #expect(todolist.status == 0, "\(todolist)")
        let token = String(todolist.stdout.dropLast())
        #expect(
            todolist.stdout.hasSuffix("\n") && !token.contains("\n") && token.split(separator: ".").count == 3, "one JWT line: \(todolist)")
        #expect(todolist.stderr.isEmpty, "nothing else is said: \(todolist.stderr)")
        #expect(try await emulator.tokenRequests() == before, "the token from the sign-in is served from the cache")
        #expect(try await emulator.callAPI("/api/todolist", token: token) == 200)

        let profile = try emulator.run(["token", "--scope", CLIEmulator.profile])
        #expect(profile.status == 0, "\(profile)")
        let second = String(profile.stdout.dropLast())
        #expect(second != token && second.split(separator: ".").count == 3)
        #expect(try await emulator.tokenRequests() == before + 1, "a token for another API is one refresh")
        #expect(try await emulator.callAPI("/api/profile", token: second) == 200)
        #expect(try await emulator.callAPI("/api/profile", token: token) != 200, "each token is for its own API")

        let again = try emulator.run(["token", "--scope", CLIEmulator.profile, "--json"])
        #expect(again.status == 0 && again.json["access_token"] as? String == second, "\(again)")
        #expect((again.json["scopes"] as? [String])?.contains(CLIEmulator.profile) == true && again.json["expires_on"] is String)
        #expect(try await emulator.tokenRequests() == before + 1, "the second profile token is the cached one")

        let forced = try emulator.run(["token", "--scope", CLIEmulator.profile, "--force-refresh"])
        #expect(forced.status == 0 && forced.stdout != profile.stdout, "\(forced)")
    }

    @Test func statusAccountsAndLogoutInTextAndJSON() throws {
        let emulator = try signedIn()
        let status = try emulator.run(["status"])
        #expect(status.status == 0 && status.stdout.contains("account: ada@example.com"), "\(status)")
        let accounts = try emulator.run(["accounts", "--json"])
        let list = try #require(accounts.json["accounts"] as? [[String: Any]], "\(accounts)")
        #expect(list.compactMap { $0["username"] as? String } == ["ada@example.com"])
        #expect(try emulator.run(["accounts"]).stdout.hasPrefix("ada@example.com\t"))

        let logout = try emulator.run(["logout", "--json"])
        #expect(logout.status == 0, "\(logout)")
        #expect((logout.json["signed_out"] as? [[String: Any]])?.first?["username"] as? String == "ada@example.com")

        let token = try emulator.run(["token", "--scope", CLIEmulator.todolist])
        #expect(token.status == 8 && token.stdout.isEmpty, "\(token)")
        let after = try emulator.run(["status", "--json"])
        #expect(after.status == 8 && after.json["signed_in"] as? Bool == false, "\(after)")
        #expect(try emulator.run(["accounts"]).stdout.isEmpty)
        #expect(try emulator.run(["logout"]).status == 0, "signing out twice is not an error")
    }

    /// docs/cli.md: logout removes "any saved sign-in from this machine", the continuation token
    /// `login --no-prompt` saved included, whether or not an account is signed in.
    @Test func logoutRemovesASavedSignIn() throws {
        let emulator = try CLIEmulator()
        let saved = emulator.appDirectory + "/login-state.json"
        let waiting = try emulator.run(["login", "--no-prompt", "--username", "grace@example.com"])
        try #require(waiting.status == 4 && FileManager.default.fileExists(atPath: saved), "a sign-in waits for its code: \(waiting)")
        let logout = try emulator.run(["logout"])
        #expect(logout.status == 0, "\(logout)")
        #expect(!FileManager.default.fileExists(atPath: saved), "the saved sign-in is gone")
        let status = try emulator.run(["status", "--json"])
        #expect(status.json["waiting_sign_in"] == nil, "\(status)")
        let code = try emulator.run(["login", "--no-prompt", "--code", "12345678"])
        #expect(code.status == 9, "nothing is left to continue: \(code)")
    }

    @Test func aRevokedSignInNeedsALoginAgain() async throws {
        let emulator = try signedIn()
        let (status, _) = try await deleteSessions(emulator, "ada@example.com")
        #expect(status == 200)
        let token = try emulator.run(["token", "--scope", CLIEmulator.todolist, "--json"])
        #expect(token.status == 8, "\(token)")
        #expect(token.errorJSON["code"] as? String == "not_signed_in" && token.errorJSON["exit_status"] as? Int == 8, "\(token)")
        #expect(token.stdout.isEmpty)
    }

    private func deleteSessions(_ emulator: CLIEmulator, _ username: String) async throws -> (Int, Data) {
        var request = URLRequest(url: URL(string: emulator.server.baseURL + "/_emulator/sessions?username=\(username)")!)
        request.httpMethod = "DELETE"
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as! HTTPURLResponse).statusCode, data)
    }
}
