import Foundation
import MSAL
import MSALSecretService
import NativeAuthEmulator
import TestSupport
import Testing

/// The same keyring item shared with MSAL for Python and msal-extensions (`LibsecretPersistence`
/// with the same schema name, attributes and signal file), both ways, in one sequence: this SDK
/// signs in, Python reads it and adds its own sign-in, this SDK finds Python's account and token
/// and signs its own out, and Python sees that too.
@Suite struct MSALExtensionsInteropTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("msal_extensions_interop.py")

    @Test(.enabled(if: KeyringSession.isPrivate, KeyringSession.reason))
    func msalExtensionsAndThisSDKShareOneKeyringItemBothWays() async throws {
        let python = try #require(
            KeyringSession.environment["MSAL_KEYRING_PYTHON"],
            "MSAL_KEYRING_PYTHON must name a python with msal-extensions and gi (scripts/test-keyring makes .build/keyring-venv)")
        let item = try TestItem()
        let router = try EmulatorRouter(seed: .demo)
        let authority = URL(string: router.authority(baseURL: "http://127.0.0.1:1"))!
        let clientId = KeyringTokenCacheTests.clientId
        func pythonReads() async throws -> [String: Any] {
            let result = try await run(python, [Self.script.path, "read"] + item.helperArguments + [clientId])
            try #require(result.status == 0, "msal-extensions failed:\n\(result.output)")
            let line = try #require(result.output.split(separator: "\n").last, "no output:\n\(result.output)")
            return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(result.output)")
        }

        // 1. This SDK signs in; msal-extensions reads the same item.
        let ada = try await KeyringTokenCacheTests.signIn(try KeyringTokenCacheTests.app(router, item.persistence))
        let adaRefreshToken = try #require(
            KeyringTokenCacheTests.section(item.persistence, "RefreshToken").values.first?["secret"] as? String)
        let seen = try await pythonReads()
        #expect(seen["accounts"] as? [String] == ["ada@example.com"])
        #expect((seen["refresh_tokens"] as? [String: String])?.values.sorted() == [adaRefreshToken])

        // 2. msal-extensions adds its own sign-in; this SDK finds it (and keeps its own).
        let versions = try await run(
            python, [Self.script.path, "add"] + item.helperArguments + [clientId, authority.host!, authority.pathComponents[1]])
        try #require(versions.status == 0, "msal-extensions failed to add:\n\(versions.output)")
        let app = try KeyringTokenCacheTests.app(router, item.persistence)
        let usernames = try app.allAccounts().compactMap(\.username).sorted()
        #expect(usernames == ["ada@example.com", "grace@example.com"])
        let grace = try #require(try app.allAccounts().first { $0.username == "grace@example.com" })
        let silent = try await app.acquireTokenSilent(
            with: MSALSilentTokenParameters(scopes: [KeyringTokenCacheTests.todo], account: grace))
        #expect(silent.accessToken == "python-access-token", "Python's token, from the keyring, without the network")

        // 3. This SDK signs its account out; msal-extensions sees it gone and its own still there.
        ada.signOut()
        let after = try await pythonReads()
        #expect(after["accounts"] as? [String] == ["grace@example.com"])
        #expect(
            after["refresh_tokens"] as? [String: String] == [
                "b2b2b2b2-0000-4000-8000-000000000002.5c3b1c2e-8a4f-4f5e-9d7a-0e6b2a9c1d00": "python-refresh-token"
            ])
        #expect(after["access_tokens"] as? [String] == ["python-access-token"])
    }
}
