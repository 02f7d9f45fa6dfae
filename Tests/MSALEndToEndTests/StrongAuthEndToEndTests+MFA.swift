import Foundation
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL
@testable import NativeAuthEmulator

/// MFA after any first factor: the methods, codes sent again, blocked methods, sign-up and reset
/// ending in MFA, the capabilities, expired and used states, bad input, the attempt limit.
extension StrongAuthEndToEndTests {
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
}
