import Foundation
import TestSupport
import Testing

@testable import MSAL
@testable import NativeAuthEmulator

/// Native auth V2 sign-up, password reset and inline recovery through the SDK against the emulator
/// over loopback (docs/protocol.md, Native auth V2). Polling waits are recorded, not slept.
@Suite struct V2SignUpResetEndToEndTests {
    typealias H = EmulatorHarness
    typealias World = SignUpResetEndToEndTests.World
    static let lin = "lin@example.com"
    static let margaret = "margaret@example.com"
    static let newPassword = "Fresh-Start-2026-V2"

    @Test func signUpOnAppOneWithAttributesAndPasswordThenSignInAfterSignUp() async throws {
        let world = try World()
        defer { world.server.stop() }
        let app = try world.app()
        let parameters = MSALNativeAuthSignUpParametersV2(username: Self.lin)
        parameters.attributes = ["displayName": "Lin Lanying"]
        let code = try expectState(try await app.signUpV2(parameters: parameters), MSALNativeAuthCodeRequiredState.self)
        #expect(code.codeLength == 8 && code.scenario == .signUp && code.sentTo == "l****n@e****e")
        let password = try expectState(try await code.submitCode(try await world.code(Self.lin)), MSALNativeAuthPasswordRequiredState.self)
        #expect(!password.canRecoverPassword)
        let weak = try await flowError { () async throws(MSALNativeAuthFlowError) in try await password.submitPassword("short") }
        #expect(weak.isInvalidPassword)
        let after = try expectState(try await password.submitPassword(Self.newPassword), MSALNativeAuthSignInAfterSignUpState.self)
        guard case .completed(let result, .signUp) = try await after.signIn() else { throw UnexpectedOutcome("expected completion") }
        #expect(result.account.username == Self.lin)
        // The new account signs in with V2 afterwards, by password.
        let again = try expectState(
            try await app.signInV2(parameters: MSALNativeAuthSignInParametersV2(username: Self.lin)),
            MSALNativeAuthPasswordRequiredState.self)
        guard case .completed = try await again.submitPassword(Self.newPassword) else { throw UnexpectedOutcome("expected sign-in") }
    }

    @Test func aRefusedAttributeIsInvalidAttributesAndTheStateStaysUsable() async throws {
        let world = try World()
        defer { world.server.stop() }
        let parameters = MSALNativeAuthSignUpParameters(username: Self.lin)
        parameters.password = Self.newPassword
        parameters.attributes = ["displayName": String(repeating: "x", count: 65)]
        let code = try expectState(try await world.app().signUpV2(parameters: parameters), MSALNativeAuthCodeRequiredState.self)
        let sent = try await world.code(Self.lin)
        let error = try await flowError { () async throws(MSALNativeAuthFlowError) in try await code.submitCode(sent) }
        #expect(error.isInvalidAttributes && error.errorDescription?.contains("displayName") == true, "\(error)")
        #expect(error.errorCodes.contains(1_002_027))
        // Without displayName from the app: the password first, then the attributes state, refused, then accepted.
        let other = MSALNativeAuthSignUpParametersV2(username: "mae.new@example.com")
        let code2 = try expectState(try await world.app().signUpV2(parameters: other), MSALNativeAuthCodeRequiredState.self)
        let password = try expectState(
            try await code2.submitCode(try await world.code("mae.new@example.com")), MSALNativeAuthPasswordRequiredState.self)
        let attributes = try expectState(try await password.submitPassword(Self.newPassword), MSALNativeAuthAttributesRequiredState.self)
        #expect(attributes.attributes.map(\.name) == ["displayName"] && attributes.attributes[0].label != nil)
        let refused = try await flowError { () async throws(MSALNativeAuthFlowError) in
            try await attributes.submitAttributes(["displayName": String(repeating: "y", count: 65)])
        }
        #expect(refused.isInvalidAttributes)
        _ = try expectState(try await attributes.submitAttributes(["displayName": "Mae"]), MSALNativeAuthSignInAfterSignUpState.self)
    }

