import Foundation
import TestSupport
import Testing

@testable import MSAL
@testable import NativeAuthEmulator

/// Native auth V2 sign-up and reset states saved by one application object and continued by another
/// against the emulator over loopback, to a signed-in account (docs/saved-states.md#version-2-native-auth-v2).
@Suite struct V2SavedStateEndToEndTests {
    typealias H = EmulatorHarness
    typealias World = SignUpResetEndToEndTests.World
    static let lin = "lin@example.com"
    static let margaret = "margaret@example.com"
    static let newPassword = "Fresh-Start-2026-V2"

    /// `state` saved, and restored by a new application object on the same emulator.
    func restored(_ state: some MSALNativeAuthSerializableState, _ world: World) throws -> MSALNativeAuthFlowResult {
        try world.app().restoreStateV2(serialized: state.serialized())
    }

    @Test func aSignUpWithAttributesRestoredAtEachStepSignsIn() async throws {
        let world = try World()
        defer { world.server.stop() }
        let parameters = MSALNativeAuthSignUpParametersV2(username: Self.lin)
        parameters.attributes = ["city": "Oslo"]
        let code = try expectState(try await world.app().signUpV2(parameters: parameters), MSALNativeAuthCodeRequiredState.self)
        let code2 = try expectState(try restored(code, world), MSALNativeAuthCodeRequiredState.self)
        #expect(code2.scenario == .signUp && code2.sentTo == code.sentTo)
        let password = try expectState(try await code2.submitCode(try await world.code(Self.lin)), MSALNativeAuthPasswordRequiredState.self)
        let password2 = try expectState(try restored(password, world), MSALNativeAuthPasswordRequiredState.self)
        // The password goes with the app's city; displayName is still missing, so the service asks again.
        let attributes = try expectState(try await password2.submitPassword(Self.newPassword), MSALNativeAuthAttributesRequiredState.self)
        #expect(attributes.attributes.map(\.name) == ["displayName"])
        let attributes2 = try expectState(try restored(attributes, world), MSALNativeAuthAttributesRequiredState.self)
        #expect(attributes2.attributes.map(\.name) == ["displayName"] && attributes2.attributes[0].label == "Display name")
        let refused = try await flowError { () async throws(MSALNativeAuthFlowError) in
            try await attributes2.submitAttributes(["displayName": String(repeating: "y", count: 65)])
        }
        #expect(refused.isInvalidAttributes && refused.errorDescription?.contains("displayName") == true)
        let after = try expectState(
            try await attributes2.submitAttributes(["displayName": "Lin Lanying"]), MSALNativeAuthSignInAfterSignUpState.self)
        let after2 = try expectState(try restored(after, world), MSALNativeAuthSignInAfterSignUpState.self)
        guard case .completed(let result, .signUp) = try await after2.signIn() else { throw UnexpectedOutcome("expected completion") }
        #expect(result.account.username == Self.lin)
        let user = world.server.router.world.withLock { $0.users[Self.lin] }
        #expect(user?.attributes["city"] == "Oslo" && user?.attributes["displayName"] == "Lin Lanying")
    }

    @Test func aResetRestoredAtTheNewPasswordAndAtTheSignInSignsIn() async throws {
        let world = try World()
        defer { world.server.stop() }
        let code = try expectState(
            try await world.app().resetPasswordV2(parameters: MSALNativeAuthResetPasswordParametersV2(username: H.ada)),
            MSALNativeAuthCodeRequiredState.self)
        let newPassword = try expectState(
            try await code.submitCode(try await world.code(H.ada)), MSALNativeAuthNewPasswordRequiredState.self)
        let newPassword2 = try expectState(try restored(newPassword, world), MSALNativeAuthNewPasswordRequiredState.self)
        #expect(newPassword2.scenario == .passwordReset)
        let after = try expectState(
            try await newPassword2.submitNewPassword(Self.newPassword), MSALNativeAuthSignInAfterResetPasswordState.self)
        let after2 = try expectState(try restored(after, world), MSALNativeAuthSignInAfterResetPasswordState.self)
        #expect(after2.scenario == .passwordReset)
        guard case .completed(let result, .passwordReset) = try await after2.signIn() else {
            throw UnexpectedOutcome("expected completion")
        }
        #expect(result.account.username == H.ada)
        let again = try expectState(
            try await world.app().signInV2(parameters: MSALNativeAuthSignInParametersV2(username: H.ada)),
            MSALNativeAuthPasswordRequiredState.self)
        guard case .completed = try await again.submitPassword(Self.newPassword) else { throw UnexpectedOutcome("expected sign-in") }
    }

    @Test func margaretsSMSResetWithMFARestoredAtEachStep() async throws {
        let world = try World()
        defer { world.server.stop() }
        let selection = try expectState(
            try await world.app().resetPasswordV2(parameters: MSALNativeAuthResetPasswordParametersV2(username: Self.margaret)),
            MSALNativeAuthAuthMethodSelectionRequiredState.self)
        let selection2 = try expectState(try restored(selection, world), MSALNativeAuthAuthMethodSelectionRequiredState.self)
        #expect(selection2.purpose == .recovery && selection2.scenario == .passwordReset)
        let sms = try #require(selection2.authMethods.last)
        let code = try expectState(try await selection2.selectAuthMethod(sms), MSALNativeAuthCodeRequiredState.self)
        let code2 = try expectState(try restored(code, world), MSALNativeAuthCodeRequiredState.self)
        #expect(code2.codeLength == 6 && code2.channel.isSMSType)
        let newPassword = try expectState(
            try await code2.submitCode(try await world.code(Self.margaret)), MSALNativeAuthNewPasswordRequiredState.self)
        let mfa = try expectState(
            try await expectState(try restored(newPassword, world), MSALNativeAuthNewPasswordRequiredState.self)
                .submitNewPassword(Self.newPassword),
            MSALNativeAuthAuthMethodSelectionRequiredState.self)
        let mfa2 = try expectState(try restored(mfa, world), MSALNativeAuthAuthMethodSelectionRequiredState.self)
        #expect(mfa2.purpose == .mfa && mfa2.scenario == .passwordReset)
        let challenge = try expectState(
            try await mfa2.selectAuthMethod(mfa2.authMethods[0]), MSALNativeAuthMFAVerificationRequiredState.self)
        let challenge2 = try expectState(try restored(challenge, world), MSALNativeAuthMFAVerificationRequiredState.self)
        let after = try expectState(
            try await challenge2.submitChallenge(try await world.code(Self.margaret)), MSALNativeAuthSignInAfterResetPasswordState.self)
        let after2 = try expectState(try restored(after, world), MSALNativeAuthSignInAfterResetPasswordState.self)
        guard case .completed(let result, .passwordReset) = try await after2.signIn() else {
            throw UnexpectedOutcome("expected completion")
        }
        #expect(result.account.username == Self.margaret)
    }
}
