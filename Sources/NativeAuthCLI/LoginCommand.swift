import Foundation
import MSAL

/// `native-auth login`: a new sign-in, or the continuation of a saved one (docs/cli.md#the-two-invocation-login).
struct LoginCommand {
    let global: GlobalOptions
    let options: LoginOptions
    let context: ToolContext
    let reporter: Reporter

    var prompting: Bool { !options.noPrompt }
    var terminal: any Terminal { context.terminal }

    func run() async throws(CLIError) {
        let session = try Session.resolve(global, context, startEmulator: true)
        let app = try session.application(context)
        let store = try session.flowStore(app, signInId: options.signInId)
        let answers = Answers(given: try givenAnswers(), prompting: prompting, terminal: terminal)
        let scopes = options.scopes
        var username = options.username ?? ""
        do throws(CLIError) {
            var outcome: LoginOutcome
            if isContinuation {
                let saved = try store.load()
                if !username.isEmpty, username.lowercased() != saved.username.lowercased() {
                    throw CLIError(.noSavedFlow, "the saved sign-in is for \(saved.username), not \(username)")
                }
                username = saved.username
                outcome = .pending(saved.step)
            } else {
                store.clear()
                guard let typed = options.username ?? (prompting ? terminal.readLine(prompt: "Email: ") : nil),
                    !typed.trimmingCharacters(in: .whitespaces).isEmpty
                else {
                    throw CLIError(.needsInput, "the sign-in needs a username: \(PendingStep.Needs.username.nextCommand)")
                }
                username = typed.trimmingCharacters(in: .whitespaces)
                outcome =
                    options.v2
                    ? try await startV2(app, username: username, scopes: scopes)
                    : try await start(app, username: username, scopes: scopes, answers: answers)
            }
            let flow = LoginDriver(username: username, answers: answers, reporter: reporter, terminal: terminal)
            while case .pending(let step) = outcome {
                do throws(CLIError) {
                    outcome = try await flow.advance(step)
                } catch  where error.code == .needsInput || error.keepsSavedFlow {
                    throw error.savedUnder(try store.save(step, username: username))
                }
            }
            store.clear()
            guard case .signedIn(let result) = outcome else { return }
            try Session.checkSaved(app)
            report(account: result.account)
        } catch  where error.code == .browserRequired && prompting {
            // Whichever step said so: the browser takes over, with the username as login hint.
            store.clear()
            reporter.note("The service requires a browser sign-in: \(error.message)")
            let result = try await BrowserSignIn.run(app, scopes: scopes, loginHint: username.isEmpty ? nil : username, terminal: terminal)
            try Session.checkSaved(app)
            report(account: result.account)
        } catch {
            if error.code != .needsInput, !error.keepsSavedFlow { store.clear() }
            throw error
        }
    }

    /// `--sign-in-id`, `--code`, `--method`, `--contact`, or `--password` without `--username`: continue the saved sign-in.
    var isContinuation: Bool {
        options.signInId != nil || options.code != nil || options.method != nil || options.contact != nil
            || options.password != nil && options.username == nil
    }

    private func givenAnswers() throws(CLIError) -> [PendingStep.Needs: String] {
        var given: [PendingStep.Needs: String] = [:]
        if var password = options.password {
            if password == "-" {
                guard let read = terminal.readSecret(prompt: "") else { throw CLIError(.usage, "--password -: stdin ended before a line") }
                password = read
            }
            given[.password] = password
        }
        given[.code] = options.code
        given[.method] = options.method
        given[.contact] = options.contact
        return given
    }

    private func start(
        _ app: MSALNativeAuthPublicClientApplication, username: String, scopes: [String], answers: Answers
    ) async throws(CLIError) -> LoginOutcome {
        let parameters = MSALNativeAuthSignInParameters(username: username)
        // A password given up front goes with the start: one call for a password account.
        if answers.has(.password), let given = answers.take(.password, prompt: "") { parameters.password = given.value }
        if !scopes.isEmpty { parameters.scopes = scopes }
        do {
            return PendingStep.after(try await app.signIn(parameters: parameters))
        } catch {
            throw ErrorMapping.native(error)
        }
    }

    /// `--v2`: native auth V2 (experimental). A `--password` is not sent up front: it answers the
    /// password step if the service asks for one, so V1 and V2 take the same options.
    private func startV2(_ app: MSALNativeAuthPublicClientApplication, username: String, scopes: [String]) async throws(CLIError)
        -> LoginOutcome
    {
        let parameters = MSALNativeAuthSignInParametersV2(username: username)
        if !scopes.isEmpty { parameters.scopes = scopes }
        let result: MSALNativeAuthFlowResult
        do { result = try await app.signInV2(parameters: parameters) } catch { throw ErrorMapping.native(error) }
        return try PendingStep.after(result)
    }

    private func report(account: MSALAccount) {
        reporter.note("Signed in as \(account.username ?? account.identifier ?? "the account").")
        reporter.result(account.username ?? account.identifier ?? "", ["status": "signed_in", "account": AccountJSON.object(account)])
    }
}

/// The account fields the tool shows.
enum AccountJSON {
    static func object(_ account: MSALAccount) -> [String: Any] {
        var object: [String: Any] = [:]
        object["username"] = account.username
        object["identifier"] = account.identifier
        object["environment"] = account.environment
        return object
    }
}
