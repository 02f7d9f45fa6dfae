import Foundation
import MSAL
import Testing

@testable import MultiAPIDemoKit
@testable import NativeAuthEmulator

/// Sign Up and Reset Password with `--v2` against the embedded emulator (docs/emulator.md#native-auth-v2-experimental):
/// each journey through its dialogs to signed in (Examples/MultiAPIDemo/Kit/DemoController+V2SignUp.swift).
@Suite @MainActor struct SignUpResetV2ControllerTests {
    static let newPassword = "Fresh-Start-2026-V2"

    private func controller() throws -> (DemoController, DemoEnvironment) {
        let environment = try DemoEnvironment.embedded(logger: nil, signInV2: true)
        return (DemoController(environment: environment, size: .init(columns: 80, rows: 24)), environment)
    }

    /// Types the email, then presses `button`.
    private func start(_ controller: DemoController, _ email: String, _ button: DemoButton) {
        type(email, controller)
        controller.perform(.press(button))
    }

    /// A new address through the code and the password to the attributes dialog.
    private func signUpToAttributes(_ controller: DemoController, _ environment: DemoEnvironment, _ email: String) async throws {
        start(controller, email, .signUp)
        #expect(controller.model.result == "Signing up..." && controller.model.busy)
        try await until(controller, "code dialog") { $0.prompt?.kind == .signUpCode }
        #expect(environment.mailbox?.first?.purpose == "sign_up" && controller.model.prompt?.buttons == [.submit, .resend, .cancel])
        answer(try code(environment, "email", to: email), controller)
        try await until(controller, "password dialog") { $0.prompt?.kind == .signUpPassword }
        #expect(controller.model.result == "Email verified. Choose a password." && controller.model.prompt?.fields.first?.masked == true)
        answer(Self.newPassword, controller)
        try await until(controller, "attributes dialog") { $0.prompt?.kind == .attributes }
    }

    @Test func signUpWithTheAttributesTheServiceDescribesThroughToSignedIn() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        start(controller, "lin@example.com", .signUp)
        try await until(controller, "code dialog") { $0.prompt?.kind == .signUpCode }
        answer(try code(environment, "email", to: "lin@example.com"), controller)
        try await until(controller, "password dialog") { $0.prompt?.kind == .signUpPassword }
        answer("short", controller)
        try await until(controller, "weak password") { $0.prompt?.message?.hasPrefix("Invalid password: ") == true }
        #expect(controller.model.prompt?.kind == .signUpPassword)
        retype(Self.newPassword, controller)
        controller.handle(.enter)
        try await until(controller, "attributes dialog") { $0.prompt?.kind == .attributes }
        let prompt = try #require(controller.model.prompt)
        #expect(prompt.title == "About you" && controller.model.result == "A few more details are needed.")
        // The emulator's demo app asks for the one required attribute it lacks (the optional City is not asked).
        #expect(prompt.fields.map(\.label) == ["Display name *"] && prompt.fields.map(\.name) == ["displayName"])
        #expect(prompt.fields.map(\.required) == [true] && prompt.message == "Fields marked * are required.")
        #expect(controller.model.focus == .promptField(0))

