import Foundation
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL
@testable import NativeAuthEmulator

/// The harness of the strong-auth end-to-end tests: the emulator and the app (`World`), one shape
/// for the outcome of a step in either form (`Outcome`), a driver that runs each step in the form
/// under test (`Driver`), and the checks the tests share.
extension StrongAuthEndToEndTests {
    // MARK: The emulator and the app

    final class World {
        let harness: H
        let server: EmulatorServer?
        private var counter = 0

        init(seed: Seed = .demo, wire: Wire = .inProcess) throws {
            harness = try H(seed: seed)
            server = wire == .loopback ? try EmulatorServer(router: harness.router, port: 0) : nil
        }

        func stop() { server?.stop() }

        func app(clientId: String = H.passwordApp, capabilities: MSALNativeAuthCapabilities = both) throws
            -> MSALNativeAuthPublicClientApplication
        {
            let authority = server?.authority ?? harness.router.authority(baseURL: "http://127.0.0.1:1")
            let config = MSALNativeAuthPublicClientApplicationConfig(
                clientId: clientId, authority: try MSALCIAMAuthority(url: URL(string: authority)!), challengeTypes: [.OOB, .password])
            config.capabilities = capabilities
            config.tokenCacheLocation = .inMemory
            if server == nil { config.transport = EmulatorTransport(router: harness.router) }
            return try MSALNativeAuthPublicClientApplication(configuration: config, clock: InstantClock(), uuid: { UUID() })
        }

        /// The endpoints of the requests the emulator answered since the log was last cleared.
        var endpoints: [String] { requests.compactMap { $0["endpoint"] as? String } }
        var requests: [[String: Any]] { harness.hook("GET", "requests").list }
        func clearLog() { _ = harness.hook("DELETE", "requests") }

        func mails(_ username: String) -> [[String: Any]] { harness.hook("GET", "mailbox", query: ["username": username]).list }
        func code(_ username: String) -> String { harness.lastCode(username) ?? "" }

        /// A new user who must pass MFA, with these methods (none: registers one first); without a password, one who signs in with
        /// email codes.
        func addUser(_ prefix: String, password: Bool = true, methods: [[String: Any]] = []) throws -> String {
            counter += 1
            let username = "\(prefix).\(counter)@example.com"
            var json: [String: Any] = ["username": username, "mfa_required": true]
            if password { json["password"] = StrongAuthEndToEndTests.password }
            if !methods.isEmpty { json["strong_auth_methods"] = methods }
            try #require(harness.hook("POST", "users", json: json).status == 201)
            return username
        }
    }

    nonisolated static let password = "Strong-Auth-Works-2026"

    final class InstantClock: NativeAuthClock {
        func now() -> Date { Date() }
        func sleep(seconds: Double) async throws {}
    }

    // MARK: One shape for both forms

    /// What a step led to, whichever form reported it. `retry` is the state to go on with after a
    /// failure: the state called (async form) or the `newState` the delegate was handed.
    enum Outcome: Sendable {
        case signedIn(MSALNativeAuthUserAccountResult)
        case codeRequired(SignInCodeRequiredState)
        case passwordRequired(SignInPasswordRequiredState)
        case awaitingMFA([MSALAuthMethod], AwaitingMFAState)
        case registration([MSALAuthMethod], RegisterStrongAuthState)
        case mfaCodeSent(MFARequiredState, sentTo: String, channel: String, codeLength: Int)
        case registrationCodeSent(RegisterStrongAuthVerificationRequiredState, sentTo: String, channel: String, codeLength: Int)
        case failed(MSALNativeAuthError, retry: (any AnyObject & Sendable)?)
        case other(String)

        init(_ result: SignInStepResult) {
            switch result {
            case .completed(let result): self = .signedIn(result)
            case .awaitingMFA(let methods, let state): self = .awaitingMFA(methods, state)
            case .strongAuthMethodRegistration(let methods, let state): self = .registration(methods, state)
            }
        }

        init(_ event: RecordingSignInDelegate.Event) {
            switch event {
            case .startError(let error): self = .failed(error, retry: nil)
            case .codeRequired(let state, _, _, _): self = .codeRequired(state)
            case .passwordRequired(let state): self = .passwordRequired(state)
            case .completed(let result): self = .signedIn(result)
            case .passwordError(let error, let state): self = .failed(error, retry: state)
            case .verifyCodeError(let error, let state): self = .failed(error, retry: state)
            case .awaitingMFA(let methods, let state): self = .awaitingMFA(methods, state)
            case .strongAuthMethodRegistration(let methods, let state): self = .registration(methods, state)
            case .mfaVerificationRequired(let state, let sentTo, let channel, let codeLength):
                self = .mfaCodeSent(state, sentTo: sentTo, channel: channel, codeLength: codeLength)
            case .mfaRequestError(let error, let state): self = .failed(error, retry: state)
            case .mfaSubmitError(let error, let state): self = .failed(error, retry: state)
            case .registerVerificationRequired(let result):
                self = .registrationCodeSent(
                    result.newState, sentTo: result.sentTo, channel: result.channelTargetType.value, codeLength: result.codeLength)
            case .registerChallengeError(let error, let state): self = .failed(error, retry: state)
            case .registerSubmitError(let error, let state): self = .failed(error, retry: state)
            case .resendError, .resendCodeRequired: self = .other(event.name)
            }
        }

