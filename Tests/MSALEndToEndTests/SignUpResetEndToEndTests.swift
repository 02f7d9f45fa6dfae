import Foundation
import TestSupport
import Testing

@testable import MSAL
@testable import NativeAuthEmulator

/// Sign-up and password reset through the SDK against the emulator over loopback.
@Suite struct SignUpResetEndToEndTests {
    typealias H = EmulatorHarness
    static let newUser = "new.person@example.com"
    static let goodPassword = "Fresh-Start-2026"

    /// A clock that records waits instead of sleeping, so polling tests take no time.
    final class InstantClock: NativeAuthClock {
        private let waits = Locked<[Double]>([])
        func now() -> Date { Date() }
        func sleep(seconds: Double) async throws { waits.withLock { $0.append(seconds) } }
        var sleeps: [Double] { waits.withLock { $0 } }
    }

    struct World {
        let server: EmulatorServer
        let clock = InstantClock()

        init(seed: Seed = .demo, configure: (inout EmulatorConfiguration) -> Void = { _ in }) throws {
            var configuration = EmulatorConfiguration()
            configuration.passwordHashIterations = 1000
            configure(&configuration)
            server = try EmulatorServer(router: try EmulatorRouter(seed: seed, configuration: configuration), port: 0)
        }

        func app(clientId: String = H.passwordApp, types: MSALNativeAuthChallengeTypes = [.OOB, .password]) throws
            -> MSALNativeAuthPublicClientApplication
        {
            let config = MSALNativeAuthPublicClientApplicationConfig(
                clientId: clientId, authority: try MSALCIAMAuthority(url: URL(string: server.authority)!), challengeTypes: types)
            config.tokenCacheLocation = .inMemory
            return try MSALNativeAuthPublicClientApplication(configuration: config, clock: clock, uuid: { UUID() })
        }

        func code(_ username: String) async throws -> String {
            try await LiveEmulator.lastCode(server, username)
        }

        func mailCount(_ username: String) -> Int {
            server.router.world.withLock { $0.mailbox[username.lowercased()]?.count ?? 0 }
        }
    }

    private func signUpParameters(password: String? = goodPassword, attributes: [String: Any]? = ["displayName": "New Person"])
        -> MSALNativeAuthSignUpParameters
    {
        let parameters = MSALNativeAuthSignUpParameters(username: Self.newUser)
        parameters.password = password
        parameters.attributes = attributes
        return parameters
    }

    private func expectSignedIn(_ after: SignInAfterSignUpState, as username: String = newUser) async throws {
        guard case .completed(let result) = try await after.signIn() else { return }
        #expect(result.account.username == username)
    }

    @Test func passwordAtStartVerificationLast() async throws {
        let world = try World()
        defer { world.server.stop() }
        guard case .codeRequired(let state, _, _, let length) = try await world.app().signUp(parameters: signUpParameters()) else {
            Issue.record("expected a code")
            return
        }
        #expect(length == 8)
        guard case .completed(let after) = try await state.submitCode(code: try await world.code(Self.newUser)) else {
            Issue.record("expected completion")
            return
        }
        try await expectSignedIn(after)
    }

    @Test func attributesAskedAfterVerificationThenSignIn() async throws {
        let world = try World()
        defer { world.server.stop() }
        guard case .codeRequired(let state, _, _, _) = try await world.app().signUp(parameters: signUpParameters(attributes: nil)) else {
            return
        }
        guard
            case .attributesRequired(let attributes, let attributesState) = try await state.submitCode(
                code: try await world.code(Self.newUser))
        else {
            Issue.record("expected attributes")
            return
        }
        #expect(attributes.map(\.name) == ["displayName"] && attributes[0].regex == "^.{1,64}$")
        guard case .attributesInvalid(let names, let same) = try await attributesState.submitAttributes(attributes: ["displayName": ""])
        else {
            Issue.record("expected attributesInvalid")
            return
        }
        #expect(names == ["displayName"])
        guard case .completed(let after) = try await same.submitAttributes(attributes: ["displayName": "New Person"]) else {
            Issue.record("expected completion")
            return
        }
        try await expectSignedIn(after)
    }

