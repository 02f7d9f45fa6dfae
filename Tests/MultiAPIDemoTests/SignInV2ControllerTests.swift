import Foundation
import MSAL
import Testing

@testable import MultiAPIDemoKit
@testable import NativeAuthEmulator

/// Sign In with `--v2` against the embedded emulator's V2 users (docs/emulator.md#native-auth-v2-experimental):
/// each journey ends in the dialogs V1 uses (Examples/MultiAPIDemo/Kit/DemoController+V2.swift).
@Suite @MainActor struct SignInV2ControllerTests {
    private func controller() throws -> (DemoController, DemoEnvironment) {
        let environment = try DemoEnvironment.embedded(logger: nil, signInV2: true)
        return (DemoController(environment: environment, size: .init(columns: 80, rows: 24)), environment)
    }

    /// Types the email and the password (when not empty), then presses Sign In.
    private func signIn(_ controller: DemoController, _ email: String, _ password: String = "") {
        type(email, controller)
        controller.handle(.tab)
        type(password, controller)
        controller.perform(.press(.signIn))
    }

    @Test func theSwitchShowsAndAdaSignsInWithTheTypedPasswordThenCallsAnAPI() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        #expect(controller.model.signInV2)
        #expect(controller.model.result.contains("barbara@example.com / Substitution-Principle-1987"), "the V2 accounts in the banner")
        #expect(render(controller.model).text.split(separator: "\n").first?.hasSuffix("V2 (experimental) · emulator") == true)
        signIn(controller, "ada@example.com", "Analytical-Engine-1843")
        #expect(controller.model.result == "Signing in..." && controller.model.busy)
        try await until(controller, "signed in") { $0.signedInAs == "ada@example.com" }
        #expect(controller.model.result == "Signed in: ada@example.com" && controller.model.prompt == nil)
        #expect(controller.model.focus == .button(.api1) && controller.v2State == nil)
        controller.handle(.enter) // API 1: the V2 tokens are in the same cache
        try await until(controller, "API 1") { $0.result.hasPrefix("Accessed API successfully") && $0.result.contains("todolist") }
    }

    @Test func aWrongTypedPasswordIsRefusedAsInV1() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        signIn(controller, "ada@example.com", "Not-The-Password-1")
        try await until(controller, "error") { !$0.busy && $0.result != "Signing in..." }
        #expect(controller.model.result == "Invalid username or password" && controller.model.prompt == nil)
    }

    @Test func withoutAPasswordTheServiceAsksForItInThePasswordDialog() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        signIn(controller, "ada@example.com")
        try await until(controller, "password dialog") { $0.prompt?.kind == .signInPassword }
        #expect(controller.model.focus == .promptField(0) && controller.model.prompt?.fields.first?.masked == true)
        answer("wrong-password", controller)
        try await until(controller, "invalid password") { $0.prompt?.message == "Invalid password. Try again." }
        retype("Analytical-Engine-1843", controller)
        controller.handle(.enter)
        try await until(controller, "signed in") { $0.signedInAs == "ada@example.com" }
    }

    @Test func graceGetsTheCodeDialogWithAWrongCodeThenResendThenTheRightOne() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        signIn(controller, "grace@example.com", "anything")
        try await until(controller, "code dialog") { $0.prompt?.kind == .signInCode }
        #expect(controller.model.prompt?.buttons == [.submit, .resend, .cancel])
        #expect(environment.mailbox?.first?.purpose == "sign_in")
        answer("00000000", controller)
        try await until(controller, "invalid code") { $0.prompt?.message?.hasPrefix("Invalid code") == true }
        controller.perform(.resend)
        try await until(controller, "resent") { $0.prompt?.message?.hasPrefix("A new code was sent") == true }
        #expect(environment.mailbox?.count == 2 && controller.model.prompt?.kind == .signInCode)
        retype(try code(environment, "email", to: "grace@example.com"), controller)
        controller.handle(.enter)
        try await until(controller, "signed in") { $0.signedInAs == "grace@example.com" }
        #expect(controller.model.prompt == nil)
    }

    @Test func barbaraChoosesThePasswordAsHerFirstFactor() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        signIn(controller, "barbara@example.com", "Substitution-Principle-1987")
        try await until(controller, "first-factor picker") { $0.prompt?.kind == .signInMethod }
        let prompt = try #require(controller.model.prompt)
        #expect(prompt.options.map(\.label) == ["Password", "Email"] && prompt.optionsSubmit)
        #expect(prompt.title == "How do you want to sign in?" && controller.model.focus == .promptOption(0))
        try choose("Password", controller)
        try await until(controller, "password dialog") { $0.prompt?.kind == .signInPassword }
        answer("Substitution-Principle-1987", controller)
        try await until(controller, "signed in") { $0.signedInAs == "barbara@example.com" }
        #expect(environment.mailbox?.isEmpty == true)
    }

    @Test func barbaraChoosesAnEmailCode() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        signIn(controller, "barbara@example.com")
        try await until(controller, "first-factor picker") { $0.prompt?.kind == .signInMethod }
        try choose("Email", controller)
        try await until(controller, "code dialog") { $0.prompt?.kind == .signInCode }
        answer(try code(environment, "email", to: "barbara@example.com"), controller)
        try await until(controller, "signed in") { $0.signedInAs == "barbara@example.com" }
    }

    @Test func alanChoosesSMSAsHisSecondFactorWithAWrongCodeResendThenTheRightOne() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        signIn(controller, "alan@example.com", "Turing-Machine-1936")
        try await until(controller, "second-factor picker") { $0.prompt?.kind == .mfaMethod }
        let prompt = try #require(controller.model.prompt)
        #expect(prompt.title == "Second factor: where should the code go?")
        #expect(prompt.options.map(\.label) == ["Email", "SMS"])
        #expect(prompt.options.allSatisfy { !$0.detail.isEmpty && !$0.detail.contains("alan.backup") && !$0.detail.contains("5550100") })
        #expect(environment.mailbox?.isEmpty == true, "no code before a method is chosen")
        try choose("SMS", controller)
        try await until(controller, "code dialog") { $0.prompt?.kind == .mfaCode }
        #expect(controller.model.prompt?.buttons == [.submit, .resend, .cancel], "a V2 choice is spent: no Other method")
        let sent = try #require(environment.mailbox?.first)
        #expect(sent.channel == "sms" && sent.target == "+15550100" && sent.purpose == "mfa")
        answer("00000000", controller)
        try await until(controller, "invalid code") { $0.prompt?.message?.hasPrefix("Invalid code") == true }
        controller.perform(.resend)
        try await until(controller, "resent") { $0.prompt?.message?.hasPrefix("A new code was sent") == true }
        #expect(environment.mailbox?.count == 2 && environment.mailbox?.first?.target == "+15550100")
        retype(try code(environment, "sms", to: "+15550100"), controller)
        controller.handle(.enter)
        try await until(controller, "signed in") { $0.signedInAs == "alan@example.com" }
        #expect(controller.model.prompt == nil && controller.v2State == nil)
    }

    @Test func katherineRegistersHerOwnAddressWithoutACode() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        signIn(controller, "katherine@example.com", "Orbital-Mechanics-1962")
        try await until(controller, "registration dialog") { $0.prompt?.kind == .registerMethod }
        #expect(controller.model.prompt?.options.map(\.label) == ["Email", "SMS"])
        controller.handle(.enter) // Email, then on to the contact field
        answer("katherine@example.com", controller)
        try await until(controller, "signed in") { $0.signedInAs == "katherine@example.com" }
        #expect(environment.mailbox?.isEmpty == true, "a preverified contact gets no code")
    }

    @Test func katherineRegistersAPhoneAfterABlockedOne() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        signIn(controller, "katherine@example.com", "Orbital-Mechanics-1962")
        try await until(controller, "registration dialog") { $0.prompt?.kind == .registerMethod }
        controller.handle(.down)
        controller.handle(.character(" ")) // SMS
        answer("+15550199", controller)
        try await until(controller, "blocked") { $0.prompt?.message?.hasPrefix("Blocked") == true }
        #expect(controller.model.prompt?.kind == .registerMethod && environment.mailbox?.isEmpty == true)
        retype("+15550123", controller)
        controller.handle(.enter)
        try await until(controller, "code dialog") { $0.prompt?.kind == .registerCode }
        #expect(controller.model.prompt?.buttons == [.submit, .resend, .cancel])
        let sent = try #require(environment.mailbox?.first)
        #expect(sent.channel == "sms" && sent.target == "+15550123" && sent.purpose == "registration")
        answer(try code(environment, "sms", to: "+15550123"), controller)
        try await until(controller, "signed in") { $0.signedInAs == "katherine@example.com" }
    }

    @Test func hedyIsOfferedTheBrowserAsInV1() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        signIn(controller, "hedy@example.com", "Frequency-Hopping-1942")
        try await until(controller, "the offer") { $0.browserOffered }
        #expect(controller.model.result.hasPrefix("Signing in needs a web browser: "), "\(controller.model.result)")
        #expect(controller.model.prompt == nil && controller.model.signedInAs == nil && controller.v2State == nil)
        #expect(controller.model.focus == .button(.continueInBrowser))
        #expect(controller.browserSignIn?.scopes == environment.api1?.scopes)
    }

    @Test func escapeDropsTheLateAnswerAndCancelLetsTheStateGo() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        signIn(controller, "ada@example.com", "Analytical-Engine-1843")
        controller.handle(.escape)
        #expect(!controller.model.busy && controller.model.result == "Cancelled.")
        try await Task.sleep(nanoseconds: 500_000_000)
        controller.handle(.tick)
        #expect(controller.model.result == "Cancelled." && controller.model.signedInAs == nil)

        #expect(controller.model.focus == .password)
        for _ in 0..<30 { controller.handle(.backspace) }
        #expect(controller.model.password.isEmpty)
        controller.perform(.press(.signIn)) // the email is still typed; no password: the dialog
        try await until(controller, "password dialog") { $0.prompt?.kind == .signInPassword }
        #expect(controller.v2State != nil)
        controller.handle(.escape)
        #expect(controller.model.prompt == nil && controller.v2State == nil)
    }

    @Test func withoutTheSwitchSignInStaysV1() throws {
        let environment = try DemoEnvironment.embedded(logger: nil)
        defer { environment.stop() }
        let controller = DemoController(environment: environment, size: .init(columns: 80, rows: 24))
        #expect(!controller.model.signInV2 && !controller.model.result.contains("barbara"))
        type("ada@example.com", controller)
        controller.perform(.press(.signIn))
        #expect(controller.model.result == "Email or password not set", "V1 needs both fields")
    }
}