        var error: MSALNativeAuthError? {
            if case .failed(let error, _) = self { return error }
            return nil
        }
    }

    /// The sign-in after a sign-up or a reset, in the delegate form.
    @MainActor final class AfterFlowRecorder: SignInAfterSignUpDelegate, SignInAfterResetPasswordDelegate {
        private var waiter: CheckedContinuation<Outcome, Never>?
        private(set) var outcomes: [Outcome] = []

        func next() async -> Outcome {
            if let first = outcomes.first { return first }
            return await withCheckedContinuation { waiter = $0 }
        }

        private func deliver(_ outcome: Outcome) {
            outcomes.append(outcome)
            waiter?.resume(returning: outcome)
            waiter = nil
        }

        func onSignInAfterSignUpError(error: SignInAfterSignUpError) { deliver(.failed(error, retry: nil)) }
        func onSignInAfterResetPasswordError(error: SignInAfterResetPasswordError) { deliver(.failed(error, retry: nil)) }
        func onSignInCompleted(result: MSALNativeAuthUserAccountResult) { deliver(.signedIn(result)) }
        func onSignInAwaitingMFA(authMethods: [MSALAuthMethod], newState: AwaitingMFAState) {
            deliver(.awaitingMFA(authMethods, newState))
        }
        func onSignInStrongAuthMethodRegistration(authMethods: [MSALAuthMethod], newState: RegisterStrongAuthState) {
            deliver(.registration(authMethods, newState))
        }
    }

    /// Runs each step in one form; the delegate form checks that exactly one callback arrived.
    @MainActor struct Driver {
        let form: Form

        private func delegated(_ start: (RecordingSignInDelegate) -> Void) async -> Outcome {
            let delegate = RecordingSignInDelegate()
            start(delegate)
            let event = await delegate.waitForEvent()
            await Task.yield()
            #expect(delegate.events.count == 1, "one callback: \(delegate.events.map(\.name))")
            return Outcome(event)
        }

        func signIn(_ app: MSALNativeAuthPublicClientApplication, _ username: String, password: String? = nil) async -> Outcome {
            let parameters = MSALNativeAuthSignInParameters(username: username)
            parameters.password = password
            switch form {
            case .async:
                do {
                    switch try await app.signIn(parameters: parameters) {
                    case .completed(let result): return .signedIn(result)
                    case .codeRequired(let state, _, _, _): return .codeRequired(state)
                    case .passwordRequired(let state): return .passwordRequired(state)
                    case .awaitingMFA(let methods, let state): return .awaitingMFA(methods, state)
                    case .strongAuthMethodRegistration(let methods, let state): return .registration(methods, state)
                    }
                } catch { return .failed(error, retry: nil) }
            case .delegate:
                return await delegated { app.signIn(parameters: parameters, delegate: $0) }
            }
        }

        func submitCode(_ state: SignInCodeRequiredState, _ code: String) async -> Outcome {
            switch form {
            case .async:
                do { return Outcome(try await state.submitCode(code: code)) } catch { return .failed(error, retry: state) }
            case .delegate: return await delegated { state.submitCode(code: code, delegate: $0) }
            }
        }

        func submitPassword(_ state: SignInPasswordRequiredState, _ password: String) async -> Outcome {
            switch form {
            case .async:
                do { return Outcome(try await state.submitPassword(password: password)) } catch { return .failed(error, retry: state) }
            case .delegate: return await delegated { state.submitPassword(password: password, delegate: $0) }
            }
        }

        func requestChallenge(_ state: MFABaseState, _ method: MSALAuthMethod) async -> Outcome {
            switch form {
            case .async:
                do {
                    let sent = try await state.requestChallenge(authMethod: method)
                    return .mfaCodeSent(
                        sent.newState, sentTo: sent.sentTo, channel: sent.channelTargetType.value, codeLength: sent.codeLength)
                } catch { return .failed(error, retry: state) }
            case .delegate: return await delegated { state.requestChallenge(authMethod: method, delegate: $0) }
            }
        }

        func submitMFA(_ state: MFARequiredState, _ code: String) async -> Outcome {
            switch form {
            case .async:
                do { return .signedIn(try await state.submitChallenge(challenge: code)) } catch { return .failed(error, retry: state) }
            case .delegate: return await delegated { state.submitChallenge(challenge: code, delegate: $0) }
            }
        }

