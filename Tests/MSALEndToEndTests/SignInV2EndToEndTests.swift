import Foundation
import MSAL
import NativeAuthEmulator
import TestSupport
import Testing

/// Native auth V2 sign-in (experimental) through the `async` forms against the live emulator over
/// loopback HTTP: every journey of docs/usage.md#native-auth-v2-experimental, then the account it
/// leaves in the cache, shared with V1. (The delegate forms run against it in MSALCompatibilityTests.)
@Suite struct SignInV2EndToEndTests {
    typealias H = EmulatorHarness
    static let todo = "api://emulator/todolist/ToDoList.Read"

    private func app(_ server: EmulatorServer) throws -> MSALNativeAuthPublicClientApplication {
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: H.passwordApp, authority: try MSALCIAMAuthority(url: URL(string: server.authority)!),
            challengeTypes: [.OOB, .password])
        config.tokenCacheLocation = .inMemory
        return try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
    }

    private func start(_ app: MSALNativeAuthPublicClientApplication, _ username: String) async throws(MSALNativeAuthFlowError)
        -> MSALNativeAuthFlowResult
    {
        let parameters = MSALNativeAuthSignInParametersV2(username: username)
        parameters.scopes = [Self.todo]
        return try await app.signInV2(parameters: parameters)
    }

    private func signedIn(_ result: MSALNativeAuthFlowResult) throws -> MSALNativeAuthUserAccountResult {
        guard case .completed(let account, let scenario) = result else { throw EndToEndFailure("not signed in: \(result)") }
        #expect(scenario == .signIn)
        return account
    }

    @Test func anEmailCodeSignInLeavesAnAccountV1Uses() async throws {
        let server = try LiveEmulator.start()
        defer { server.stop() }
        let app = try app(server)
        guard case .codeRequired(let state) = try await start(app, H.grace) else { throw EndToEndFailure("no code step") }
        #expect(state.channel.isEmailType && state.codeLength == 8 && state.sentTo.contains("****"))
        do {
            _ = try await state.submitCode("00000000")
            Issue.record("a wrong code was accepted")
        } catch {
            #expect(error.isInvalidCode)
        }
        let account = try signedIn(try await state.submitCode(try await LiveEmulator.lastCode(server, H.grace)))
        #expect(account.account.username == H.grace)
        #expect(app.getNativeAuthUserAccount()?.account.username == H.grace, "the V1 call reads the V2 account")
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = [Self.todo]
        let token = try await account.getAccessToken(parameters: parameters)
        #expect(token.accessToken.split(separator: ".").count == 3)
    }

    @Test func aPasswordThenAnSMSSecondFactorThroughTheRiskHop() async throws {
        let server = try LiveEmulator.start()
        defer { server.stop() }
        let app = try app(server)
        guard case .passwordRequired(let password) = try await start(app, "alan@example.com") else {
            throw EndToEndFailure("no password step")
        }
        guard case .authMethodSelectionRequired(let selection) = try await password.submitPassword("Turing-Machine-1936") else {
            throw EndToEndFailure("no second-factor selection")
        }
        #expect(selection.purpose == .mfa)
        let sms = try #require(selection.authMethods.first { $0.channelTargetType.isSMSType })
        guard case .mfaVerificationRequired(let verification) = try await selection.selectAuthMethod(sms) else {
            throw EndToEndFailure("no MFA code step")
        }
        #expect(verification.channel.isSMSType && verification.codeLength == 6)
        guard case .mfaVerificationRequired(let resent) = try await verification.resendChallenge() else {
            throw EndToEndFailure("no resend")
        }
        let account = try signedIn(try await resent.submitChallenge(try await LiveEmulator.lastCode(server, "alan@example.com")))
        #expect(account.account.username == "alan@example.com")
    }

    @Test func aChoiceOfFirstFactorsThenThePassword() async throws {
        let server = try LiveEmulator.start()
        defer { server.stop() }
        let app = try app(server)
        guard case .authMethodSelectionRequired(let selection) = try await start(app, "barbara@example.com") else {
            throw EndToEndFailure("no first-factor choice")
        }
        #expect(selection.purpose == .firstFactor && selection.authMethods.map(\.challengeType) == ["password", "email"])
        guard case .passwordRequired(let password) = try await selection.selectAuthMethod(selection.authMethods[0]) else {
            throw EndToEndFailure("no password step")
        }
        _ = try signedIn(try await password.submitPassword("Substitution-Principle-1987"))
        do {
            _ = try await selection.selectAuthMethod(selection.authMethods[1])
            Issue.record("a spent selection was used again")
        } catch {
            #expect(error.isGeneralError)
        }
    }

    @Test func registeringTheOwnAddressJustInTimeNeedsNoCode() async throws {
        let server = try LiveEmulator.start()
        defer { server.stop() }
        let app = try app(server)
        guard case .passwordRequired(let password) = try await start(app, "katherine@example.com") else {
            throw EndToEndFailure("no password step")
        }
        guard case .strongAuthRegistrationRequired(let registration) = try await password.submitPassword("Orbital-Mechanics-1962") else {
            throw EndToEndFailure("no registration step")
        }
        let email = try #require(registration.authMethods.first { $0.channelTargetType.isEmailType })
        _ = try signedIn(try await registration.selectAuthMethod(email, verificationContact: "katherine@example.com"))
    }

    @Test func aBrowserOnlyAccountAndAnUnknownOne() async throws {
        let server = try LiveEmulator.start()
        defer { server.stop() }
        let app = try app(server)
        for (username, check) in [
            ("hedy@example.com", { (error: MSALNativeAuthFlowError) in error.isBrowserRequired }),
            ("nobody@example.com", { (error: MSALNativeAuthFlowError) in error.isUserNotFound }),
        ] {
            do {
                _ = try await start(app, username)
                Issue.record("\(username) started")
            } catch {
                #expect(check(error), "\(username): \(error)")
            }
        }
    }
}
