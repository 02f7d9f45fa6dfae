import Foundation
import TestSupport
import Testing

@testable import MSAL
@testable import NativeAuthEmulator

/// Flow states saved in this process and continued in another (`msal-flow-step`, spawned), and
/// back, against the emulator over loopback: every flow kind (docs/saved-states.md).
@Suite struct SavedStateEndToEndTests {
    typealias H = EmulatorHarness

    final class InstantClock: NativeAuthClock {
        func now() -> Date { Date() }
        func sleep(seconds: Double) async throws {}
    }

    final class World {
        let harness: H
        let server: EmulatorServer

        init() throws {
            harness = try H()
            server = try EmulatorServer(router: harness.router, port: 0)
        }

        deinit { server.stop() }

        func app() throws -> MSALNativeAuthPublicClientApplication {
            let config = MSALNativeAuthPublicClientApplicationConfig(
                clientId: H.passwordApp, authority: try MSALCIAMAuthority(url: URL(string: server.authority)!),
                challengeTypes: [.OOB, .password])
            config.capabilities = [.mfaRequired, .registrationRequired]
            config.tokenCacheLocation = .inMemory
            return try MSALNativeAuthPublicClientApplication(configuration: config, clock: InstantClock(), uuid: { UUID() })
        }

        func code(_ username: String) throws -> String { try #require(harness.lastCode(username)) }

        /// The client-request-id of the emulator's last logged request to `endpoint`.
        func lastCorrelation(_ endpoint: String) -> String? {
            harness.hook("GET", "requests").list.last { $0["endpoint"] as? String == endpoint }?["client_request_id"] as? String
        }

        /// Runs one step in a new process on the saved `state`; what it printed.
        func step(_ state: any MSALNativeAuthSerializableState, _ arguments: String...) async throws -> [String: String] {
            let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("msal-flow-step")
            let result = try await ChildProcess.run(
                tool.path, [server.authority, H.passwordApp] + arguments, input: state.serialized(), limit: 120)
            try #require(result.status == 0, "msal-flow-step \(arguments) exited \(result.status): \(result.stderr)")
            let data = Data(result.stdout.utf8)
            return try #require(
                try JSONSerialization.jsonObject(with: data) as? [String: String], "\(String(decoding: data, as: UTF8.self))")
        }
    }