    @Test func passwordAfterVerificationWithAWeakOneFirst() async throws {
        let world = try World()
        defer { world.server.stop() }
        guard case .codeRequired(let state, _, _, _) = try await world.app().signUp(parameters: signUpParameters(password: nil)) else {
            return
        }
        guard case .passwordRequired(let passwordState) = try await state.submitCode(code: try await world.code(Self.newUser)) else {
            Issue.record("expected a password step")
            return
        }
        let weak = try await #require(throws: PasswordRequiredError.self) { try await passwordState.submitPassword(password: "weakweak") }
        #expect(weak.isInvalidPassword && weak.serverSuberror == "password_too_weak")
        guard case .completed(let after) = try await passwordState.submitPassword(password: Self.goodPassword) else {
            Issue.record("expected completion")
            return
        }
        try await expectSignedIn(after)
        // The account now signs in with that password.
        let signIn = MSALNativeAuthSignInParameters(username: Self.newUser)
        signIn.password = Self.goodPassword
        guard case .completed = try await world.app().signIn(parameters: signIn) else {
            Issue.record("password sign-in failed")
            return
        }
    }

    @Test func emailCodeOnlySignUp() async throws {
        let world = try World()
        defer { world.server.stop() }
        let app = try world.app(clientId: H.codeApp, types: [.OOB])
        guard case .codeRequired(let state, _, _, _) = try await app.signUp(parameters: signUpParameters(password: nil)) else { return }
        guard case .completed(let after) = try await state.submitCode(code: try await world.code(Self.newUser)) else {
            Issue.record("expected completion")
            return
        }
        try await expectSignedIn(after)
    }

    @Test func attributesOnSeveralScreens() async throws {
        var seed = Seed.demo
        seed.apps[0].attributes = [Seed.Attribute(name: "displayName", screen: 1), Seed.Attribute(name: "city", screen: 2)]
        let world = try World(seed: seed)
        defer { world.server.stop() }
        guard case .codeRequired(let state, _, _, _) = try await world.app().signUp(parameters: signUpParameters(attributes: nil)) else {
            return
        }
        guard case .attributesRequired(let first, let firstState) = try await state.submitCode(code: try await world.code(Self.newUser))
        else { return }
        #expect(first.map(\.name) == ["displayName"])
        guard
            case .attributesRequired(let second, let secondState) = try await firstState.submitAttributes(attributes: ["displayName": "N"])
        else {
            Issue.record("expected a second screen")
            return
        }
        #expect(second.map(\.name) == ["city"])
        guard case .completed(let after) = try await secondState.submitAttributes(attributes: ["city": "Oslo"]) else { return }
        try await expectSignedIn(after)
    }

    @Test func resendGivesANewCodeAndTheOldOneFails() async throws {
        let world = try World()
        defer { world.server.stop() }
        guard case .codeRequired(let state, _, _, _) = try await world.app().signUp(parameters: signUpParameters()) else { return }
        let first = try await world.code(Self.newUser)
        let next = try await state.resendCode().newState
        let second = try await world.code(Self.newUser)
        #expect(first != second && world.mailCount(Self.newUser) == 2)
        let stale = try await #require(throws: VerifyCodeError.self) { try await next.submitCode(code: first) }
        #expect(stale.isInvalidCode)
        guard case .completed = try await next.submitCode(code: second) else {
            Issue.record("expected completion")
            return
        }
    }

