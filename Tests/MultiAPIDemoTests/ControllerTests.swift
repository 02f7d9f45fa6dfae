import Foundation
import MSAL
import Testing

@testable import MultiAPIDemoKit
@testable import NativeAuthEmulator

/// The controller against the embedded emulator: the tutorial's behaviour, without a terminal.
@Suite @MainActor struct ControllerTests {
    private func controller(seed: Seed = .demo) throws -> (DemoController, DemoEnvironment) {
        let environment = try DemoEnvironment.embedded(logger: nil, seed: seed)
        return (DemoController(environment: environment, size: .init(columns: 80, rows: 24)), environment)
    }

    private func signIn(_ controller: DemoController, _ email: String, _ password: String) {
        type(email, controller)
        controller.handle(.tab)
        type(password, controller)
        controller.handle(.enter)
    }

    private func press(_ controller: DemoController, _ button: DemoButton) {
        controller.perform(.press(button))
    }

    @Test func emptyFieldsAreRefusedAsInTheTutorial() throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        press(controller, .signIn)
        #expect(controller.model.result == "Email or password not set")
        #expect(!controller.model.busy)
    }

    @Test func passwordSignInThenBothAPIsThenReuseThenSignOut() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        #expect(controller.model.result.contains("ada@example.com / Analytical-Engine-1843"))
        signIn(controller, "ada@example.com", "Analytical-Engine-1843")
        #expect(controller.model.result == "Signing in...")
        try await until(controller, "sign-in") { $0.signedInAs == "ada@example.com" }
        #expect(controller.model.result == "Signed in: ada@example.com")
        #expect(controller.model.focus == .button(.api1), "after a sign-in the focus is on API 1")
        #expect(DemoEnvironment.capabilities == [.mfaRequired, .registrationRequired])

        press(controller, .api1)
        #expect(controller.model.result == "Retrieving access token to use with API 1...")
        try await until(controller, "API 1") { $0.result.hasPrefix("Accessed API successfully") && $0.result.contains("todolist") }
        #expect(controller.model.result.contains("HTTP response body:\n{\n  \"api\""), "pretty-printed: \(controller.model.result)")
        #expect(controller.accessTokenAPI1 != nil)
        press(controller, .api2)
        try await until(controller, "API 2") { $0.result.hasPrefix("Accessed API successfully") && $0.result.contains("profile") }

        // A second press reuses the held token: no "Retrieving…" and no new token.
        let held = controller.accessTokenAPI1
        press(controller, .api1)
        #expect(!controller.model.result.hasPrefix("Retrieving"))
        try await until(controller, "API 1 again") { $0.result.contains("todolist") }
        #expect(controller.accessTokenAPI1 == held)

        press(controller, .signOut)
        #expect(controller.model.result == "Signed out" && controller.model.signedInAs == nil)
        #expect(controller.model.focus == .email)
        #expect(controller.accessTokenAPI1 == nil && controller.accessTokenAPI2 == nil)
        #expect(environment.nativeAuth.getNativeAuthUserAccount() == nil)
    }

    @Test func wrongPassword() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        signIn(controller, "ada@example.com", "Not-The-Password-1")
        try await until(controller, "error") { !$0.busy && $0.result != "Signing in..." }
        #expect(controller.model.result == "Invalid username or password")
    }

    @Test func codeSignInWithAWrongCodeThenResendThenTheRightOne() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        signIn(controller, "grace@example.com", "anything")
        try await until(controller, "code dialog") { $0.prompt?.kind == .signInCode }
        #expect(controller.model.mailbox?.count == 1)
        type("00000000", controller)
        controller.handle(.enter)
        try await until(controller, "invalid code") { $0.prompt?.message?.hasPrefix("Invalid code") == true }
        controller.perform(.resend)
        try await until(controller, "resent") { $0.prompt?.message?.hasPrefix("A new code was sent") == true }
        let code = try #require(environment.mailbox?.first?.code)
        #expect(environment.mailbox?.count == 2)
        for _ in 0..<8 { controller.handle(.backspace) }
        type(code, controller)
        controller.handle(.enter)
        try await until(controller, "signed in") { $0.signedInAs == "grace@example.com" }
        #expect(controller.model.prompt == nil)
    }

    @Test func signUpWithCodePasswordAndAttributes() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        type("new.person@example.com", controller)
        controller.handle(.tab)
        type("Fresh-Start-2026", controller)
        press(controller, .signUp)
        try await until(controller, "code dialog") { $0.prompt?.kind == .signUpCode }
        type(try #require(environment.mailbox?.first?.code), controller)
        controller.handle(.enter)
        try await until(controller, "attributes") { $0.prompt?.kind == .attributes }
        #expect(controller.model.prompt?.fields.map(\.label) == ["Display name"])
        #expect(controller.model.prompt?.fields.map(\.name) == ["displayName"], "sent under the attribute's own name")
        type("New Person", controller)
        controller.handle(.enter)
        try await until(controller, "signed in") { $0.signedInAs == "new.person@example.com" }
    }

    @Test func resetPasswordThenSignInWithoutTypingIt() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        type("ada@example.com", controller)
        press(controller, .resetPassword)
        try await until(controller, "code dialog") { $0.prompt?.kind == .resetCode }
        type(try #require(environment.mailbox?.first?.code), controller)
        controller.handle(.enter)
        try await until(controller, "password dialog") { $0.prompt?.kind == .resetPassword }
        type("weakweak", controller)
        controller.handle(.enter)
        try await until(controller, "weak password") { $0.prompt?.message?.hasPrefix("Invalid password") == true }
        for _ in 0..<8 { controller.handle(.backspace) }
        type("Difference-Engine-1822", controller)
        controller.handle(.enter)
        try await until(controller, "signed in") { $0.signedInAs == "ada@example.com" }
    }

    @Test func anAPIThatIsNotConfigured() throws {
        let environment = try DemoEnvironment.embedded(logger: nil)
        defer { environment.stop() }
        let partial = DemoEnvironment(
            nativeAuth: environment.nativeAuth, api1: environment.api1, api2: nil, mode: "test", banner: nil,
            server: nil, mail: nil)
        let controller = DemoController(environment: partial, size: .init(columns: 80, rows: 24))
        press(controller, .api2)
        #expect(controller.model.result == "API 2 not configured.")
        #expect(controller.model.mailbox == nil)
    }

    @Test func anInvalidAPIURL() async throws {
        let environment = try DemoEnvironment.embedded(logger: nil)
        defer { environment.stop() }
        let broken = DemoEnvironment(
            nativeAuth: environment.nativeAuth, api1: DemoAPI(url: "not a url", scopes: environment.api1!.scopes),
            api2: nil, mode: "test", banner: nil, server: nil, mail: nil)
        let controller = DemoController(environment: broken, size: .init(columns: 80, rows: 24))
        signIn(controller, "ada@example.com", "Analytical-Engine-1843")
        try await until(controller, "sign-in") { $0.signedInAs != nil }
        press(controller, .api1)
        try await until(controller, "invalid url") { $0.result == "Invalid API url" }
    }

    @Test func escapeCancelsAndDropsTheLateAnswer() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        _ = environment.nativeAuth
        signIn(controller, "ada@example.com", "Analytical-Engine-1843")
        #expect(controller.model.busy)
        controller.handle(.escape)
        #expect(!controller.model.busy && controller.model.result == "Cancelled.")
        try await Task.sleep(nanoseconds: 500_000_000)
        controller.handle(.tick)
        #expect(controller.model.result == "Cancelled.", "the cancelled sign-in's answer is dropped")
        #expect(controller.model.signedInAs == nil)
    }

    @Test func aCachedAccountIsRestoredAtStart() async throws {
        let server = try EmulatorServer(router: try EmulatorRouter(), port: 0)
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString)/cache.json")
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent()) }
        let configuration = try DemoConfiguration.load(
            Data(
                """
                {"client_id": "\(Seed.demo.apps[0].clientId)", "authority": "\(server.authority)", "cache_file": "\(cache.path)",
                 "api1": {"url": "\(server.baseURL)/api/todolist", "scopes": ["api://emulator/todolist/ToDoList.Read"]}}
                """.utf8))
        let first = DemoController(environment: try DemoEnvironment.tenant(configuration, logger: nil), size: .init(columns: 80, rows: 24))
        #expect(first.model.mailbox == nil && first.model.mode == "127.0.0.1")
        signIn(first, "ada@example.com", "Analytical-Engine-1843")
        try await until(first, "sign-in") { $0.signedInAs != nil }
        let second = DemoController(environment: try DemoEnvironment.tenant(configuration, logger: nil), size: .init(columns: 80, rows: 24))
        #expect(second.model.result == "Account found in cache: ada@example.com")
        #expect(second.model.signedInAs == "ada@example.com")
    }

    @Test func aConfigurationThatAsksForRedisIsRefusedNotIgnored() throws {
        for setting in [#""token_cache": "redis""#, #""saved_sign_ins": "redis""#] {
            let configuration = try DemoConfiguration.load(
                Data(
                    """
                    {"client_id": "\(Seed.demo.apps[0].clientId)", "authority": "https://contoso.ciamlogin.com/contoso.onmicrosoft.com",
                     \(setting), "redis": {"url": "redis://127.0.0.1:6379"}}
                    """.utf8))
            #expect(throws: DemoConfiguration.Problem.self) { try DemoEnvironment.tenant(configuration, logger: nil) }
        }
    }

    @Test func aTenantConfigurationWithoutCapabilitiesGetsNoMFADialogs() async throws {
        let server = try EmulatorServer(router: try EmulatorRouter(), port: 0)
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString)/cache.json")
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent()) }
        func controller(_ capabilities: String) throws -> DemoController {
            let configuration = try DemoConfiguration.load(
                Data(
                    """
                    {"client_id": "\(Seed.demo.apps[0].clientId)", "authority": "\(server.authority)",
                     "cache_file": "\(cache.path)"\(capabilities)}
                    """.utf8))
            return DemoController(environment: try DemoEnvironment.tenant(configuration, logger: nil), size: .init(columns: 80, rows: 24))
        }
        let without = try controller(#", "capabilities": []"#)
        signIn(without, "alan@example.com", "Turing-Machine-1936")
        try await until(without, "an error") { !$0.busy && $0.result != "Signing in..." }
        #expect(without.model.result.hasPrefix("Signing in needs a web browser") && without.model.prompt == nil, "\(without.model.result)")
        #expect(without.model.browserOffered && without.model.focus == .button(.continueInBrowser))
        let byDefault = try controller("")
        signIn(byDefault, "alan@example.com", "Turing-Machine-1936")
        try await until(byDefault, "method picker") { $0.prompt?.kind == .mfaMethod }
    }

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
        type("00000000", controller)
        controller.handle(.enter)
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
        type(try code(environment, "sms", to: "+15550100"), controller)
        controller.handle(.enter)
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
        type(try code(environment, "email", to: "spare@example.net"), controller)
        controller.handle(.enter)
        try await until(controller, "signed in") { $0.signedInAs == "blocked@example.com" }
    }

    @Test func mfaAfterAPasswordReset() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        type("alan@example.com", controller)
        press(controller, .resetPassword)
        try await until(controller, "code dialog") { $0.prompt?.kind == .resetCode }
        type(try code(environment, "email", to: "alan@example.com"), controller)
        controller.handle(.enter)
        try await until(controller, "password dialog") { $0.prompt?.kind == .resetPassword }
        type("Enigma-Broken-1941", controller)
        controller.handle(.enter)
        try await until(controller, "method picker") { $0.prompt?.kind == .mfaMethod }
        try choose("SMS", controller)
        try await until(controller, "code dialog") { $0.prompt?.kind == .mfaCode }
        type(try code(environment, "sms", to: "+15550100"), controller)
        controller.handle(.enter)
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
        type("katherine@example.com", controller)
        controller.handle(.enter)
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
        type("not-an-address", controller)
        controller.handle(.enter)
        try await until(controller, "invalid contact") { $0.prompt?.message?.hasPrefix("Invalid contact") == true }
        #expect(controller.model.prompt?.kind == .registerMethod)
        retype("kj@example.org", controller)
        controller.handle(.enter)
        try await until(controller, "code dialog") { $0.prompt?.kind == .registerCode }
        let sent = try #require(environment.mailbox?.first)
        #expect(sent.channel == "email" && sent.target == "kj@example.org" && sent.purpose == "registration")
        type("00000000", controller)
        controller.handle(.enter)
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
        type("+15550199", controller)
        controller.handle(.enter)
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
        type(try code(environment, "sms", to: "+15550123"), controller)
        controller.handle(.enter)
        try await until(controller, "signed in") { $0.signedInAs == "katherine@example.com" }
    }
}
