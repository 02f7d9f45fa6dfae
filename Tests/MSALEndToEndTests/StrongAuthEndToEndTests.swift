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

    // The harness: StrongAuthEndToEndTests+Harness.swift. The tests: +MFA.swift, +Registration.swift, and
    // the round trips below.

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
