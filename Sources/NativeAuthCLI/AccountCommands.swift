import Foundation
import MSAL

/// `native-auth status`, `accounts` and `logout`: the token cache's accounts and the saved sign-in.
struct AccountCommands {
    let global: GlobalOptions
    let context: ToolContext
    let reporter: Reporter

    func status() async throws(CLIError) {
        guard let session = try sessionIfAny() else {
            reporter.result("not signed in (the emulator is not running)", ["signed_in": false])
            throw CLIError(.notSignedIn, "no account is signed in: the emulator is not running")
        }
        let app = try session.application(context)
        let account = app.getNativeAuthUserAccount()?.account
        let pending = FlowStore.peek(session.flowFile)
        var lines: [String] = []
        lines.append("account: " + (account.map { $0.username ?? $0.identifier ?? "?" } ?? "none (not signed in)"))
        lines.append("client id: \(session.configuration.clientId)")
        lines.append("authority: \(session.authority)")
        lines.append("token cache: " + session.tokenCacheDescription)
        if let pending { lines.append("waiting sign-in: \(pending.username), step \(pending.step)") }
        var object: [String: Any] = [
            "signed_in": account != nil, "client_id": session.configuration.clientId,
            "authority": session.authority,
            "token_cache": session.usesKeyring ? "keyring" : session.usesRedis ? "redis" : session.cacheFile,
        ]
        object["account"] = account.map(AccountJSON.object)
        object["waiting_sign_in"] = pending.map { ["username": $0.username, "step": $0.step] }
        reporter.result(lines.joined(separator: "\n"), object)
        if account == nil { throw CLIError(.notSignedIn, "no account is signed in") }
    }

    func accounts() async throws(CLIError) {
        guard let session = try sessionIfAny() else {
            reporter.result("", ["accounts": [Any]()])
            return
        }
        let list = try allAccounts(try session.application(context))
        reporter.result(
            list.map { "\($0.username ?? "")\t\($0.identifier ?? "")" }.joined(separator: "\n"), ["accounts": list.map(AccountJSON.object)])
    }

    func logout(_ options: LogoutOptions) async throws(CLIError) {
        guard let session = try sessionIfAny() else {
            reporter.result("", ["signed_out": [Any]()])
            return
        }
        let app = try session.application(context)
        FlowStore(path: session.flowFile, app: app).clear()
        let removed: [MSALAccount]
        if options.all {
            removed = try allAccounts(app)
        } else {
            removed = app.getNativeAuthUserAccount().map { [$0.account] } ?? []
        }
        for account in removed {
            do { try app.remove(account) } catch {
                throw CLIError(
                    .failure, "cannot remove \(account.username ?? "the account") from the token cache: \(error.localizedDescription)")
            }
        }
        reporter.note(removed.isEmpty ? "No account was signed in." : "Signed out: the tokens are removed from this machine.")
        reporter.result(
            removed.map { $0.username ?? $0.identifier ?? "" }.joined(separator: "\n"), ["signed_out": removed.map(AccountJSON.object)])
    }

    /// The session, or nil in emulator mode when no emulator runs (then no account is signed in).
    private func sessionIfAny() throws(CLIError) -> Session? {
        do {
            return try Session.resolve(global, context, startEmulator: false)
        } catch  where error.code == .notSignedIn && global.emulator {
            return nil
        }
    }

    private func allAccounts(_ app: MSALNativeAuthPublicClientApplication) throws(CLIError) -> [MSALAccount] {
        do { return try app.allAccounts() } catch {
            throw CLIError(.failure, "the token cache cannot be read: \(error.localizedDescription)")
        }
    }
}
