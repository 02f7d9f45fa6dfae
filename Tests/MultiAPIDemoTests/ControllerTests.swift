import Foundation
import MSAL
import Testing

@testable import MultiAPIDemoKit
@testable import NativeAuthEmulator

/// The controller against the embedded emulator: the tutorial's behaviour, without a terminal.
@Suite @MainActor struct ControllerTests {
    func controller(seed: Seed = .demo) throws -> (DemoController, DemoEnvironment) {
        let environment = try DemoEnvironment.embedded(logger: nil, seed: seed)
        return (DemoController(environment: environment, size: .init(columns: 80, rows: 24)), environment)
    }

    func signIn(_ controller: DemoController, _ email: String, _ password: String) {
        type(email, controller)
        controller.handle(.tab)
        answer(password, controller)
    }

    func press(_ controller: DemoController, _ button: DemoButton) {
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
        answer("00000000", controller)
        try await until(controller, "invalid code") { $0.prompt?.message?.hasPrefix("Invalid code") == true }
        controller.perform(.resend)
        try await until(controller, "resent") { $0.prompt?.message?.hasPrefix("A new code was sent") == true }
        let code = try #require(environment.mailbox?.first?.code)
        #expect(environment.mailbox?.count == 2)
        for _ in 0..<8 { controller.handle(.backspace) }
        answer(code, controller)
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
        answer(try #require(environment.mailbox?.first?.code), controller)
        try await until(controller, "attributes") { $0.prompt?.kind == .attributes }
        #expect(controller.model.prompt?.fields.map(\.label) == ["Display name"])
        #expect(controller.model.prompt?.fields.map(\.name) == ["displayName"], "sent under the attribute's own name")
        answer("New Person", controller)
        try await until(controller, "signed in") { $0.signedInAs == "new.person@example.com" }
    }

    @Test func resetPasswordThenSignInWithoutTypingIt() async throws {
        let (controller, environment) = try controller()
        defer { environment.stop() }
        type("ada@example.com", controller)
        press(controller, .resetPassword)
        try await until(controller, "code dialog") { $0.prompt?.kind == .resetCode }
        answer(try #require(environment.mailbox?.first?.code), controller)
        try await until(controller, "password dialog") { $0.prompt?.kind == .resetPassword }
        answer("weakweak", controller)
        try await until(controller, "weak password") { $0.prompt?.message?.hasPrefix("Invalid password") == true }
        for _ in 0..<8 { controller.handle(.backspace) }
        answer("Difference-Engine-1822", controller)
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
}