        // The required Display name left empty (blanks are empty): Submit says so and sends nothing.
        answer("  ", controller)
        #expect(controller.model.prompt?.message == "Required: Display name." && !controller.model.busy)
        #expect(controller.model.focus == .promptField(0))
        retype("Lin Lanying", controller)
        controller.handle(.enter)
        try await until(controller, "signed in") { $0.signedInAs == "lin@example.com" }
        #expect(controller.model.result == "Signed in: lin@example.com" && controller.model.prompt == nil && controller.v2State == nil)
        #expect(controller.model.focus == .button(.api1))
        controller.handle(.enter) // API 1 with the tokens the sign-in after sign-up cached
        try await until(controller, "API 1") { $0.result.hasPrefix("Accessed API successfully") }
    }

    @Test func aRefusedAttributeIsNamedThenFixedInTheSameDialog() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        try await signUpToAttributes(controller, environment, "mae.new@example.com")
        type(String(repeating: "y", count: 65), controller) // over the emulator's 64 characters
        controller.perform(.submit(controller.model.prompt?.fields.map(\.text) ?? []))
        try await until(controller, "refusal") { $0.prompt?.message?.hasPrefix("Invalid") == true }
        #expect(controller.model.prompt?.message == "Invalid: Display name. Try other values.")
        #expect(controller.model.prompt?.kind == .attributes && controller.model.focus == .promptField(0) && controller.v2State != nil)
        retype("Mae", controller)
        controller.perform(.submit(controller.model.prompt?.fields.map(\.text) ?? []))
        try await until(controller, "signed in") { $0.signedInAs == "mae.new@example.com" }
        #expect(controller.model.result == "Signed in: mae.new@example.com")
    }

    @Test func anExistingAccountWithTwoMethodsChoosesHowToSignIn() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        start(controller, "barbara@example.com", .signUp)
        try await until(controller, "method list") { $0.prompt?.kind == .signInMethod }
        #expect(controller.model.result == "This email already has an account. Choose how to sign in.")
        #expect(controller.model.prompt?.options.map(\.label) == ["Password", "Email"])
        try choose("Password", controller)
        try await until(controller, "password dialog") { $0.prompt?.kind == .signInPassword }
        answer("Substitution-Principle-1987", controller)
        try await until(controller, "signed in") { $0.signedInAs == "barbara@example.com" }
    }

    @Test func resetByEmailThroughToSignedInWithTheNewPassword() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        start(controller, "ada@example.com", .resetPassword)
        #expect(controller.model.result == "Resetting password...")
        try await until(controller, "code dialog") { $0.prompt?.kind == .resetCode }
        #expect(controller.model.prompt?.title == "Enter the 8-digit code")
        answer("00000000", controller)
        try await until(controller, "invalid code") { $0.prompt?.message?.hasPrefix("Invalid code") == true }
        retype(try code(environment, "email", to: "ada@example.com"), controller)
        controller.handle(.enter)
        try await until(controller, "new password dialog") { $0.prompt?.kind == .resetPassword }
        #expect(controller.model.result == "Code verified. Choose a new password.")
        type("Analytical-Engine-1843", controller) // the old one: refused
        controller.handle(.enter)
        try await until(controller, "refused") { $0.prompt?.message?.hasPrefix("Invalid password") == true }
        retype(Self.newPassword, controller)
        controller.handle(.enter)
        try await until(controller, "signed in") { $0.signedInAs == "ada@example.com" }
        #expect(controller.model.result == "Signed in: ada@example.com" && controller.model.prompt == nil && controller.v2State == nil)

        // The new password signs in through V2 afterwards.
        controller.perform(.press(.signOut))
        controller.handle(.tab)
        type(Self.newPassword, controller)
        controller.perform(.press(.signIn))
        try await until(controller, "signed in again") { $0.signedInAs == "ada@example.com" }
    }

    @Test func margaretResetsBySMSThenPassesMFAThenIsSignedIn() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        start(controller, "margaret@example.com", .resetPassword)
        try await until(controller, "recovery list") { $0.prompt?.kind == .recoveryMethod }
        let prompt = try #require(controller.model.prompt)
        #expect(prompt.title == "Reset password: where should the code go?" && prompt.options.map(\.label) == ["Email", "SMS"])
        #expect(environment.mailbox?.isEmpty == true, "no code before a method is chosen")
        try choose("SMS", controller)
        try await until(controller, "code dialog") { $0.prompt?.kind == .resetCode }
        let sent = try #require(environment.mailbox?.first)
        #expect(sent.channel == "sms" && sent.target == "+15550101")
        answer(sent.code, controller)
        try await until(controller, "new password dialog") { $0.prompt?.kind == .resetPassword }
        answer(Self.newPassword, controller)
        try await until(controller, "second-factor list") { $0.prompt?.kind == .mfaMethod }
        #expect(controller.model.signedInAs == nil)
        try choose("Email", controller)
        try await until(controller, "second-factor code") { $0.prompt?.kind == .mfaCode }
        answer(try code(environment, "email", to: "margaret.backup@example.net"), controller)
        try await until(controller, "signed in") { $0.signedInAs == "margaret@example.com" }
        #expect(controller.model.result == "Signed in: margaret@example.com" && controller.v2State == nil)
    }

    @Test func errorsAtTheStartSpeakOfTheFlow() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        start(controller, "nobody@example.com", .resetPassword)
        try await until(controller, "error") { !$0.busy && $0.result != "Resetting password..." }
        #expect(controller.model.result == "Unable to reset password: User not found")
        controller.perform(.press(.signUp))
        #expect(controller.model.result == "Signing up...")
        try await until(controller, "code dialog") { $0.prompt?.kind == .signUpCode }
        controller.handle(.escape)
        #expect(controller.model.prompt == nil && controller.v2State == nil)
    }

    // MARK: The attributes dialog from descriptors

    @Test func descriptorsBecomeTextFieldsChoicesAndRequiredMarks() {
        let prompt = DemoController.attributesPrompt([
            MSALNativeAuthRequiredAttribute(name: "displayName", type: "text", required: true, regex: nil, label: "Display name"),
            MSALNativeAuthRequiredAttribute(
                name: "country", type: "select", required: true, regex: nil, label: "Country", options: ["FR", "NZ"]),
            MSALNativeAuthRequiredAttribute(name: "newsletter", type: "boolean", required: false, regex: nil, label: "Newsletter"),
            MSALNativeAuthRequiredAttribute(name: "extension_1_shoeSize", type: "hologram", required: false, regex: nil),
            MSALNativeAuthRequiredAttribute(name: "secret", type: "password", required: false, regex: nil, label: "PIN"),
            MSALNativeAuthRequiredAttribute(name: "tracking", type: "text", required: false, regex: nil, isHidden: true),
        ])
        #expect(prompt.kind == .attributes && prompt.buttons == [.submit, .cancel])
        #expect(prompt.fields.map(\.label) == ["Display name *", "Country *", "Newsletter", "Extension 1 shoe size", "PIN"])
        #expect(prompt.fields.map(\.name) == ["displayName", "country", "newsletter", "extension_1_shoeSize", "secret"])
        #expect(prompt.fields.map(\.choices) == [[], ["FR", "NZ"], ["true", "false"], [], []], "an unknown type is text")
        #expect(prompt.fields.map(\.masked) == [false, false, false, false, true])
        let optional = DemoController.attributesPrompt([
            MSALNativeAuthRequiredAttribute(name: "city", type: "text", required: false, regex: nil)
        ])
        #expect(optional.fields.map(\.label) == ["City"] && optional.message == nil)
    }

    @Test func aChoiceFieldStepsThroughItsOptionsAndIgnoresTyping() {
        var model = DemoModel()
        model.prompt = DemoController.attributesPrompt([
            MSALNativeAuthRequiredAttribute(
                name: "country", type: "select", required: true, regex: nil, label: "Country", options: ["FR", "NZ", "PE"])
        ])
        model.focus = .promptField(0)
        _ = update(&model, .character("x"))
        #expect(model.prompt?.fields[0].text == "")
        _ = update(&model, .character(" "))
        #expect(model.prompt?.fields[0].text == "FR")
        _ = update(&model, .right)
        _ = update(&model, .right)
        #expect(model.prompt?.fields[0].text == "PE")
        _ = update(&model, .right)
        #expect(model.prompt?.fields[0].text == "FR", "wraps")
        _ = update(&model, .left)
        _ = update(&model, .backspace)
        #expect(model.prompt?.fields[0].text == "PE" && model.focus == .promptField(0))
        #expect(update(&model, .enter) == [.submit(["PE"])])
        #expect(render(model).text.contains("◂ PE ▸"))
    }
}
