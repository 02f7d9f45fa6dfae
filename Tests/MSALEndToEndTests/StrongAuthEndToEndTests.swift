import Foundation
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL
@testable import NativeAuthEmulator

/// Multifactor authentication and just-in-time strong-auth registration through the SDK against the
/// emulator (docs/error-mapping.md, docs/protocol.md#multifactor-authentication): every path in the async form and in the delegate
/// form, in-process and over loopback, with the round trips counted in the emulator's request log.
@Suite @MainActor struct StrongAuthEndToEndTests {
    typealias H = EmulatorHarness
    static let todo = "api://emulator/todolist/ToDoList.Read"
    nonisolated static let both: MSALNativeAuthCapabilities = [.mfaRequired, .registrationRequired]
    static let alanBackup = "alan.backup@example.net"
    static let alanPhone = "+15550100"

    static let mfaSignIn = [
        "/oauth2/v2.0/initiate", "/oauth2/v2.0/challenge", "/oauth2/v2.0/token", "/oauth2/v2.0/introspect", "/oauth2/v2.0/challenge",
        "/oauth2/v2.0/token",
    ]
    static let jitSignIn = [
        "/oauth2/v2.0/initiate", "/oauth2/v2.0/challenge", "/oauth2/v2.0/token", "/register/v1.0/introspect", "/register/v1.0/challenge",
        "/register/v1.0/continue", "/oauth2/v2.0/token",
    ]

    enum Form: String, CaseIterable, Sendable { case async, delegate }
    enum Wire: String, CaseIterable, Sendable { case inProcess, loopback }

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

    // MARK: MFA

    @Test(arguments: Form.allCases, Wire.allCases)
    func passwordSignInThenTheEmailMethodWrongThenRightCode(form: Form, wire: Wire) async throws {
        let world = try World(wire: wire)
        defer { world.stop() }
        let app = try world.app()
        let run = Driver(form: form)
        let (methods, awaiting) = try awaitingMFA(await run.signIn(app, H.alan, password: H.alanPassword))
        #expect(methods.map(\.id) == [H.alanEmailMethod, H.alanSMSMethod])
        #expect(methods.map(\.channelTargetType.value) == ["email", "sms"] && methods.allSatisfy { $0.challengeType == "oob" })
        #expect(methods.map(\.loginHint) == ["a*********p@e*****e.net", "+*******0100"], "masked")

        let sent = try mfaCodeSent(await run.requestChallenge(awaiting, methods[0]))
        #expect(sent.sentTo == "a*********p@e*****e.net" && sent.channel == "email" && sent.codeLength == 8)
        let mail = try #require(world.mails(H.alan).last)
        #expect(mail["purpose"] as? String == "mfa" && mail["channel"] as? String == "email")
        #expect(mail["target"] as? String == Self.alanBackup && mail["to"] as? String == H.alan)
        let code = try #require(mail["code"] as? String)

        let (wrong, retry) = try failed(await run.submitMFA(sent.state, wrongCode(code)), as: MFASubmitChallengeError.self)
        #expect(wrong.isInvalidChallenge && wrong.errorCodes == [50181])
        let same = try #require(retry as? MFARequiredState, "the same state is handed back")
        #expect(same === sent.state)
        try await expectSignedIn(await run.submitMFA(same, code), as: H.alan, app: app)

        // The wrong code is one more token call; the API token one more (a refresh).
        let withWrongCode: [String] = Array(Self.mfaSignIn.dropLast()) + ["/oauth2/v2.0/token", "/oauth2/v2.0/token"]
        #expect(Array(world.endpoints.prefix(7)) == withWrongCode)
        #expect(challengeIds(world) == [H.alanEmailMethod], "the MFA challenge names the method")
        #expect(Array(grantTypes(world).prefix(3)) == ["password", "mfa_oob", "mfa_oob"])
    }

