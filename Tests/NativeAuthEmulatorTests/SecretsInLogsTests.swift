import Foundation
import Synchronization
import Testing

@testable import MSAL
@testable import NativeAuthEmulator

/// Every flow end to end with PII logging off: no password, code, continuation token, access,
/// refresh or id token, and no email address reaches the log.
@Suite struct SecretsInLogsTests {
    typealias H = EmulatorHarness

    /// The emulator as a transport that remembers every secret that crossed it.
    final class SecretCollectingTransport: HTTPTransport {
        let inner: EmulatorTransport
        private let found = Locked<Set<String>>([])
        init(_ inner: EmulatorTransport) { self.inner = inner }

        var secrets: Set<String> { found.withLock { $0 } }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let form = String(decoding: request.body, as: UTF8.self)
            for pair in form.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map {
                    String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
                }
                if parts.count == 2,
                    ["username", "password", "new_password", "oob", "continuation_token", "refresh_token"].contains(parts[0])
                {
                    found.withLock { _ = $0.insert(parts[1]) }
                }
            }
            let response = try await inner.send(request)
            if let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] {
                for key in ["continuation_token", "access_token", "refresh_token", "id_token", "client_info"] {
                    if let value = object[key] as? String, !value.isEmpty { found.withLock { _ = $0.insert(value) } }
                }
            }
            return response
        }
    }

    final class InstantClock: NativeAuthClock {
        func now() -> Date { Date() }
        func sleep(seconds: Double) async throws {}
    }

    @Test func noFlowLogsASecretOrAnAddress() async throws {
        let h = try H { $0.resetPasswordPollsInProgress = 2 }
        let transport = SecretCollectingTransport(EmulatorTransport(router: h.router))
        let lines = Locked<[String]>([])
        let logger = MSALLoggerConfig()
        logger.logLevel = .verbose
        logger.piiEnabled = false
        logger.setLogCallback { _, message, containsPII in
            lines.withLock { $0.append((containsPII ? "PII! " : "") + (message ?? "")) }
        }
        func app(_ clientId: String) throws -> MSALNativeAuthPublicClientApplication {
            let config = MSALNativeAuthPublicClientApplicationConfig(
                clientId: clientId, authority: try MSALCIAMAuthority(url: URL(string: h.router.authority(baseURL: "http://127.0.0.1:1"))!),
                challengeTypes: [.OOB, .password])
            config.transport = transport
            config.loggerConfig = logger
            config.tokenCacheLocation = .inMemory
            return try MSALNativeAuthPublicClientApplication(configuration: config, clock: InstantClock(), uuid: { UUID() })
        }
        let passwordApp = try app(H.passwordApp)
        let codeApp = try app(H.codeApp)
        var codes: Set<String> = []
        func code(_ username: String) -> String {
            let value = h.lastCode(username) ?? ""
            codes.insert(value)
            return value
        }

        // Password sign-in, a wrong password, tokens for both APIs, a forced refresh, sign-out.
        let wrong = MSALNativeAuthSignInParameters(username: H.ada)
        wrong.password = "Wrong-Password-99"
        _ = try? await passwordApp.signIn(parameters: wrong)
        let right = MSALNativeAuthSignInParameters(username: H.ada)
        right.password = H.adaPassword
        guard case .completed(let ada) = try await passwordApp.signIn(parameters: right) else {
            Issue.record("sign-in")
            return
        }
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = ["api://emulator/todolist/ToDoList.Read"]
        _ = try await ada.getAccessToken(parameters: parameters)
        parameters.scopes = ["api://emulator/profile//.default"]
        parameters.forceRefresh = true
        _ = try await ada.getAccessToken(parameters: parameters)
        ada.signOut()

        // Email code: a wrong code, a resend, the right code.
        guard case .codeRequired(let state, _, _, _) = try await codeApp.signIn(parameters: .init(username: H.grace)) else { return }
        _ = code(H.grace)
        _ = try? await state.submitCode(code: "13572468")
        guard case .codeRequired(let next, _, _, _) = try await state.resendCode() else { return }
        _ = try await next.submitCode(code: code(H.grace))

        // Sign-up with the password after verification and attributes, then sign-in.
        let newUser = "secret.keeper@example.com"
        guard case .codeRequired(let signUp, _, _, _) = try await passwordApp.signUp(parameters: .init(username: newUser)) else { return }
        guard case .passwordRequired(let password) = try await signUp.submitCode(code: code(newUser)) else { return }
        _ = try? await password.submitPassword(password: "weakweak")
        guard case .attributesRequired(_, let attributes) = try await password.submitPassword(password: "Keeper-Of-Secrets-7") else {
            return
        }
        guard case .completed(let afterSignUp) = try await attributes.submitAttributes(attributes: ["displayName": "Keeper"]) else {
            return
        }
        _ = try await afterSignUp.signIn()

        // Password reset with polls in progress, then sign-in.
        guard case .codeRequired(let reset, _, _, _) = try await passwordApp.resetPassword(parameters: .init(username: H.ada)) else {
            return
        }
        guard case .passwordRequired(let newPassword) = try await reset.submitCode(code: code(H.ada)) else { return }
        guard case .completed(let afterReset) = try await newPassword.submitPassword(password: "Difference-Engine-1822") else { return }
        _ = try await afterReset.signIn()

        let log = lines.withLock { $0 }.joined(separator: "\n")
        #expect(log.count > 1000, "the flows were logged at all")
        var secrets = transport.secrets.union(codes)
        secrets.formUnion([
            H.ada, H.grace, newUser, H.adaPassword, "Wrong-Password-99", "Keeper-Of-Secrets-7", "Difference-Engine-1822", "13572468",
        ])
        secrets = secrets.filter { $0.count >= 6 }
        #expect(secrets.count > 20, "secrets were collected: \(secrets.count)")
        for secret in secrets {
            #expect(!log.contains(secret), "the log contains a secret of \(secret.count) characters")
        }
        #expect(!log.contains("PII!"), "no line is flagged as containing personal data")
        #expect(!log.contains("@example.com"), "no email address")
        #expect(!log.contains(ada.account.identifier ?? "-"), "no account identifier")
    }
}