    @Test func resetForAdaWithNewPasswordThenSignInAfterReset() async throws {
        let world = try World()
        defer { world.server.stop() }
        let app = try world.app()
        let code = try expectState(
            try await app.resetPasswordV2(parameters: MSALNativeAuthResetPasswordParametersV2(username: H.ada)),
            MSALNativeAuthCodeRequiredState.self)
        #expect(code.scenario == .passwordReset && code.sentTo == "a****a@e****e")
        let newPassword = try expectState(
            try await code.submitCode(try await world.code(H.ada)), MSALNativeAuthNewPasswordRequiredState.self)
        let reused = try await flowError { () async throws(MSALNativeAuthFlowError) in
            try await newPassword.submitNewPassword(H.adaPassword)
        }
        #expect(reused.isInvalidPassword)
        let after = try expectState(
            try await newPassword.submitNewPassword(Self.newPassword), MSALNativeAuthSignInAfterResetPasswordState.self)
        #expect(world.clock.sleeps == [1.5])
        guard case .completed(let result, .passwordReset) = try await after.signIn() else { throw UnexpectedOutcome("expected completion") }
        #expect(result.account.username == H.ada)
        let again = try expectState(
            try await app.signInV2(parameters: MSALNativeAuthSignInParametersV2(username: H.ada)), MSALNativeAuthPasswordRequiredState.self)
        guard case .completed = try await again.submitPassword(Self.newPassword) else { throw UnexpectedOutcome("expected sign-in") }
    }

    @Test func margaretResetsBySMSThenMFAThenSignInAfterReset() async throws {
        let world = try World()
        defer { world.server.stop() }
        let selection = try expectState(
            try await world.app().resetPasswordV2(parameters: MSALNativeAuthResetPasswordParameters(username: Self.margaret)),
            MSALNativeAuthAuthMethodSelectionRequiredState.self)
        #expect(selection.purpose == .recovery && selection.authMethods.map(\.challengeType) == ["email", "sms"])
        let sms = try #require(selection.authMethods.last)
        let code = try expectState(try await selection.selectAuthMethod(sms), MSALNativeAuthCodeRequiredState.self)
        #expect(code.codeLength == 6 && code.channel.isSMSType)
        let newPassword = try expectState(
            try await code.submitCode(try await world.code(Self.margaret)), MSALNativeAuthNewPasswordRequiredState.self)
        let mfa = try expectState(
            try await newPassword.submitNewPassword(Self.newPassword), MSALNativeAuthAuthMethodSelectionRequiredState.self)
        #expect(mfa.purpose == .mfa && mfa.scenario == .passwordReset)
        let challenge = try expectState(try await mfa.selectAuthMethod(mfa.authMethods[0]), MSALNativeAuthMFAVerificationRequiredState.self)
        let after = try expectState(
            try await challenge.submitChallenge(try await world.code(Self.margaret)), MSALNativeAuthSignInAfterResetPasswordState.self)
        guard case .completed(let result, _) = try await after.signIn() else { throw UnexpectedOutcome("expected completion") }
        #expect(result.account.username == Self.margaret)
    }

    @Test func inlineRecoveryFromTheSignInPasswordCompletesTheSignIn() async throws {
        let world = try World()
        defer { world.server.stop() }
        let password = try expectState(
            try await world.app().signInV2(parameters: MSALNativeAuthSignInParametersV2(username: H.ada)),
            MSALNativeAuthPasswordRequiredState.self)
        #expect(password.canRecoverPassword)
        let code = try expectState(try await password.recoverPassword(), MSALNativeAuthCodeRequiredState.self)
        #expect(code.scenario == .signIn)
        let newPassword = try expectState(
            try await code.submitCode(try await world.code(H.ada)), MSALNativeAuthNewPasswordRequiredState.self)
        guard case .completed(let result, .signIn) = try await newPassword.submitNewPassword(Self.newPassword) else {
            throw UnexpectedOutcome("expected the sign-in to complete")
        }
        #expect(result.account.username == H.ada)
    }

    @Test func signUpAndResetThroughTheDelegate() async throws {
        let world = try World()
        defer { world.server.stop() }
        let delegate = await V2E2EDelegate()
        try world.app().resetPasswordV2(parameters: MSALNativeAuthResetPasswordParametersV2(username: H.ada), delegate: delegate)
        let code = try await delegate.next(MSALNativeAuthCodeRequiredState.self)
        code.submitCode(try await world.code(H.ada), delegate: delegate)
        let newPassword = try await delegate.next(MSALNativeAuthNewPasswordRequiredState.self)
        newPassword.submitNewPassword(Self.newPassword, delegate: delegate)
        let after = try await delegate.next(MSALNativeAuthSignInAfterResetPasswordState.self)
        after.signIn(parameters: MSALNativeAuthSignInAfterResetPasswordParameters(), delegate: delegate)
        #expect(try await delegate.next(String.self) == H.ada)
    }

