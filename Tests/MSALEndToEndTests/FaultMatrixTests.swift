import Foundation
import TestSupport
import Testing

@testable import MSAL
@testable import NativeAuthEmulator

/// Every SDK step against every fault the emulator can inject: the step
/// succeeds after its retry policy or fails with a typed error that keeps the underlying cause,
/// never crashes or hangs, and the state that allows a retry still works once the fault is gone.
@Suite(.tags(.concurrency)) struct FaultMatrixTests {
    typealias H = EmulatorHarness

    struct Fault: Sendable {
        var name: String
        var json: [String: String]
        /// Nil: the step succeeds through the retry policy; else the failure kind expected.
        var expected: MSALNativeAuthNetworkFailure.Kind?
        var transportKind: HTTPTransportError.Kind?
    }

    /// Body faults carry `status: 200`, so the server does not act on the request (a broken proxy
    /// or a cut line): the continuation token stays good and the retry can be checked.
    static let faults: [Fault] = [
        Fault(name: "429 + Retry-After", json: ["status": "429", "retry_after": "1", "count": "1"], expected: nil),
        Fault(name: "500 once", json: ["status": "500", "count": "1"], expected: nil),
        Fault(name: "503 twice", json: ["status": "503", "count": "2"], expected: .unexpectedStatus(503)),
        // A hung server: it answers (503, unprocessed) only after the client has given up.
        Fault(
            name: "delay past timeout", json: ["delay_ms": "2000", "status": "503", "count": "2"], expected: .transport,
            transportKind: .timedOut),
        Fault(name: "dropped once", json: ["drop_connection": "true", "count": "1"], expected: nil),
        Fault(
            name: "dropped twice", json: ["drop_connection": "true", "count": "2"], expected: .transport, transportKind: .connectionLost),
        Fault(name: "cut body", json: ["status": "200", "body": "truncated"], expected: .invalidResponse),
        Fault(name: "invalid JSON", json: ["status": "200", "body": "invalid_json"], expected: .invalidResponse),
        Fault(name: "empty body", json: ["status": "200", "body": "empty"], expected: .invalidResponse),
        Fault(name: "HTML page", json: ["status": "200", "body": "html"], expected: .invalidResponse),
        Fault(name: "oversize body", json: ["status": "200", "body": "oversize"], expected: .responseTooLarge),
    ]

    /// One SDK step: `prepare` reaches it with no fault; `run` performs it (and is run again after).
    struct Step: Sendable {
        var name: String
        var endpoint: String
        /// `/signup/v1.0/continue`: MSAL treats any 200 as completion (docs/protocol.md#sign-up-endpoints), so a mangled 200
        /// completes the sign-up (without a sign-in token) instead of failing.
        var anyOKCompletes = false
        /// A failure while polling a reset ends the flow (the submitted token is spent): the
        /// retry is a new reset, not the same state.
        var failureEndsFlow = false
        var prepare: @Sendable (World) async throws -> Handle
        var run: @Sendable (World, Handle) async throws -> Void
    }

    final class Handle: @unchecked Sendable {
        // The state objects are Sendable; the box itself is only touched by one test at a time.
        var value: Any?
        init(_ value: Any? = nil) { self.value = value }
    }

    final class InstantClock: NativeAuthClock {
        func now() -> Date { Date() }
        func sleep(seconds: Double) async throws { try Task.checkCancellation() }
    }

    struct World: Sendable {
        let harness: H
        let app: MSALNativeAuthPublicClientApplication
        let codeApp: MSALNativeAuthPublicClientApplication
        /// The password app declaring MFA and registration, for the strong-auth steps.
        let strongAuthApp: MSALNativeAuthPublicClientApplication
        let counter = Counter()

        init() throws {
            let harness = try H()
            self.harness = harness
            app = try Self.make(H.passwordApp, harness.router)
            codeApp = try Self.make(H.codeApp, harness.router)
            strongAuthApp = try Self.make(H.passwordApp, harness.router, capabilities: [.mfaRequired, .registrationRequired])
        }

        static func make(_ clientId: String, _ router: EmulatorRouter, capabilities: MSALNativeAuthCapabilities = []) throws
            -> MSALNativeAuthPublicClientApplication
        {
            let config = MSALNativeAuthPublicClientApplicationConfig(
                clientId: clientId, authority: try MSALCIAMAuthority(url: URL(string: router.authority(baseURL: "http://127.0.0.1:1"))!),
                challengeTypes: [.OOB, .password])
            config.capabilities = capabilities
            config.transport = EmulatorTransport(router: router)
            config.tokenCacheLocation = .inMemory
            config.requestTimeout = 0.05
            return try MSALNativeAuthPublicClientApplication(configuration: config, clock: InstantClock(), uuid: { UUID() })
        }

        func code(_ username: String) -> String { harness.lastCode(username) ?? "" }
        func fresh(_ prefix: String) -> String { "\(prefix)\(counter.next())@example.com" }

        /// A new user who must register a strong-auth method at the first sign-in.
        func jitUser() throws -> String {
            let username = fresh("jit")
            let added = harness.hook("POST", "users", json: ["username": username, "password": jitPassword, "mfa_required": true])
            guard added.status == 201 else { throw CancellationError() }
            return username
        }
    }

    static let jitPassword = "Strong-Auth-Fault-2026"

    final class Counter: Sendable {
        private let value = Locked(0)
        func next() -> Int {
            value.withLock {
                $0 += 1
                return $0
            }
        }
    }

    static func signInParameters() -> MSALNativeAuthSignInParameters {
        let parameters = MSALNativeAuthSignInParameters(username: H.ada)
        parameters.password = H.adaPassword
        return parameters
    }

    static let steps: [Step] = [
        Step(
            name: "sign-in initiate", endpoint: "/oauth2/v2.0/initiate", prepare: { _ in Handle() },
            run: { world, _ in _ = try await world.app.signIn(parameters: signInParameters()) }),
        Step(
            name: "sign-in challenge", endpoint: "/oauth2/v2.0/challenge", prepare: { _ in Handle() },
            run: { world, _ in _ = try await world.app.signIn(parameters: signInParameters()) }),
        Step(
            name: "sign-in token", endpoint: "/oauth2/v2.0/token", prepare: { _ in Handle() },
            run: { world, _ in _ = try await world.app.signIn(parameters: signInParameters()) }),
        Step(
            name: "submit code", endpoint: "/oauth2/v2.0/token",
            prepare: { world in
                guard case .codeRequired(let state, _, _, _) = try await world.codeApp.signIn(parameters: .init(username: H.grace)) else {
                    throw CancellationError()
                }
                return Handle(state)
            }, run: { world, handle in _ = try await (handle.value as! SignInCodeRequiredState).submitCode(code: world.code(H.grace)) }),
        Step(
            name: "resend code", endpoint: "/oauth2/v2.0/challenge",
            prepare: { world in
                guard case .codeRequired(let state, _, _, _) = try await world.codeApp.signIn(parameters: .init(username: H.grace)) else {
                    throw CancellationError()
                }
                return Handle(state)
            }, run: { _, handle in _ = try await (handle.value as! SignInCodeRequiredState).resendCode() }),
        Step(
            name: "sign-up start", endpoint: "/signup/v1.0/start", prepare: { world in Handle(world.fresh("start")) },
            run: { world, handle in
                let parameters = MSALNativeAuthSignUpParameters(username: handle.value as! String)
                parameters.attributes = ["displayName": "Fault"]
                _ = try await world.codeApp.signUp(parameters: parameters)
            }),
        Step(
            name: "sign-up continue", endpoint: "/signup/v1.0/continue", anyOKCompletes: true,
            prepare: { world in
                let username = world.fresh("continue")
                let parameters = MSALNativeAuthSignUpParameters(username: username)
                parameters.attributes = ["displayName": "Fault"]
                guard case .codeRequired(let state, _, _, _) = try await world.codeApp.signUp(parameters: parameters) else {
                    throw CancellationError()
                }
                return Handle((state, username))
            },
            run: { world, handle in
                let (state, username) = handle.value as! (SignUpCodeRequiredState, String)
                _ = try await state.submitCode(code: world.code(username))
            }),
        Step(
            name: "reset start", endpoint: "/resetpassword/v1.0/start", prepare: { _ in Handle() },
            run: { world, _ in _ = try await world.app.resetPassword(parameters: .init(username: H.ada)) }),
        Step(
            name: "reset continue", endpoint: "/resetpassword/v1.0/continue",
            prepare: { world in
                let state = try await world.app.resetPassword(parameters: .init(username: H.ada)).newState
                return Handle(state)
            }, run: { world, handle in _ = try await (handle.value as! ResetPasswordCodeRequiredState).submitCode(code: world.code(H.ada)) }
        ),
        Step(
            name: "reset submit", endpoint: "/resetpassword/v1.0/submit",
            prepare: { world in
                let sent = try await world.app.resetPassword(parameters: .init(username: H.ada))
                return Handle(try await sent.newState.submitCode(code: world.code(H.ada)))
            },
            run: { world, handle in
                _ = try await (handle.value as! ResetPasswordRequiredState).submitPassword(
                    password: "Fault-Matrix-\(world.counter.next())-Zz")
            }),
        Step(
            name: "reset poll", endpoint: "/resetpassword/v1.0/poll_completion", failureEndsFlow: true,
            prepare: { world in
                let sent = try await world.app.resetPassword(parameters: .init(username: H.ada))
                return Handle(try await sent.newState.submitCode(code: world.code(H.ada)))
            },
            run: { world, handle in
                _ = try await (handle.value as! ResetPasswordRequiredState).submitPassword(
                    password: "Fault-Matrix-\(world.counter.next())-Zz")
            }),
        Step(
            name: "getAccessToken refresh", endpoint: "/oauth2/v2.0/token",
            prepare: { world in
                guard case .completed(let account) = try await world.app.signIn(parameters: signInParameters()) else {
                    throw CancellationError()
                }
                return Handle(account)
            },
            run: { _, handle in
                let parameters = MSALNativeAuthGetAccessTokenParameters()
                parameters.scopes = ["api://emulator/todolist/ToDoList.Read"]
                parameters.forceRefresh = true
                _ = try await (handle.value as! MSALNativeAuthUserAccountResult).getAccessToken(parameters: parameters)
            }),
        // MFA (docs/protocol.md#multifactor-authentication): reached through the token step, whose answer spends the password
        // state's token, so a failed introspect ends that sign-in (a new one is the retry).
        Step(
            name: "MFA introspect", endpoint: "/oauth2/v2.0/introspect", failureEndsFlow: true,
            prepare: { world in Handle(try await passwordState(world.strongAuthApp, H.alan)) },
            run: { _, handle in
                guard case .awaitingMFA = try await (handle.value as! SignInPasswordRequiredState).submitPassword(password: H.alanPassword)
                else { throw CancellationError() }
            }),
        Step(
            name: "MFA challenge (id)", endpoint: "/oauth2/v2.0/challenge",
            prepare: { world in Handle(try await awaitingMFA(world)) },
            run: { _, handle in
                let (methods, state) = handle.value as! ([MSALAuthMethod], AwaitingMFAState)
                _ = try await state.requestChallenge(authMethod: methods[0])
            }),
        Step(
            name: "MFA submit (mfa_oob)", endpoint: "/oauth2/v2.0/token",
            prepare: { world in
                let (methods, state) = try await awaitingMFA(world)
                let next = try await state.requestChallenge(authMethod: methods[0]).newState
                return Handle(next)
            },
            run: { world, handle in _ = try await (handle.value as! MFARequiredState).submitChallenge(challenge: world.code(H.alan)) }),
        // Registration (docs/protocol.md#strong-auth-registration), each step with a new user who has no method yet.
        Step(
            name: "register introspect", endpoint: "/register/v1.0/introspect", failureEndsFlow: true,
            prepare: { world in Handle(try await passwordState(world.strongAuthApp, try world.jitUser())) },
            run: { _, handle in
                guard
                    case .strongAuthMethodRegistration = try await (handle.value as! SignInPasswordRequiredState).submitPassword(
                        password: jitPassword)
                else { throw CancellationError() }
            }),
        Step(
            name: "register challenge", endpoint: "/register/v1.0/challenge",
            prepare: { world in Handle(try await registration(world)) },
            run: { world, handle in
                let (methods, state, _) = handle.value as! ([MSALAuthMethod], RegisterStrongAuthState, String)
                let contact = MSALNativeAuthChallengeAuthMethodParameters(
                    authMethod: methods[0], verificationContact: "backup\(world.counter.next())@example.org")
                guard case .verificationRequired = try await state.challengeAuthMethod(parameters: contact) else {
                    throw CancellationError()
                }
            }),
        Step(
            name: "register continue", endpoint: "/register/v1.0/continue",
            prepare: { world in
                let (methods, state, username) = try await registration(world)
                let contact = MSALNativeAuthChallengeAuthMethodParameters(
                    authMethod: methods[0], verificationContact: "backup\(world.counter.next())@example.org")
                guard case .verificationRequired(let sent) = try await state.challengeAuthMethod(parameters: contact) else {
                    throw CancellationError()
                }
                return Handle((sent.newState, username))
            },
            run: { world, handle in
                let (state, username) = handle.value as! (RegisterStrongAuthVerificationRequiredState, String)
                _ = try await state.submitChallenge(challenge: world.code(username))
            }),
    ]

    static func passwordState(_ app: MSALNativeAuthPublicClientApplication, _ username: String) async throws
        -> SignInPasswordRequiredState
    {
        guard case .passwordRequired(let state) = try await app.signIn(parameters: .init(username: username)) else {
            throw CancellationError()
        }
        return state
    }

    static func awaitingMFA(_ world: World) async throws -> ([MSALAuthMethod], AwaitingMFAState) {
        let parameters = MSALNativeAuthSignInParameters(username: H.alan)
        parameters.password = H.alanPassword
        guard case .awaitingMFA(let methods, let state) = try await world.strongAuthApp.signIn(parameters: parameters) else {
            throw CancellationError()
        }
        return (methods, state)
    }

    static func registration(_ world: World) async throws -> ([MSALAuthMethod], RegisterStrongAuthState, String) {
        let username = try world.jitUser()
        let parameters = MSALNativeAuthSignInParameters(username: username)
        parameters.password = jitPassword
        guard case .strongAuthMethodRegistration(let methods, let state) = try await world.strongAuthApp.signIn(parameters: parameters)
        else { throw CancellationError() }
        return (methods, state, username)
    }

    @Test func everyStepUnderEveryFault() async throws {
        var passed = 0
        var total = 0
        var lines: [String] = []
        for step in Self.steps {
            let world = try World()
            var row = step.name.padding(toLength: 24, withPad: " ", startingAt: 0)
            for fault in Self.faults {
                total += 1
                let handle = try await step.prepare(world)
                var json: [String: Any] = ["endpoint": step.endpoint]
                for (key, value) in fault.json { json[key] = Int(value) ?? (value == "true" ? true : value) }
                // A step that reaches its endpoint after another call of the same path (sign-in
                // token after challenge…) must not have the fault taken by the earlier call.
                try #require(world.harness.hook("POST", "faults", json: [json]).status == 200)
                var ok: Bool
                let mangledOK = fault.json["status"] == "200" && fault.json["body"] != "oversize"
                let expected = step.anyOKCompletes && mangledOK ? nil : fault.expected
                do {
                    try await step.run(world, handle)
                    ok = expected == nil
                } catch let error as MSALNativeAuthError {
                    let cause = error.underlyingError as? MSALNativeAuthNetworkFailure
                    ok =
                        expected != nil && cause?.kind == expected
                        && (fault.transportKind == nil || cause?.transportError?.kind == fault.transportKind)
                }
                _ = world.harness.hook("DELETE", "faults")
                // With the fault gone, the same state (or a new start) works.
                if ok, expected != nil {
                    do {
                        try await step.run(world, step.failureEndsFlow ? try await step.prepare(world) : handle)
                    } catch { ok = false }
                }
                if ok { passed += 1 }
                row += ok ? " ✓" : " ✗"
                #expect(ok, "\(step.name) × \(fault.name)")
            }
            lines.append(row)
        }
        let header = "step".padding(toLength: 24, withPad: " ", startingAt: 0) + Self.faults.indices.map { " \($0 + 1)" }.joined()
        print("Fault matrix (" + Self.faults.enumerated().map { "\($0.offset + 1) \($0.element.name)" }.joined(separator: ", ") + ")")
        print(header)
        for line in lines { print(line) }
        print("fault matrix: \(passed) passed, \(total - passed) failed of \(Self.steps.count) steps × \(Self.faults.count) faults")
        #expect(Self.steps.count == 18 && Self.faults.count == 11 && total == 198, "every step × every fault ran")
    }
}
