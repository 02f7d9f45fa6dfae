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
    static let profile = "api://emulator/profile/Profile.Read"

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

    /// The account's access token for the to-do scope, checked to be a JWT.
    private func todoToken(_ account: MSALNativeAuthUserAccountResult) async throws -> String {
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = [Self.todo]
        let token = try await account.getAccessToken(parameters: parameters).accessToken
        #expect(token.split(separator: ".").count == 3)
        return token
    }

    /// katherine's password, which leads (until she has a strong-auth method) to the registration step.
    private func katherineRegistration(_ app: MSALNativeAuthPublicClientApplication) async throws
        -> MSALNativeAuthStrongAuthRegistrationRequiredState
    {
        let password = try expectState(try await start(app, H.katherine), MSALNativeAuthPasswordRequiredState.self)
        let registration = try expectState(
            try await password.submitPassword(H.katherinePassword), MSALNativeAuthStrongAuthRegistrationRequiredState.self)
        #expect(registration.scenario == .signIn && registration.authMethods.map(\.challengeType) == ["email", "sms"])
        return registration
    }

    /// The second factors katherine's next sign-in offers: the methods she registered.
    private func katherineSecondFactors(_ app: MSALNativeAuthPublicClientApplication) async throws -> [MSALAuthMethod] {
        let password = try expectState(try await start(app, H.katherine), MSALNativeAuthPasswordRequiredState.self)
        let selection = try expectState(
            try await password.submitPassword(H.katherinePassword), MSALNativeAuthAuthMethodSelectionRequiredState.self)
        #expect(selection.purpose == .mfa)
        return selection.authMethods
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

    @Test func aPasswordThenAnEmailSecondFactorResentThenSubmitted() async throws {
        let server = try LiveEmulator.start()
        defer { server.stop() }
        let app = try app(server)
        let password = try expectState(try await start(app, H.alan), MSALNativeAuthPasswordRequiredState.self)
        let selection = try expectState(
            try await password.submitPassword(H.alanPassword), MSALNativeAuthAuthMethodSelectionRequiredState.self)
        #expect(selection.purpose == .mfa && selection.authMethods.map(\.challengeType) == ["email", "sms"])
        let email = try #require(selection.authMethods.first { $0.channelTargetType.isEmailType })
        let verification = try expectState(try await selection.selectAuthMethod(email), MSALNativeAuthMFAVerificationRequiredState.self)
        #expect(verification.channel.isEmailType && verification.codeLength == 8 && verification.sentTo == "a****p@e****e")
        let first = try #require(try await LiveEmulator.mails(server, H.alan).last)
        #expect(first["purpose"] as? String == "mfa" && first["target"] as? String == "alan.backup@example.net")
        let resent = try expectState(try await verification.resendChallenge(), MSALNativeAuthMFAVerificationRequiredState.self)
        #expect(resent.channel.isEmailType && resent.codeLength == 8)
        let mails = try await LiveEmulator.mails(server, H.alan)
        #expect(mails.count == 2 && mails.last?["target"] as? String == "alan.backup@example.net", "one more code, to the same address")
        let retired = try #require(first["code"] as? String)
        let stale = try await flowError { () async throws(MSALNativeAuthFlowError) in try await resent.submitChallenge(retired) }
        #expect(stale.isInvalidCode, "the resend retires the first code")
        let account = try signedIn(try await resent.submitChallenge(try await LiveEmulator.lastCode(server, H.alan)))
        #expect(account.account.username == H.alan)
        _ = try await todoToken(account)
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
            Issue.record("the service took a selection of a finished sign-in")
        } catch {
            #expect(error.isGeneralError && error.serverSuberror == "invalidContinuationToken", "the service refused it, not the SDK")
        }
    }

    /// 2.17-era code picks again on the same selection after a wrong password, live and from a copy
    /// saved before the first pick (docs/decisions.md#native-auth-v2).
    @Test func aSelectionIsUsedAgainAfterAWrongPasswordLiveAndRestored() async throws {
        let server = try LiveEmulator.start()
        defer { server.stop() }
        let app = try app(server)
        guard case .authMethodSelectionRequired(let selection) = try await start(app, "barbara@example.com") else {
            throw EndToEndFailure("no first-factor choice")
        }
        let saved = selection.serialized()
        guard case .passwordRequired(let password) = try await selection.selectAuthMethod(selection.authMethods[0]) else {
            throw EndToEndFailure("no password step")
        }
        let wrong = try await flowError { () async throws(MSALNativeAuthFlowError) in try await password.submitPassword("not-it") }
        #expect(wrong.isInvalidPassword)
        guard case .codeRequired(let code) = try await selection.selectAuthMethod(selection.authMethods[1]) else {
            throw EndToEndFailure("the same selection did not pick the email code")
        }
        #expect(code.channel.isEmailType)
        guard case .authMethodSelectionRequired(let restored) = try app.restoreStateV2(serialized: saved) else {
            throw EndToEndFailure("the saved selection did not restore")
        }
        guard case .codeRequired(let again) = try await restored.selectAuthMethod(restored.authMethods[1]) else {
            throw EndToEndFailure("the restored selection did not pick the email code")
        }
        let account = try signedIn(try await again.submitCode(try await LiveEmulator.lastCode(server, "barbara@example.com")))
        #expect(account.account.username == "barbara@example.com")
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

    @Test func registeringAPhoneJustInTimeNeedsItsCode() async throws {
        let server = try LiveEmulator.start()
        defer { server.stop() }
        let app = try app(server)
        let registration = try await katherineRegistration(app)
        let sms = try #require(registration.authMethods.first { $0.channelTargetType.isSMSType })
        let verification = try expectState(
            try await registration.selectAuthMethod(sms, verificationContact: "+15550123"),
            MSALNativeAuthStrongAuthVerificationRequiredState.self)
        #expect(verification.channel.isSMSType && verification.codeLength == 6 && verification.sentTo == "+*******0123")
        let mail = try #require(try await LiveEmulator.mails(server, H.katherine).last)
        #expect(mail["purpose"] as? String == "registration" && mail["channel"] as? String == "sms")
        #expect(mail["target"] as? String == "+15550123")
        let wrong = try await flowError { () async throws(MSALNativeAuthFlowError) in try await verification.submitChallenge("000000") }
        #expect(wrong.isInvalidCode)
        let account = try signedIn(try await verification.submitChallenge(try #require(mail["code"] as? String)))
        #expect(account.account.username == H.katherine)
        _ = try await todoToken(account)
        let methods = try await katherineSecondFactors(app)
        #expect(methods.map(\.challengeType) == ["sms"] && methods.first?.loginHint == "+*******0123", "the phone is registered")
    }

    @Test func registeringAnotherAddressJustInTimeNeedsItsCode() async throws {
        let server = try LiveEmulator.start()
        defer { server.stop() }
        let app = try app(server)
        let registration = try await katherineRegistration(app)
        let email = try #require(registration.authMethods.first { $0.channelTargetType.isEmailType })
        let verification = try expectState(
            try await registration.selectAuthMethod(email, verificationContact: "kj.work@example.org"),
            MSALNativeAuthStrongAuthVerificationRequiredState.self)
        #expect(verification.channel.isEmailType && verification.codeLength == 8 && verification.sentTo == "k****k@e****e")
        let mail = try #require(try await LiveEmulator.mails(server, H.katherine).last)
        #expect(mail["purpose"] as? String == "registration" && mail["target"] as? String == "kj.work@example.org")
        let account = try signedIn(try await verification.submitChallenge(try #require(mail["code"] as? String)))
        #expect(account.account.username == H.katherine)
        _ = try await todoToken(account)
        let methods = try await katherineSecondFactors(app)
        #expect(methods.map(\.challengeType) == ["email"] && methods.first?.loginHint == "k****k@e****e", "the address is registered")
    }

    /// One application, one cache, one account: what a V2 sign-in leaves, V1's accessors and the
    /// standard MSAL surface read (docs/usage.md, the standard MSAL surface), until the sign-out.
    @Test func theV2AccountIsTheStandardSurfacesUntilSignOut() async throws {
        let server = try LiveEmulator.start()
        defer { server.stop() }
        let app = try app(server)
        let password = try expectState(try await start(app, H.ada), MSALNativeAuthPasswordRequiredState.self)
        let account = try signedIn(try await password.submitPassword(H.adaPassword))
        let native = try await todoToken(account)

        #expect(app.getNativeAuthUserAccount()?.account.identifier == account.account.identifier, "V1's accessor")
        let accounts = try app.allAccounts()
        #expect(accounts.map(\.username) == [H.ada] && accounts.first?.identifier == account.account.identifier)
        let standard = try app.account(forUsername: H.ada)
        let cached = try await app.acquireTokenSilent(with: MSALSilentTokenParameters(scopes: [Self.todo], account: standard))
        #expect(cached.accessToken == native && cached.account.username == H.ada, "the V2 access token, from the cache")
        let refreshed = try await app.acquireTokenSilent(with: MSALSilentTokenParameters(scopes: [Self.profile], account: standard))
        #expect(refreshed.scopes == [Self.profile] && refreshed.accessToken != native, "another scope, by the V2 refresh token")

        account.signOut()
        #expect(try app.allAccounts().isEmpty && app.getNativeAuthUserAccount() == nil)
        do {
            _ = try await app.acquireTokenSilent(with: MSALSilentTokenParameters(scopes: [Self.todo], account: standard))
            Issue.record("a signed-out account got a token")
        } catch let error as NSError {
            #expect(error.domain == MSALErrorDomain && error.code == MSALError.interactionRequired.rawValue, "\(error)")
        }
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