    @Test func signUpStartErrors() async throws {
        let world = try World()
        defer { world.server.stop() }
        let existing = MSALNativeAuthSignUpParameters(username: H.ada)
        existing.password = Self.goodPassword
        let exists = try await #require(throws: SignUpStartError.self) { try await world.app().signUp(parameters: existing) }
        #expect(exists.isUserAlreadyExists)
        let invalid = try await #require(throws: SignUpStartError.self) {
            try await world.app().signUp(parameters: .init(username: "not-an-email"))
        }
        #expect(invalid.isInvalidUsername)
        let weak = try await #require(throws: SignUpStartError.self) {
            try await world.app().signUp(parameters: signUpParameters(password: "short"))
        }
        #expect(weak.isInvalidPassword)
        guard
            case .attributesInvalid(let names) = try await world.app().signUp(parameters: signUpParameters(attributes: ["displayName": ""]))
        else {
            Issue.record("expected attributesInvalid")
            return
        }
        #expect(names == ["displayName"])
    }

    // MARK: Password reset

    private func resetToPassword(_ world: World, username: String = H.ada) async throws -> ResetPasswordRequiredState {
        let sent = try await world.app().resetPassword(parameters: .init(username: username))
        let state = sent.newState
        let sentTo = sent.sentTo
        #expect(sentTo == "a*a@e*****e.com")
        let next = try await state.submitCode(code: try await world.code(username))
        return next
    }

    @Test func resetWithPollsInProgressThenSignInAfter() async throws {
        let world = try World { $0.resetPasswordPollsInProgress = 2 }
        defer { world.server.stop() }
        let state = try await resetToPassword(world)
        let reused = try await #require(throws: PasswordRequiredError.self) { try await state.submitPassword(password: H.adaPassword) }
        #expect(reused.isInvalidPassword && reused.serverSuberror == "password_recently_used")
        let after = try await state.submitPassword(password: "Difference-Engine-1822")
        #expect(world.clock.sleeps == [2, 2])
        guard case .completed(let result) = try await after.signIn() else { return }
        #expect(result.account.username == H.ada)
        let old = MSALNativeAuthSignInParameters(username: H.ada)
        old.password = H.adaPassword
        let refused = try await #require(throws: SignInStartError.self) { try await world.app().signIn(parameters: old) }
        #expect(refused.isInvalidCredentials)
    }

    @Test func resetWhosePollsNeverFinish() async throws {
        let world = try World { $0.resetPasswordPollsInProgress = 100 }
        defer { world.server.stop() }
        let state = try await resetToPassword(world)
        let error = try await #require(throws: PasswordRequiredError.self) {
            try await state.submitPassword(password: "Difference-Engine-1822")
        }
        #expect(!error.isInvalidPassword && error.errorDescription?.contains("did not complete") == true)
        #expect(world.clock.sleeps.count == 5)
    }

    @Test func resetErrors() async throws {
        let world = try World()
        defer { world.server.stop() }
        let codeOnly = try await #require(throws: ResetPasswordStartError.self) {
            try await world.app().resetPassword(parameters: .init(username: H.grace))
        }
        #expect(codeOnly.isUserDoesNotHavePassword)
        let nobody = try await #require(throws: ResetPasswordStartError.self) {
            try await world.app().resetPassword(parameters: .init(username: "nobody@example.com"))
        }
        #expect(nobody.isUserNotFound)
        let noOOB = try await #require(throws: ResetPasswordStartError.self) {
            try await world.app(types: [.password]).resetPassword(parameters: .init(username: H.ada))
        }
        #expect(noOOB.isBrowserRequired)
    }

    @Test func resetResendAndWrongCode() async throws {
        let world = try World()
        defer { world.server.stop() }
        let state = try await world.app().resetPassword(parameters: .init(username: H.ada)).newState
        let first = try await world.code(H.ada)
        let next = try await state.resendCode().newState
        let second = try await world.code(H.ada)
        #expect(first != second)
        let wrong = try await #require(throws: VerifyCodeError.self) { try await next.submitCode(code: first) }
        #expect(wrong.isInvalidCode)
        _ = try await next.submitCode(code: second)
    }
}
