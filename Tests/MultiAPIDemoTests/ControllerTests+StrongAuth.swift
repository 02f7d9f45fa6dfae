import Foundation
import MSAL
import Testing

@testable import MultiAPIDemoKit
@testable import NativeAuthEmulator

/// The demo's controller, continued: MFA and strong-auth registration.
@MainActor extension ControllerTests {
    // MARK: MFA

    @Test func mfaBySMSWithAWrongCodeThenTheRightOne() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        signIn(controller, "alan@example.com", "Turing-Machine-1936")
        try await until(controller, "method picker") { $0.prompt?.kind == .mfaMethod }
        let prompt = try #require(controller.model.prompt)
        #expect(prompt.options.map(\.label) == ["Email", "SMS"])
        #expect(prompt.options.allSatisfy { !$0.detail.isEmpty && !$0.detail.contains("alan.backup") && !$0.detail.contains("5550100") })
        #expect(controller.model.focus == .promptOption(0) && controller.model.signedInAs == nil)
        #expect(environment.mailbox?.isEmpty == true, "no code before a method is chosen")

        try choose("SMS", controller)
        try await until(controller, "code dialog") { $0.prompt?.kind == .mfaCode }
        let sent = try #require(environment.mailbox?.first)
        #expect(sent.channel == "sms" && sent.target == "+15550100" && sent.purpose == "mfa")
        answer("00000000", controller)
        try await until(controller, "invalid code") { $0.prompt?.message?.hasPrefix("Invalid code") == true }
        #expect(controller.model.prompt?.kind == .mfaCode && controller.model.signedInAs == nil)
        retype(try code(environment, "sms", to: "+15550100"), controller)
        controller.handle(.enter)
        try await until(controller, "signed in") { $0.signedInAs == "alan@example.com" }
        #expect(controller.model.prompt == nil && controller.model.focus == .button(.api1))
        #expect(controller.mfaState == nil, "the flow's states are let go")
    }

    @Test func mfaResendThenAnotherMethod() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        signIn(controller, "alan@example.com", "Turing-Machine-1936")
        try await until(controller, "method picker") { $0.prompt?.kind == .mfaMethod }
        try choose("Email", controller)
        try await until(controller, "code dialog") { $0.prompt?.kind == .mfaCode }
        #expect(environment.mailbox?.first?.channel == "email" && environment.mailbox?.first?.target == "alan.backup@example.net")
        controller.perform(.resend)
        try await until(controller, "resent") { $0.prompt?.message?.hasPrefix("A new code was sent") == true }
        #expect(
            environment.mailbox?.count == 2 && environment.mailbox?.first?.target == "alan.backup@example.net", "resent to the same method")

        controller.perform(.otherMethod)
        #expect(controller.model.prompt?.kind == .mfaMethod && controller.model.focus == .promptOption(0), "back to the picker")
        try choose("SMS", controller)
        try await until(controller, "code dialog") { $0.prompt?.kind == .mfaCode }
        answer(try code(environment, "sms", to: "+15550100"), controller)
        try await until(controller, "signed in") { $0.signedInAs == "alan@example.com" }
    }

    @Test func aBlockedMethodSaysSoAndReturnsToThePicker() async throws {
        var seed = Seed.demo
        seed.users.append(
            Seed.User(
                username: "blocked@example.com", password: "Blocked-Method-2026",
                strongAuthMethods: [
                    Seed.StrongAuthMethod(id: "b0000000-0000-4000-8000-00000000b001", channel: .sms, target: "+15550111", blocked: true),
                    Seed.StrongAuthMethod(id: "b0000000-0000-4000-8000-00000000b002", channel: .email, target: "spare@example.net"),
                ], mfaRequired: true))
        let (controller, environment) = try controller(seed: seed)
        defer { environment.stop() }
        signIn(controller, "blocked@example.com", "Blocked-Method-2026")
        try await until(controller, "method picker") { $0.prompt?.kind == .mfaMethod }
        try choose("SMS", controller)
        try await until(controller, "blocked") { $0.prompt?.message?.hasPrefix("Blocked") == true }
        #expect(controller.model.prompt?.kind == .mfaMethod && controller.model.focus == .promptOption(0))
        #expect(environment.mailbox?.isEmpty == true)
        try choose("Email", controller)
        try await until(controller, "code dialog") { $0.prompt?.kind == .mfaCode }
        answer(try code(environment, "email", to: "spare@example.net"), controller)
        try await until(controller, "signed in") { $0.signedInAs == "blocked@example.com" }
    }

    @Test func mfaAfterAPasswordReset() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        type("alan@example.com", controller)
        press(controller, .resetPassword)
        try await until(controller, "code dialog") { $0.prompt?.kind == .resetCode }
        answer(try code(environment, "email", to: "alan@example.com"), controller)
        try await until(controller, "password dialog") { $0.prompt?.kind == .resetPassword }
        answer("Enigma-Broken-1941", controller)
        try await until(controller, "method picker") { $0.prompt?.kind == .mfaMethod }
        try choose("SMS", controller)
        try await until(controller, "code dialog") { $0.prompt?.kind == .mfaCode }
        answer(try code(environment, "sms", to: "+15550100"), controller)
        try await until(controller, "signed in") { $0.signedInAs == "alan@example.com" }
    }

    @Test func cancellingThePickerLetsTheFlowGo() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        signIn(controller, "alan@example.com", "Turing-Machine-1936")
        try await until(controller, "method picker") { $0.prompt?.kind == .mfaMethod }
        controller.handle(.escape)
        #expect(controller.model.prompt == nil && controller.mfaState == nil && controller.model.signedInAs == nil)
    }

    @Test func aCodeRequestDroppedAfterEscapeLeavesAStateTheServiceRefuses() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        signIn(controller, "alan@example.com", "Turing-Machine-1936")
        try await until(controller, "method picker") { $0.prompt?.kind == .mfaMethod }
        try choose("SMS", controller)
        controller.handle(.escape)
        #expect(controller.model.prompt?.message == "Cancelled." && !controller.model.busy)
        // The request still reaches the emulator and moves the flow on; its answer is dropped.
        try await until(controller, "the code sent anyway") { _ in environment.mailbox?.count == 1 }
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(controller.model.prompt?.kind == .mfaMethod, "the late answer did not open the code dialog")
        // The picker's state asks the service again (MSAL's rule); the service refuses its spent token.
        try choose("SMS", controller)
        try await until(controller, "the service's answer") {
            $0.prompt?.message?.hasPrefix("Error while sending the code") == true && !$0.busy
        }
        #expect(controller.model.prompt?.kind == .mfaMethod && controller.model.signedInAs == nil)
        controller.handle(.escape)
        #expect(controller.model.signedInAs == nil)
    }

    // MARK: Strong-auth registration

    @Test func registeringTheSignInAddressNeedsNoCode() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        signIn(controller, "katherine@example.com", "Orbital-Mechanics-1962")
        try await until(controller, "registration dialog") { $0.prompt?.kind == .registerMethod }
        #expect(controller.model.prompt?.options.map(\.label) == ["Email", "SMS"])
        #expect(controller.model.focus == .promptOption(0))
        controller.handle(.enter) // Email, then on to the contact field
        #expect(controller.model.focus == .promptField(0))
        answer("katherine@example.com", controller)
        try await until(controller, "signed in") { $0.signedInAs == "katherine@example.com" }
        #expect(environment.mailbox?.isEmpty == true, "a preverified contact gets no code")
        #expect(controller.model.prompt == nil && controller.model.focus == .button(.api1))
    }

    @Test func registeringAnotherEmailWithAWrongCodeThenTheRightOne() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        signIn(controller, "katherine@example.com", "Orbital-Mechanics-1962")
        try await until(controller, "registration dialog") { $0.prompt?.kind == .registerMethod }
        controller.handle(.enter)
        answer("not-an-address", controller)
        try await until(controller, "invalid contact") { $0.prompt?.message?.hasPrefix("Invalid contact") == true }
        #expect(controller.model.prompt?.kind == .registerMethod)
        retype("kj@example.org", controller)
        controller.handle(.enter)
        try await until(controller, "code dialog") { $0.prompt?.kind == .registerCode }
        let sent = try #require(environment.mailbox?.first)
        #expect(sent.channel == "email" && sent.target == "kj@example.org" && sent.purpose == "registration")
        answer("00000000", controller)
        try await until(controller, "invalid code") { $0.prompt?.message?.hasPrefix("Invalid code") == true }
        controller.perform(.resend)
        try await until(controller, "resent") { $0.prompt?.message?.hasPrefix("A new code was sent") == true }
        #expect(environment.mailbox?.count == 2 && environment.mailbox?.first?.target == "kj@example.org", "resent to the same contact")
        retype(try code(environment, "email", to: "kj@example.org"), controller)
        controller.handle(.enter)
        try await until(controller, "signed in") { $0.signedInAs == "katherine@example.com" }
    }

    @Test func registeringAPhoneBlockedThenAnother() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        signIn(controller, "katherine@example.com", "Orbital-Mechanics-1962")
        try await until(controller, "registration dialog") { $0.prompt?.kind == .registerMethod }
        controller.handle(.down)
        controller.handle(.character(" ")) // SMS
        #expect(controller.model.prompt?.selected == 1 && controller.model.focus == .promptField(0))
        answer("+15550199", controller)
        try await until(controller, "blocked") { $0.prompt?.message?.hasPrefix("Blocked") == true }
        #expect(controller.model.prompt?.kind == .registerMethod && controller.model.prompt?.fields[0].text == "+15550199")
        #expect(environment.mailbox?.isEmpty == true)
        retype("+15550123", controller)
        controller.handle(.enter)
        try await until(controller, "code dialog") { $0.prompt?.kind == .registerCode }
        #expect(environment.mailbox?.first?.channel == "sms")

        // Back to the contact dialog, which keeps the choice and the contact.
        controller.perform(.otherMethod)
        #expect(controller.model.prompt?.kind == .registerMethod && controller.model.prompt?.selected == 1)
        #expect(controller.model.prompt?.fields[0].text == "+15550123")
        controller.perform(.submit(["+15550123"]))
        try await until(controller, "code dialog again") { $0.prompt?.kind == .registerCode }
        answer(try code(environment, "sms", to: "+15550123"), controller)
        try await until(controller, "signed in") { $0.signedInAs == "katherine@example.com" }
    }
}
