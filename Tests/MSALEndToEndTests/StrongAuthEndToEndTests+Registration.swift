import Foundation
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL
@testable import NativeAuthEmulator

/// Just-in-time registration of a strong-auth method at sign-in: a preverified address, a new
/// address or phone number with its code, an invalid or blocked contact, sending again.
extension StrongAuthEndToEndTests {
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
}