        func challengeAuthMethod(_ state: RegisterStrongAuthBaseState, _ method: MSALAuthMethod, _ contact: String) async -> Outcome {
            let parameters = MSALNativeAuthChallengeAuthMethodParameters(authMethod: method, verificationContact: contact)
            switch form {
            case .async:
                do {
                    switch try await state.challengeAuthMethod(parameters: parameters) {
                    case .verificationRequired(let result):
                        return .registrationCodeSent(
                            result.newState, sentTo: result.sentTo, channel: result.channelTargetType.value, codeLength: result.codeLength)
                    case .completed(let result): return .signedIn(result)
                    }
                } catch { return .failed(error, retry: state) }
            case .delegate: return await delegated { state.challengeAuthMethod(parameters: parameters, delegate: $0) }
            }
        }

        func submitRegistration(_ state: RegisterStrongAuthVerificationRequiredState, _ code: String) async -> Outcome {
            switch form {
            case .async:
                do { return .signedIn(try await state.submitChallenge(challenge: code)) } catch { return .failed(error, retry: state) }
            case .delegate: return await delegated { state.submitChallenge(challenge: code, delegate: $0) }
            }
        }

        func signIn(after state: SignInAfterSignUpState) async -> Outcome {
            switch form {
            case .async:
                do { return Outcome(try await state.signIn()) } catch { return .failed(error, retry: nil) }
            case .delegate:
                let recorder = AfterFlowRecorder()
                state.signIn(parameters: MSALNativeAuthSignInAfterSignUpParameters(), delegate: recorder)
                return await recorder.next()
            }
        }

        func signIn(after state: SignInAfterResetPasswordState) async -> Outcome {
            switch form {
            case .async:
                do { return Outcome(try await state.signIn()) } catch { return .failed(error, retry: nil) }
            case .delegate:
                let recorder = AfterFlowRecorder()
                state.signIn(parameters: MSALNativeAuthSignInAfterResetPasswordParameters(), delegate: recorder)
                return await recorder.next()
            }
        }
    }

    // MARK: Shared checks

    struct Unexpected: Error, CustomStringConvertible {
        var description: String
        init(_ what: String, _ outcome: Outcome) { description = "expected \(what), got \(outcome)" }
        init(_ description: String) { self.description = description }
    }

    func awaitingMFA(_ outcome: Outcome) throws -> ([MSALAuthMethod], AwaitingMFAState) {
        guard case .awaitingMFA(let methods, let state) = outcome else { throw Unexpected("awaitingMFA", outcome) }
        return (methods, state)
    }

    func registration(_ outcome: Outcome) throws -> ([MSALAuthMethod], RegisterStrongAuthState) {
        guard case .registration(let methods, let state) = outcome else { throw Unexpected("strongAuthMethodRegistration", outcome) }
        return (methods, state)
    }

    func mfaCodeSent(_ outcome: Outcome) throws -> (state: MFARequiredState, sentTo: String, channel: String, codeLength: Int) {
        guard case .mfaCodeSent(let state, let sentTo, let channel, let codeLength) = outcome else { throw Unexpected("a code", outcome) }
        return (state, sentTo, channel, codeLength)
    }

    func registrationCodeSent(_ outcome: Outcome) throws -> (
        state: RegisterStrongAuthVerificationRequiredState, sentTo: String, channel: String, codeLength: Int
    ) {
        guard case .registrationCodeSent(let state, let sentTo, let channel, let codeLength) = outcome else {
            throw Unexpected("a registration code", outcome)
        }
        return (state, sentTo, channel, codeLength)
    }

    func failed<E: MSALNativeAuthError>(_ outcome: Outcome, as type: E.Type) throws -> (E, (any AnyObject & Sendable)?) {
        guard case .failed(let error, let retry) = outcome, let typed = error as? E else { throw Unexpected("\(E.self)", outcome) }
        return (typed, retry)
    }

    /// Signed in as `username`: an access token for an API, and the account in the cache.
    func expectSignedIn(
        _ outcome: Outcome, as username: String, app: MSALNativeAuthPublicClientApplication,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        guard case .signedIn(let result) = outcome else { throw Unexpected("signed in", outcome) }
        #expect(result.account.username == username, sourceLocation: sourceLocation)
        #expect(result.tokens.accessToken?.isEmpty == false, sourceLocation: sourceLocation)
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = [Self.todo]
        let token = try await result.getAccessToken(parameters: parameters)
        #expect(!token.accessToken.isEmpty && token.scopes.contains(Self.todo), sourceLocation: sourceLocation)
        #expect(app.getNativeAuthUserAccount()?.account.username == username, "the account is cached", sourceLocation: sourceLocation)
    }

    func wrongCode(_ code: String) -> String { code == "00000000" ? "11111111" : "00000000" }

    /// The `id`s the MFA challenges sent, in order.
    func challengeIds(_ world: World) -> [String?] {
        world.requests.filter {
            $0["endpoint"] as? String == "/oauth2/v2.0/challenge" && ($0["fields"] as? [String: String])?["id"] != nil
        }.map { ($0["fields"] as? [String: String])?["id"] }
    }

    func grantTypes(_ world: World) -> [String] {
        world.requests.filter { $0["endpoint"] as? String == "/oauth2/v2.0/token" }.compactMap {
            ($0["fields"] as? [String: String])?["grant_type"]
        }
    }
}
