import Foundation
import MSAL
import MSALSecretService
import MultiAPIDemoKit
import NativeAuthEmulator
import TestSupport
import Testing

/// The terminal demo's `"token_cache": "keyring"` end to end: its configuration, the application
/// it makes, a sign-in against the emulator over loopback, and the tokens in the keyring item.
@Suite struct DemoKeyringTests {
    @Test(.enabled(if: KeyringSession.isPrivate, KeyringSession.reason))
    func theDemosKeyringChoiceKeepsTheTokensInTheKeyring() async throws {
        let router = try EmulatorRouter(
            seed: .demo,
            configuration: {
                var c = EmulatorConfiguration()
                c.passwordHashIterations = 1000
                return c
            }())
        let server = try EmulatorServer(router: router, port: 0)
        defer { server.stop() }
        let clientId = Seed.demo.apps[0].clientId
        let configuration = try DemoConfiguration.load(
            Data(
                #"{"client_id": "\#(clientId)", "authority": "\#(server.authority)", "challenge_types": ["oob", "password"], "token_cache": "keyring"}"#
                    .utf8))
        let lines = LogLines()
        let logger = MSALLoggerConfig()
        logger.logLevel = .info
        logger.setLogCallback { _, message, _ in lines.append(message ?? "") }
        let environment = try DemoEnvironment.tenant(configuration, logger: logger)
        // The item the demo uses: its schema, the client id as the attribute, the signal file beside the default cache file.
        let signal = FileTokenCacheStorage.defaultURL(clientId: clientId).deletingLastPathComponent()
            .appendingPathComponent("token_cache.keyring-signal")
        let item = try MSALSecretServicePersistence(
            schemaName: "msal-native-auth.multi-api-demo", attributes: ["client_id": clientId.lowercased()], signalFile: signal)
        defer { _ = try? item.remove() }

        let parameters = MSALNativeAuthSignInParameters(username: "ada@example.com")
        parameters.password = "Analytical-Engine-1843"
        guard case .completed(let account) = try await environment.nativeAuth.signIn(parameters: parameters) else {
            throw MSALSecretServiceError(.operationFailed, "the sign-in did not complete")
        }
        let stored = try #require(try item.load(), "the demo's tokens are in the keyring")
        let document = try #require(try JSONSerialization.jsonObject(with: stored) as? [String: [String: Any]])
        #expect(document["RefreshToken"]?.count == 1)
        #expect(!FileManager.default.fileExists(atPath: FileTokenCacheStorage.defaultURL(clientId: clientId).path), "no cache file")
        #expect(lines.all.contains { $0.contains("the Secret Service") }, "the log names the store")
        account.signOut()
        let remaining = try #require(try item.load())
        let after = try #require(try JSONSerialization.jsonObject(with: remaining) as? [String: [String: Any]])
        #expect(after["RefreshToken"]?.isEmpty ?? true)
    }
}
