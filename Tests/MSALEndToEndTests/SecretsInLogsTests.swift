import Foundation
import NativeAuthTesting
import TestSupport
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

        func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
            let form = String(decoding: request.body, as: UTF8.self)
            for pair in form.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map {
                    String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
                }
                if parts.count == 2,
                    ["username", "password", "new_password", "oob", "continuation_token", "refresh_token", "challenge_target"].contains(
                        parts[0])
                {
                    found.withLock { _ = $0.insert(parts[1]) }
                }
            }
            let response = try await inner.send(request)
            if let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] {
                // Tokens, and the contacts (masked or as typed) of the MFA and registration answers.
                for key in [
                    "continuation_token", "access_token", "refresh_token", "id_token", "client_info", "challenge_target",
                    "challenge_target_label",
                ] {
                    if let value = object[key] as? String, !value.isEmpty { found.withLock { _ = $0.insert(value) } }
                }
                for method in object["methods"] as? [[String: Any]] ?? [] {
                    if let hint = method["login_hint"] as? String, !hint.isEmpty { found.withLock { _ = $0.insert(hint) } }
                }
            }
            return response
        }
    }

    final class InstantClock: NativeAuthClock {
        func now() -> Date { Date() }
        func sleep(seconds: Double) async throws {}
    }

    /// A verbose logger with personal data masked, and every line it writes ("PII! " before a line
    /// that says it shows personal data).
    static func verboseLogger() -> (MSALLoggerConfig, Locked<[String]>) {
        let lines = Locked<[String]>([])
        let logger = MSALLoggerConfig()
        logger.logLevel = .verbose
        logger.piiEnabled = false
        logger.setLogCallback { _, message, containsPII in
            lines.withLock { $0.append((containsPII ? "PII! " : "") + (message ?? "")) }
        }
        return (logger, lines)
    }

    @Test func noFlowLogsASecretOrAnAddress() async throws {
        let h = try H { $0.resetPasswordPollsInProgress = 2 }
        let transport = SecretCollectingTransport(EmulatorTransport(router: h.router))
        let (logger, lines) = Self.verboseLogger()
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
        let next = try await state.resendCode().newState
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
        let reset = try await passwordApp.resetPassword(parameters: .init(username: H.ada)).newState
        let newPassword = try await reset.submitCode(code: code(H.ada))
        let afterReset = try await newPassword.submitPassword(password: "Difference-Engine-1822")
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

    @Test @MainActor func mfaAndRegistrationLogNoCodeContactOrToken() async throws {
        let h = try H()
        let transport = SecretCollectingTransport(EmulatorTransport(router: h.router))
        let (logger, lines) = Self.verboseLogger()
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: H.passwordApp, authority: try MSALCIAMAuthority(url: URL(string: h.router.authority(baseURL: "http://127.0.0.1:1"))!),
            challengeTypes: [.OOB, .password])
        config.capabilities = [.mfaRequired, .registrationRequired]
        config.transport = transport
        config.loggerConfig = logger
        config.tokenCacheLocation = .inMemory
        let app = try MSALNativeAuthPublicClientApplication(configuration: config, clock: InstantClock(), uuid: { UUID() })
        var codes: Set<String> = []
        func code(_ username: String) -> String {
            let value = h.lastCode(username) ?? ""
            codes.insert(value)
            return value
        }
        func signIn(_ username: String, _ password: String) async throws -> SignInStartResult {
            let parameters = MSALNativeAuthSignInParameters(username: username)
            parameters.password = password
            return try await app.signIn(parameters: parameters)
        }
        let api = MSALNativeAuthGetAccessTokenParameters()
        api.scopes = ["api://emulator/todolist/ToDoList.Read"]

        // MFA: the email method, a wrong code, again to the SMS method, the right code, an API token.
        guard case .awaitingMFA(let methods, let awaiting) = try await signIn(H.alan, H.alanPassword) else {
            Issue.record("MFA")
            return
        }
        let byEmail = try await awaiting.requestChallenge(authMethod: methods[0]).newState
        _ = code(H.alan)
        _ = try? await byEmail.submitChallenge(challenge: "24681357")
        let bySMS = try await byEmail.requestChallenge(authMethod: methods[1]).newState
        let alan = try await bySMS.submitChallenge(challenge: code(H.alan))
        _ = try await alan.getAccessToken(parameters: api)

        // The delegate form of the same steps.
        let delegate = RecordingSignInDelegate()
        let delegateParameters = MSALNativeAuthSignInParameters(username: H.alan)
        delegateParameters.password = H.alanPassword
        app.signIn(parameters: delegateParameters, delegate: delegate)
        guard case .awaitingMFA(let again, let awaitingAgain) = await delegate.waitForEvent() else {
            Issue.record("delegate")
            return
        }
        awaitingAgain.requestChallenge(authMethod: again[0], delegate: delegate)
        guard case .mfaVerificationRequired(let sent, _, _, _) = await delegate.waitForEvent() else {
            Issue.record("delegate code")
            return
        }
        sent.submitChallenge(challenge: code(H.alan), delegate: delegate)
        guard case .completed = await delegate.waitForEvent() else {
            Issue.record("delegate sign-in")
            return
        }

        // Registration: Katherine's own address (preverified).
        guard case .strongAuthMethodRegistration(let kinds, let katherine) = try await signIn(H.katherine, H.katherinePassword),
            case .completed = try await katherine.challengeAuthMethod(
                parameters: .init(authMethod: kinds[0], verificationContact: H.katherine))
        else {
            Issue.record("preverified")
            return
        }

        // A new user: an invalid, a blocked, then a new address with a wrong and the right code; MFA next time.
        let user = "log.keeper@example.com"
        let password = "Log-Keeper-Secret-9"
        let contact = "keeper.backup@example.org"
        #expect(h.hook("POST", "users", json: ["username": user, "password": password, "mfa_required": true]).status == 201)
        guard case .strongAuthMethodRegistration(let userKinds, let register) = try await signIn(user, password) else {
            Issue.record("registration")
            return
        }
        _ = try? await register.challengeAuthMethod(parameters: .init(authMethod: userKinds[1], verificationContact: "+1 (555) 0101"))
        _ = try? await register.challengeAuthMethod(parameters: .init(authMethod: userKinds[1], verificationContact: "+15550199"))
        guard
            case .verificationRequired(let registering) = try await register.challengeAuthMethod(
                parameters: .init(authMethod: userKinds[0], verificationContact: contact))
        else {
            Issue.record("registration code")
            return
        }
        _ = code(user)
        _ = try? await registering.newState.submitChallenge(challenge: "97531864")
        _ = try await registering.newState.submitChallenge(challenge: code(user))
        guard case .awaitingMFA(let registered, let next) = try await signIn(user, password) else {
            Issue.record("registered method")
            return
        }
        let nextCode = try await next.requestChallenge(authMethod: registered[0]).newState
        _ = try await nextCode.submitChallenge(challenge: code(user))

        // A phone number, for another new user.
        let phoneUser = "phone.keeper@example.com"
        #expect(h.hook("POST", "users", json: ["username": phoneUser, "password": password, "mfa_required": true]).status == 201)
        guard case .strongAuthMethodRegistration(let phoneKinds, let phoneState) = try await signIn(phoneUser, password),
            case .verificationRequired(let phone) = try await phoneState.challengeAuthMethod(
                parameters: .init(authMethod: phoneKinds[1], verificationContact: "+1 555-0123"))
        else {
            Issue.record("phone")
            return
        }
        _ = try await phone.newState.submitChallenge(challenge: code(phoneUser))

        let log = lines.withLock { $0 }.joined(separator: "\n")
        #expect(log.count > 1000, "the flows were logged at all")
        var secrets = transport.secrets.union(codes)
        secrets.formUnion([
            H.alan, H.katherine, user, phoneUser, contact, "alan.backup@example.net", "+15550100", "+1 555-0123", "+15550123",
            "+15550199", "+1 (555) 0101", H.alanPassword, H.katherinePassword, password, "24681357", "97531864",
        ])
        // The masked forms the service showed are personal data too.
        secrets.formUnion(["a*********p@e*****e.net", "+*******0100", "k*******e@e*****e.com", "+*******0123"])
        secrets = secrets.filter { $0.count >= 6 }
        #expect(secrets.count > 40, "secrets were collected: \(secrets.count)")
        // Counted, not shown: a failure must not print the secret it found.
        let leaked = secrets.filter { log.contains($0) }.map(\.count).sorted()
        #expect(leaked.isEmpty, "the log contains secrets of these lengths: \(leaked)")
        for (marker, what) in [
            ("PII!", "a line flagged as personal data"), ("@example.", "an email address"), ("*****", "a masked contact"),
            ("5550", "a phone number"),
        ] {
            let count = lines.withLock { $0 }.filter { $0.contains(marker) }.count
            #expect(count == 0, "\(count) lines contain \(what)")
        }
    }
}