    /// The state the other process saved.
    func restored<State: MSALNativeAuthSerializableState>(
        _ reply: [String: String], _ app: MSALNativeAuthPublicClientApplication, as type: State.Type
    ) throws -> State {
        try #require(reply["outcome"] == "state", "\(reply)")
        return try app.restoreState(serialized: Data(try #require(reply["state"]).utf8), as: type)
    }

    @Test func aCodeSignInContinuesInAnotherProcessWithTheSameCorrelationId() async throws {
        let world = try World()
        guard case .codeRequired(let state, _, _, _) = try await world.app().signIn(parameters: .init(username: H.grace)) else {
            throw EndToEndFailure("expected .codeRequired")
        }
        let reply = try await world.step(state, "submit-code", try world.code(H.grace))
        #expect(reply == ["outcome": "signedIn", "username": H.grace])
        #expect(world.lastCorrelation("/oauth2/v2.0/token")?.lowercased() == state.correlationId.uuidString.lowercased())
    }

    @Test func aWrongCodeInTheOtherProcessLeavesTheSavedStateUsableHere() async throws {
        let world = try World()
        let app = try world.app()
        guard case .codeRequired(let state, _, _, _) = try await app.signIn(parameters: .init(username: H.grace)) else {
            throw EndToEndFailure("expected .codeRequired")
        }
        let wrong = try await world.step(state, "submit-code", "00000000")
        #expect(wrong["outcome"] == "error")
        let again = try app.restoreState(serialized: state.serialized(), as: SignInCodeRequiredState.self)
        guard case .completed(let result) = try await again.submitCode(code: try world.code(H.grace)) else {
            throw EndToEndFailure("expected .completed")
        }
        #expect(result.account.username == H.grace)
    }

    @Test func aPasswordSignInContinuesInAnotherProcess() async throws {
        let world = try World()
        guard case .passwordRequired(let state) = try await world.app().signIn(parameters: .init(username: H.ada)) else {
            throw EndToEndFailure("expected .passwordRequired")
        }
        #expect(try await world.step(state, "submit-password", H.adaPassword) == ["outcome": "signedIn", "username": H.ada])
    }

    @Test func aSignUpCrossesProcessesAtEveryStep() async throws {
        let world = try World()
        let app = try world.app()
        let username = "saved.state@example.com"
        let parameters = MSALNativeAuthSignUpParameters(username: username)
        guard case .codeRequired(let state, _, _, _) = try await app.signUp(parameters: parameters) else {
            throw EndToEndFailure("expected .codeRequired")
        }
        // Code there, password here, attributes there, sign-in here.
        let password = try restored(
            try await world.step(state, "submit-code", try world.code(username)), app, as: SignUpPasswordRequiredState.self)
        #expect(password.username == username && password.correlationId == state.correlationId)
        guard case .attributesRequired(_, let attributes) = try await password.submitPassword(password: "Fresh-Start-2026") else {
            throw EndToEndFailure("expected .attributesRequired")
        }
        let after = try restored(
            try await world.step(attributes, "submit-attributes", #"{"displayName":"Saved State"}"#), app, as: SignInAfterSignUpState.self)
        guard case .completed(let result) = try await after.signIn() else { throw EndToEndFailure("expected .completed") }
        #expect(result.account.username == username)
    }

    @Test func aPasswordResetCrossesProcesses() async throws {
        let world = try World()
        let app = try world.app()
        let state = try await app.resetPassword(parameters: .init(username: H.ada)).newState
        let password = try restored(
            try await world.step(state, "submit-code", try world.code(H.ada)), app, as: ResetPasswordRequiredState.self)
        let after = try await password.submitPassword(password: "Second-Engine-1871")
        #expect(try await world.step(after, "sign-in") == ["outcome": "signedIn", "username": H.ada])
    }

    @Test func multifactorBySMSCrossesProcesses() async throws {
        let world = try World()
        let app = try world.app()
        let parameters = MSALNativeAuthSignInParameters(username: H.alan)
        parameters.password = H.alanPassword
        guard case .awaitingMFA(let methods, let awaiting) = try await app.signIn(parameters: parameters) else {
            throw EndToEndFailure("expected .awaitingMFA")
        }
        #expect(methods.contains { $0.id == H.alanSMSMethod })
        let required = try restored(try await world.step(awaiting, "request-challenge", H.alanSMSMethod), app, as: MFARequiredState.self)
        #expect(required.authMethods.map(\.id) == methods.map(\.id))
        let code = try #require(world.harness.lastMail(H.alan)?["code"] as? String)
        #expect(try await world.step(required, "submit-challenge", code) == ["outcome": "signedIn", "username": H.alan])
    }

    @Test func strongAuthRegistrationCrossesProcesses() async throws {
        let world = try World()
        let app = try world.app()
        let parameters = MSALNativeAuthSignInParameters(username: H.katherine)
        parameters.password = H.katherinePassword
        guard case .strongAuthMethodRegistration(let methods, let register) = try await app.signIn(parameters: parameters) else {
            throw EndToEndFailure("expected .strongAuthMethodRegistration")
        }
        let email = try #require(methods.first { $0.channelTargetType.isEmailType })
        let contact = "katherine.backup@example.net"
        let verification = try restored(
            try await world.step(register, "challenge-auth-method", email.id, contact), app,
            as: RegisterStrongAuthVerificationRequiredState.self)
        let code = try world.code(H.katherine)
        let result = try await verification.submitChallenge(challenge: code)
        #expect(result.account.username == H.katherine)
    }
}