    /// An email-code app that collects no attributes: the right code finishes the sign-up (the
    /// sign-in-after state comes next, as MSAL's code expects), in both call forms.
    static var codeOnlySeed: Seed {
        var seed = Seed.demo
        seed.apps[1].attributes = []
        return seed
    }

    @Test func aCodeOnlySignUpWithoutAttributesFinishesAfterTheCode() async throws {
        let world = try World(seed: Self.codeOnlySeed)
        defer { world.server.stop() }
        let app = try world.app(clientId: H.codeApp, types: [.OOB])
        let code = try expectState(
            try await app.signUpV2(parameters: MSALNativeAuthSignUpParametersV2(username: Self.lin)), MSALNativeAuthCodeRequiredState.self)
        let after = try expectState(try await code.submitCode(try await world.code(Self.lin)), MSALNativeAuthSignInAfterSignUpState.self)
        guard case .completed(let result, .signUp) = try await after.signIn() else { throw UnexpectedOutcome("expected completion") }
        #expect(result.account.username == Self.lin)
    }

    @Test func aCodeOnlySignUpWithoutAttributesFinishesThroughTheDelegate() async throws {
        let world = try World(seed: Self.codeOnlySeed)
        defer { world.server.stop() }
        let delegate = await V2E2EDelegate()
        let app = try world.app(clientId: H.codeApp, types: [.OOB])
        app.signUpV2(parameters: MSALNativeAuthSignUpParametersV2(username: Self.lin), delegate: delegate)
        let code = try await delegate.next(MSALNativeAuthCodeRequiredState.self)
        code.submitCode(try await world.code(Self.lin), delegate: delegate)
        let after = try await delegate.next(MSALNativeAuthSignInAfterSignUpState.self)
        after.signIn(parameters: MSALNativeAuthSignInAfterSignUpParameters(), delegate: delegate)
        #expect(try await delegate.next(String.self) == Self.lin)
    }
}

/// Records the states and the completed username of a V2 flow run through delegates.
@MainActor
final class V2E2EDelegate: MSALNativeAuthCodeRequiredDelegate, MSALNativeAuthNewPasswordRequiredDelegate,
    MSALNativeAuthSignInAfterResetPasswordRequiredDelegate, MSALNativeAuthSignInAfterSignUpRequiredDelegate
{
    private var events: [Any] = []
    private var taken = 0

    func next<T>(_ type: T.Type) async throws -> T {
        for _ in 0..<10_000 where events.count <= taken { try await Task.sleep(nanoseconds: 1_000_000) }
        guard events.count > taken else { throw UnexpectedOutcome("no callback") }
        taken += 1
        guard let typed = events[taken - 1] as? T else { throw UnexpectedOutcome("expected \(T.self), got \(events[taken - 1])") }
        return typed
    }

    func onFlowCompleted(result: MSALNativeAuthUserAccountResult, scenario: MSALNativeAuthFlowScenario) {
        events.append(result.account.username ?? "")
    }
    func onFlowError(error: MSALNativeAuthFlowError, scenario: MSALNativeAuthFlowScenario) { events.append(error) }
    func onCodeRequired(state: MSALNativeAuthCodeRequiredState, scenario: MSALNativeAuthFlowScenario) { events.append(state) }
    func onNewPasswordRequired(state: MSALNativeAuthNewPasswordRequiredState, scenario: MSALNativeAuthFlowScenario) {
        events.append(state)
    }
    func onSignInAfterResetPasswordRequired(state: MSALNativeAuthSignInAfterResetPasswordState, scenario: MSALNativeAuthFlowScenario) {
        events.append(state)
    }
    func onSignInAfterSignUpRequired(state: MSALNativeAuthSignInAfterSignUpState, scenario: MSALNativeAuthFlowScenario) {
        events.append(state)
    }
}