    @Test(arguments: Form.allCases)
    func theSMSMethod(form: Form) async throws {
        let world = try World()
        let app = try world.app()
        let run = Driver(form: form)
        let (methods, awaiting) = try awaitingMFA(await run.signIn(app, H.alan, password: H.alanPassword))
        let sent = try mfaCodeSent(await run.requestChallenge(awaiting, methods[1]))
        #expect(sent.sentTo == "+*******0100" && sent.channel == "sms" && sent.codeLength == 8)
        let mail = try #require(world.mails(H.alan).last)
        #expect(mail["purpose"] as? String == "mfa" && mail["channel"] as? String == "sms" && mail["target"] as? String == Self.alanPhone)
        let (wrong, retry) = try failed(await run.submitMFA(sent.state, wrongCode(world.code(H.alan))), as: MFASubmitChallengeError.self)
        #expect(wrong.isInvalidChallenge)
        try await expectSignedIn(await run.submitMFA(try #require(retry as? MFARequiredState), world.code(H.alan)), as: H.alan, app: app)
        #expect(challengeIds(world) == [H.alanSMSMethod])
    }

    @Test(arguments: Form.allCases)
    func requestingAgainSendsANewCodeAndRetiresTheOld(form: Form) async throws {
        let world = try World()
        let app = try world.app()
        let run = Driver(form: form)
        let (methods, awaiting) = try awaitingMFA(await run.signIn(app, H.alan, password: H.alanPassword))
        let first = try mfaCodeSent(await run.requestChallenge(awaiting, methods[0]))
        let oldCode = world.code(H.alan)
        // Again, from the code state, to the other method.
        let second = try mfaCodeSent(await run.requestChallenge(first.state, methods[1]))
        #expect(second.channel == "sms")
        let newCode = world.code(H.alan)
        #expect(newCode != oldCode && world.mails(H.alan).count == 2)
        let (old, retry) = try failed(await run.submitMFA(second.state, oldCode), as: MFASubmitChallengeError.self)
        #expect(old.isInvalidChallenge, "the old code was retired")
        try await expectSignedIn(await run.submitMFA(try #require(retry as? MFARequiredState), newCode), as: H.alan, app: app)
        #expect(challengeIds(world) == [H.alanEmailMethod, H.alanSMSMethod])
    }

    @Test(arguments: Form.allCases)
    func aBlockedMethodIsRefusedAndAnotherWorks(form: Form) async throws {
        let world = try World()
        let user = try world.addUser(
            "blocked",
            methods: [
                ["id": "m-blocked", "channel": "sms", "target": "+15550111", "blocked": true],
                ["id": "m-open", "channel": "email", "target": "open.backup@example.org"],
            ])
        let app = try world.app()
        let run = Driver(form: form)
        let (methods, awaiting) = try awaitingMFA(await run.signIn(app, user, password: Self.password))
        #expect(methods.map(\.id) == ["m-blocked", "m-open"])
        let (blocked, retry) = try failed(await run.requestChallenge(awaiting, methods[0]), as: MFARequestChallengeError.self)
        #expect(blocked.isAuthMethodBlocked && !blocked.isBrowserRequired && blocked.errorCodes == [550024])
        #expect(world.mails(user).isEmpty)
        let usable = try #require(retry as? MFABaseState, "a state to try another method")
        let sent = try mfaCodeSent(await run.requestChallenge(usable, methods[1]))
        #expect(world.mails(user).last?["target"] as? String == "open.backup@example.org")
        try await expectSignedIn(await run.submitMFA(sent.state, world.code(user)), as: user, app: app)
    }

    @Test(arguments: Form.allCases)
    func anEmailCodeFirstFactorThenMFA(form: Form) async throws {
        let world = try World()
        let user = try world.addUser("otp", password: false, methods: [["id": "m-sms", "channel": "sms", "target": "+44 20 7946 0000"]])
        let app = try world.app(clientId: H.codeApp)
        let run = Driver(form: form)
        guard case .codeRequired(let codeState) = await run.signIn(app, user) else { throw Unexpected("expected codeRequired") }
        #expect(world.mails(user).last?["purpose"] as? String == "sign_in")
        let (methods, awaiting) = try awaitingMFA(await run.submitCode(codeState, world.code(user)))
        #expect(methods.map(\.loginHint) == ["+*******0000"])
        let sent = try mfaCodeSent(await run.requestChallenge(awaiting, methods[0]))
        let mail = try #require(world.mails(user).last)
        #expect(mail["purpose"] as? String == "mfa" && mail["target"] as? String == "+44 20 7946 0000", "as seeded")
        try await expectSignedIn(await run.submitMFA(sent.state, world.code(user)), as: user, app: app)
        #expect(Array(grantTypes(world).prefix(2)) == ["oob", "mfa_oob"])
    }

    @Test(arguments: Form.allCases)
    func aPasswordAskedForSeparatelyThenMFA(form: Form) async throws {
        let world = try World()
        let app = try world.app()
        let run = Driver(form: form)
        guard case .passwordRequired(let passwordState) = await run.signIn(app, H.alan) else {
            throw Unexpected("expected passwordRequired")
        }
        let (methods, awaiting) = try awaitingMFA(await run.submitPassword(passwordState, H.alanPassword))
        let sent = try mfaCodeSent(await run.requestChallenge(awaiting, methods[1]))
        try await expectSignedIn(await run.submitMFA(sent.state, world.code(H.alan)), as: H.alan, app: app)
    }

    @Test(arguments: Form.allCases)
    func signUpUnderAnMFAPolicyRegistersThenTheNextSignInAsksForMFA(form: Form) async throws {
        var seed = Seed.demo
        seed.apps[0].mfaPolicy = .required
        let world = try World(seed: seed)
        let app = try world.app()
        let run = Driver(form: form)
        let user = "policy.\(form.rawValue)@example.com"
        let parameters = MSALNativeAuthSignUpParameters(username: user)
        parameters.password = Self.password
        parameters.attributes = ["displayName": "Policy"]
        guard case .codeRequired(let signUp, _, _, _) = try await app.signUp(parameters: parameters),
            case .completed(let after) = try await signUp.submitCode(code: world.code(user))
        else { throw Unexpected("expected sign-up") }

        // No method yet: the sign-in after the sign-up registers one (the sign-up address: no code).
        let (kinds, register) = try registration(await run.signIn(after: after))
        #expect(kinds.map(\.id) == ["email", "sms"])
        try await expectSignedIn(await run.challengeAuthMethod(register, kinds[0], user), as: user, app: app)

        // Next time MFA proper, with that method.
        let (methods, awaiting) = try awaitingMFA(await run.signIn(app, user, password: Self.password))
        #expect(methods.count == 1 && methods[0].channelTargetType.value == "email")
        let sent = try mfaCodeSent(await run.requestChallenge(awaiting, methods[0]))
        #expect(world.mails(user).last?["target"] as? String == user)
        try await expectSignedIn(await run.submitMFA(sent.state, world.code(user)), as: user, app: app)
    }

    @Test(arguments: Form.allCases)
    func mfaAfterAPasswordReset(form: Form) async throws {
        let world = try World()
        let app = try world.app()
        let run = Driver(form: form)
        let reset = try await app.resetPassword(parameters: .init(username: H.alan)).newState
        let newPassword = try await reset.submitCode(code: world.code(H.alan))
        let after = try await newPassword.submitPassword(password: "Enigma-Broken-1941")
        let (methods, awaiting) = try awaitingMFA(await run.signIn(after: after))
        let sent = try mfaCodeSent(await run.requestChallenge(awaiting, methods[1]))
        #expect(world.mails(H.alan).last?["purpose"] as? String == "mfa")
        try await expectSignedIn(await run.submitMFA(sent.state, world.code(H.alan)), as: H.alan, app: app)
    }

    @Test(arguments: Form.allCases)
    func withoutTheCapabilitiesTheBrowserIsRequired(form: Form) async throws {
        let world = try World()
        let run = Driver(form: form)
        let none = try world.app(capabilities: [])
        let (mfa, _) = try failed(await run.signIn(none, H.alan, password: H.alanPassword), as: SignInStartError.self)
        #expect(mfa.isBrowserRequired && mfa.errorDescription == "Client is missing the mfa_required capability")
        let (jit, _) = try failed(await run.signIn(none, H.katherine, password: H.katherinePassword), as: SignInStartError.self)
        #expect(jit.isBrowserRequired)
        // One capability is not the other.
        let mfaOnly = try world.app(capabilities: [.mfaRequired])
        let (onlyMFA, _) = try failed(await run.signIn(mfaOnly, H.katherine, password: H.katherinePassword), as: SignInStartError.self)
        #expect(onlyMFA.isBrowserRequired && onlyMFA.errorDescription == "Client is missing the registration_required capability")
        _ = try awaitingMFA(await run.signIn(mfaOnly, H.alan, password: H.alanPassword))
    }

    @Test(arguments: Form.allCases)
    func expiredContinuationTokensAreTypedErrors(form: Form) async throws {
        let world = try World()
        let app = try world.app()
        let run = Driver(form: form)
        // The awaiting state, then the code state, each after its token expired.
        let (methods, awaiting) = try awaitingMFA(await run.signIn(app, H.alan, password: H.alanPassword))
        world.harness.advanceClock(601)
        let (request, _) = try failed(await run.requestChallenge(awaiting, methods[0]), as: MFARequestChallengeError.self)
        #expect(!request.isAuthMethodBlocked && !request.isBrowserRequired && request.serverError == "expired_token")

        let (methods2, awaiting2) = try awaitingMFA(await run.signIn(app, H.alan, password: H.alanPassword))
        let sent = try mfaCodeSent(await run.requestChallenge(awaiting2, methods2[0]))
        world.harness.advanceClock(601)
        let (submit, _) = try failed(await run.submitMFA(sent.state, world.code(H.alan)), as: MFASubmitChallengeError.self)
        #expect(!submit.isBrowserRequired && submit.serverError == "expired_token")

        // Registration: the contact step and the code step.
        let (kinds, register) = try registration(await run.signIn(app, H.katherine, password: H.katherinePassword))
        world.harness.advanceClock(601)
        let (challenge, _) = try failed(
            await run.challengeAuthMethod(register, kinds[0], "kj@example.org"), as: RegisterStrongAuthChallengeError.self)
        #expect(!challenge.isInvalidInput && !challenge.isVerificationContactBlocked && challenge.errorCodes == [55112])

        let (kinds2, register2) = try registration(await run.signIn(app, H.katherine, password: H.katherinePassword))
        let code = try registrationCodeSent(await run.challengeAuthMethod(register2, kinds2[0], "kj@example.org"))
        world.harness.advanceClock(601)
        let (continued, _) = try failed(
            await run.submitRegistration(code.state, world.code(H.katherine)), as: RegisterStrongAuthSubmitChallengeError.self)
        #expect(!continued.isInvalidChallenge && continued.errorCodes == [55112])
    }

    /// MSAL's rule: a state whose step is done still sends its own token, and the service answers
    /// (here: the flow is over, so each call is refused by the emulator, one request each).
    @Test(arguments: Form.allCases)
    func aUsedStateAsksTheServiceAgain(form: Form) async throws {
        let world = try World()
        let app = try world.app()
        let run = Driver(form: form)
        func expectRefusedByTheService(_ outcome: Outcome, sourceLocation: SourceLocation = #_sourceLocation) {
            guard case .failed(let error, _) = outcome else {
                Issue.record("expected the service to refuse the spent token, got \(outcome)", sourceLocation: sourceLocation)
                return
            }
            #expect(error.serverError != nil, "the answer came from the service: \(error)", sourceLocation: sourceLocation)
        }

        let (methods, awaiting) = try awaitingMFA(await run.signIn(app, H.alan, password: H.alanPassword))
        let sent = try mfaCodeSent(await run.requestChallenge(awaiting, methods[0]))
        try await expectSignedIn(await run.submitMFA(sent.state, world.code(H.alan)), as: H.alan, app: app)
        let (kinds, register) = try registration(await run.signIn(app, H.katherine, password: H.katherinePassword))
        let code = try registrationCodeSent(await run.challengeAuthMethod(register, kinds[0], "kj@example.org"))
        try await expectSignedIn(await run.submitRegistration(code.state, world.code(H.katherine)), as: H.katherine, app: app)

        let before = world.requests.count
        expectRefusedByTheService(await run.requestChallenge(awaiting, methods[0]))
        expectRefusedByTheService(await run.requestChallenge(sent.state, methods[1]))
        expectRefusedByTheService(await run.submitMFA(sent.state, world.code(H.alan)))
        expectRefusedByTheService(await run.challengeAuthMethod(register, kinds[0], "kj@example.org"))
        expectRefusedByTheService(await run.challengeAuthMethod(code.state, kinds[0], "kj@example.org"))
        expectRefusedByTheService(await run.submitRegistration(code.state, "12345678"))
        #expect(world.requests.count == before + 6, "one request each")
    }

    @Test(arguments: Form.allCases)
    func anEmptyCodeOrContactIsRefusedWithoutARequest(form: Form) async throws {
        let world = try World()
        let app = try world.app()
        let run = Driver(form: form)
        let (methods, awaiting) = try awaitingMFA(await run.signIn(app, H.alan, password: H.alanPassword))
        let sent = try mfaCodeSent(await run.requestChallenge(awaiting, methods[0]))
        let (kinds, register) = try registration(await run.signIn(app, H.katherine, password: H.katherinePassword))
        let before = world.requests.count

        let (emptyCode, codeRetry) = try failed(await run.submitMFA(sent.state, ""), as: MFASubmitChallengeError.self)
        #expect(emptyCode.isInvalidChallenge)
        for contact in ["", "   "] {
            let (emptyContact, _) = try failed(
                await run.challengeAuthMethod(register, kinds[0], contact), as: RegisterStrongAuthChallengeError.self)
            #expect(emptyContact.isInvalidInput, "\"\(contact)\"")
        }
        #expect(world.requests.count == before, "no request was sent")
        // Both states still work.
        try await expectSignedIn(
            await run.submitMFA(try #require(codeRetry as? MFARequiredState), world.code(H.alan)), as: H.alan, app: app)
        let code = try registrationCodeSent(await run.challengeAuthMethod(register, kinds[0], "kj@example.org"))
        let (emptyRegistrationCode, registrationRetry) = try failed(
            await run.submitRegistration(code.state, ""), as: RegisterStrongAuthSubmitChallengeError.self)
        #expect(emptyRegistrationCode.isInvalidChallenge)
        let retry = try #require(registrationRetry as? RegisterStrongAuthVerificationRequiredState)
        try await expectSignedIn(await run.submitRegistration(retry, world.code(H.katherine)), as: H.katherine, app: app)
    }

    @Test(arguments: Form.allCases)
    func theAttemptLimitEndsTheMFAFlowWithATypedError(form: Form) async throws {
        let world = try World()
        let app = try world.app()
        let run = Driver(form: form)
        let (methods, awaiting) = try awaitingMFA(await run.signIn(app, H.alan, password: H.alanPassword))
        let sent = try mfaCodeSent(await run.requestChallenge(awaiting, methods[0]))
        let wrong = wrongCode(world.code(H.alan))
        var errors: [MFASubmitChallengeError] = []
        for _ in 1...6 {
            let (error, _) = try failed(await run.submitMFA(sent.state, wrong), as: MFASubmitChallengeError.self)
            errors.append(error)
        }
        let invalid = errors.map(\.isInvalidChallenge)
        #expect(invalid.prefix(4) == [true, true, true, true], "\(errors)")
        let last = try #require(errors.last)
        #expect(!last.isBrowserRequired, "\(last)")
        // The right code no longer helps: the flow is over.
        let (late, _) = try failed(await run.submitMFA(sent.state, world.code(H.alan)), as: MFASubmitChallengeError.self)
        #expect(!late.isBrowserRequired)
    }

    /// After a failed request in the delegate form, `newState` is another object than the state
    /// called (the awaiting state hands back an `MFARequiredState`; a registration code state a
    /// `RegisterStrongAuthState`) holding the same token. Once that one moved the flow on, the
    /// original still asks the service, which refuses the spent token.
    @Test func theStateADelegateIsHandedAfterAFailureHoldsTheOriginalsToken() async throws {
        let world = try World()
        let user = try world.addUser(
            "shared",
            methods: [
                ["id": "m-blocked", "channel": "sms", "target": "+15550111", "blocked": true],
                ["id": "m-open", "channel": "email", "target": "open.backup@example.org"],
            ])
        let app = try world.app()
        let run = Driver(form: .delegate)
        let (methods, awaiting) = try awaitingMFA(await run.signIn(app, user, password: Self.password))
        let (_, retry) = try failed(await run.requestChallenge(awaiting, methods[0]), as: MFARequestChallengeError.self)
        let handed = try #require(retry as? MFARequiredState)
        #expect(handed.continuationToken == awaiting.continuationToken)
        _ = try mfaCodeSent(await run.requestChallenge(handed, methods[1]))
        let before = world.requests.count
        let reused = await run.requestChallenge(awaiting, methods[1])
        #expect(reused.error?.serverError != nil, "the service answered: \(reused)")
        #expect(world.requests.count == before + 1)

        let jit = try world.addUser("shared.jit")
        let (kinds, register) = try registration(await run.signIn(app, jit, password: Self.password))
        let first = try registrationCodeSent(await run.challengeAuthMethod(register, kinds[0], "first@example.org"))
        let (_, handedBack) = try failed(
            await run.challengeAuthMethod(first.state, kinds[0], "not-an-address"), as: RegisterStrongAuthChallengeError.self)
        let other = try #require(handedBack as? RegisterStrongAuthState)
        #expect(other.continuationToken == first.state.continuationToken)
        _ = try registrationCodeSent(await run.challengeAuthMethod(other, kinds[0], "second@example.org"))
        // The first code state's token is still on the same step, so the service takes the new code
        // from it (a registration challenge again is a resend).
        try await expectSignedIn(await run.submitRegistration(first.state, world.code(jit)), as: jit, app: app)
    }

    /// docs/error-mapping.md#registration-states: an empty contact gives `invalidInput` with `newState` the same state from a
    /// `RegisterStrongAuthState`, and nil from the verification state.
    @Test func anEmptyContactFromTheCodeStateHandsNoStateToTheDelegate() async throws {
        let world = try World()
        let app = try world.app()
        let run = Driver(form: .delegate)
        let (kinds, register) = try registration(await run.signIn(app, H.katherine, password: H.katherinePassword))
        let (fromRegister, same) = try failed(
            await run.challengeAuthMethod(register, kinds[0], ""), as: RegisterStrongAuthChallengeError.self)
        #expect(fromRegister.isInvalidInput && same === register)
        let sent = try registrationCodeSent(await run.challengeAuthMethod(register, kinds[0], "kj@example.org"))
        let (fromCode, handed) = try failed(
            await run.challengeAuthMethod(sent.state, kinds[0], ""), as: RegisterStrongAuthChallengeError.self)
        #expect(fromCode.isInvalidInput)
        #expect(handed == nil, "newState: nil from the verification state")
    }

    // MARK: Just-in-time registration

    @Test(arguments: Form.allCases)
    func katherineRegistersHerOwnAddressPreverifiedAndIsSignedInAtOnce(form: Form) async throws {
        let world = try World()
        let app = try world.app()
        let run = Driver(form: form)
        let (kinds, register) = try registration(await run.signIn(app, H.katherine, password: H.katherinePassword))
        #expect(kinds.map(\.id) == ["email", "sms"] && kinds.map(\.channelTargetType.value) == ["email", "sms"])
        #expect(kinds[0].loginHint == "k*******e@e*****e.com")
        try await expectSignedIn(await run.challengeAuthMethod(register, kinds[0], H.katherine), as: H.katherine, app: app)
        #expect(world.mails(H.katherine).isEmpty, "no code for a preverified contact")
        #expect(Array(world.endpoints.prefix(7)) == Self.jitSignIn)
        #expect(Array(grantTypes(world).prefix(2)) == ["password", "continuation_token"])
        let continued = world.requests.first { $0["endpoint"] as? String == "/register/v1.0/continue" }
        #expect((continued?["fields"] as? [String: String])?["grant_type"] == "continuation_token")
    }

    @Test(arguments: Form.allCases, Wire.allCases)
    func aNewAddressGetsACodeWrongThenRightThenTheNextSignInUsesItForMFA(form: Form, wire: Wire) async throws {
        let world = try World(wire: wire)
        defer { world.stop() }
        let user = try world.addUser("jit")
        let contact = "jit.backup@example.org"
        let app = try world.app()
        let run = Driver(form: form)
        let (kinds, register) = try registration(await run.signIn(app, user, password: Self.password))
        let sent = try registrationCodeSent(await run.challengeAuthMethod(register, kinds[0], contact))
        #expect(sent.sentTo == contact && sent.channel == "email" && sent.codeLength == 8)
        let mail = try #require(world.mails(user).last)
        #expect(mail["purpose"] as? String == "registration" && mail["channel"] as? String == "email")
        #expect(mail["target"] as? String == contact && mail["to"] as? String == user)
        let code = try #require(mail["code"] as? String)
        let (wrong, retry) = try failed(
            await run.submitRegistration(sent.state, wrongCode(code)), as: RegisterStrongAuthSubmitChallengeError.self)
        #expect(wrong.isInvalidChallenge && wrong.errorCodes == [50181])
        let same = try #require(retry as? RegisterStrongAuthVerificationRequiredState)
        #expect(same === sent.state)
        try await expectSignedIn(await run.submitRegistration(same, code), as: user, app: app)
        let withWrongCode: [String] = Array(Self.jitSignIn.dropLast(2)) + ["/register/v1.0/continue"] + Array(Self.jitSignIn.suffix(2))
        #expect(Array(world.endpoints.prefix(8)) == withWrongCode)

        // The next sign-in asks for MFA with the registered address.
        world.clearLog()
        let (methods, awaiting) = try awaitingMFA(await run.signIn(app, user, password: Self.password))
        #expect(methods.count == 1 && methods[0].channelTargetType.value == "email" && methods[0].loginHint == "j********p@e*****e.org")
        let mfa = try mfaCodeSent(await run.requestChallenge(awaiting, methods[0]))
        #expect(mfa.sentTo == "j********p@e*****e.org")
        #expect(world.mails(user).last?["purpose"] as? String == "mfa" && world.mails(user).last?["target"] as? String == contact)
        try await expectSignedIn(await run.submitMFA(mfa.state, world.code(user)), as: user, app: app)
        #expect(world.endpoints == Self.mfaSignIn)
    }

    @Test(arguments: Form.allCases)
    func aPhoneNumber(form: Form) async throws {
        let world = try World()
        let user = try world.addUser("sms")
        let app = try world.app()
        let run = Driver(form: form)
        let (kinds, register) = try registration(await run.signIn(app, user, password: Self.password))
        let sent = try registrationCodeSent(await run.challengeAuthMethod(register, kinds[1], "+1 555-0123"))
        #expect(sent.sentTo == "+1 555-0123" && sent.channel == "sms")
        let mail = try #require(world.mails(user).last)
        #expect(mail["channel"] as? String == "sms" && mail["target"] as? String == "+15550123")
        try await expectSignedIn(await run.submitRegistration(sent.state, world.code(user)), as: user, app: app)
        let (methods, _) = try awaitingMFA(await run.signIn(app, user, password: Self.password))
        #expect(methods.map(\.loginHint) == ["+*******0123"] && methods.map(\.channelTargetType.value) == ["sms"])
    }

    @Test(arguments: Form.allCases)
    func anInvalidContactKeepsTheStateUsable(form: Form) async throws {
        let world = try World()
        let user = try world.addUser("invalid")
        let app = try world.app()
        let run = Driver(form: form)
        let (kinds, register) = try registration(await run.signIn(app, user, password: Self.password))
        for (kind, contact) in [(0, "not-an-address"), (1, "555-0123"), (0, "+15550123")] {
            let (invalid, retry) = try failed(
                await run.challengeAuthMethod(register, kinds[kind], contact), as: RegisterStrongAuthChallengeError.self)
            #expect(invalid.isInvalidInput && invalid.errorCodes == [901001], "\(contact)")
            #expect(retry === register, "the same state")
        }
        #expect(world.mails(user).isEmpty)
        let sent = try registrationCodeSent(await run.challengeAuthMethod(register, kinds[0], "valid@example.org"))
        try await expectSignedIn(await run.submitRegistration(sent.state, world.code(user)), as: user, app: app)
    }

    @Test(arguments: Form.allCases)
    func aBlockedContactIsRefusedAndAnotherWorks(form: Form) async throws {
        let world = try World()
        let app = try world.app()
        let run = Driver(form: form)
        let (kinds, register) = try registration(await run.signIn(app, H.katherine, password: H.katherinePassword))
        let (blocked, retry) = try failed(
            await run.challengeAuthMethod(register, kinds[1], "+15550199"), as: RegisterStrongAuthChallengeError.self)
        #expect(blocked.isVerificationContactBlocked && !blocked.isInvalidInput && blocked.errorCodes == [550024])
        #expect(world.mails(H.katherine).isEmpty)
        let usable = try #require(retry as? RegisterStrongAuthState)
        let sent = try registrationCodeSent(await run.challengeAuthMethod(usable, kinds[1], "+15550123"))
        try await expectSignedIn(await run.submitRegistration(sent.state, world.code(H.katherine)), as: H.katherine, app: app)
    }

    @Test(arguments: Form.allCases)
    func theCodeStateCanSendAgainOrTakeAnotherContact(form: Form) async throws {
        let world = try World()
        let user = try world.addUser("again")
        let app = try world.app()
        let run = Driver(form: form)
        let (kinds, register) = try registration(await run.signIn(app, user, password: Self.password))
        let first = try registrationCodeSent(await run.challengeAuthMethod(register, kinds[0], "first@example.org"))
        let oldCode = world.code(user)
        let second = try registrationCodeSent(await run.challengeAuthMethod(first.state, kinds[1], "+15550124"))
        #expect(second.sentTo == "+15550124" && world.mails(user).last?["target"] as? String == "+15550124")
        let (old, retry) = try failed(await run.submitRegistration(second.state, oldCode), as: RegisterStrongAuthSubmitChallengeError.self)
        #expect(old.isInvalidChallenge)
        let same = try #require(retry as? RegisterStrongAuthVerificationRequiredState)
        try await expectSignedIn(await run.submitRegistration(same, world.code(user)), as: user, app: app)
        let (methods, _) = try awaitingMFA(await run.signIn(app, user, password: Self.password))
        #expect(methods.map(\.channelTargetType.value) == ["sms"], "only the contact that was proved is registered")
    }

    // MARK: Round trips

    @Test(arguments: Form.allCases)
    func eachPathTakesTheProtocolMinimumOfRoundTrips(form: Form) async throws {
        let world = try World()
        let app = try world.app()
        let run = Driver(form: form)

        world.clearLog()
        let (methods, awaiting) = try awaitingMFA(await run.signIn(app, H.alan, password: H.alanPassword))
        let sent = try mfaCodeSent(await run.requestChallenge(awaiting, methods[0]))
        guard case .signedIn = await run.submitMFA(sent.state, world.code(H.alan)) else { throw Unexpected("expected signed in") }
        #expect(world.endpoints == Self.mfaSignIn, "MFA sign-in: \(world.endpoints.count) round trips")

        let user = try world.addUser("trips")
        world.clearLog()
        let (kinds, register) = try registration(await run.signIn(app, user, password: Self.password))
        let code = try registrationCodeSent(await run.challengeAuthMethod(register, kinds[0], "trips@example.org"))
        guard case .signedIn = await run.submitRegistration(code.state, world.code(user)) else { throw Unexpected("expected signed in") }
        #expect(world.endpoints == Self.jitSignIn, "JIT with a code: \(world.endpoints.count) round trips")

        world.clearLog()
        let (kinds2, register2) = try registration(await run.signIn(app, H.katherine, password: H.katherinePassword))
        guard case .signedIn = await run.challengeAuthMethod(register2, kinds2[0], H.katherine) else {
            throw Unexpected("expected signed in")
        }
        #expect(world.endpoints == Self.jitSignIn, "preverified JIT: \(world.endpoints.count) round trips")
    }
}
