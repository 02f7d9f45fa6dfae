import Foundation
import Testing

@testable import MSAL
@testable import NativeAuthEmulator

/// Answers where the emulator now does as the live Entra service does, found by running Microsoft's
/// own client tests (which run against the live service) against the emulator: router-level, and
/// end to end through the SDK where the SDK is involved.
@Suite struct EntraFidelityTests {
    typealias H = EmulatorHarness
    static let todo = "api://emulator/todolist/ToDoList.Read"
    static let oidc = "openid profile offline_access"
    static let consentText = "Send an interactive authorization request for this user and resource."
    static let c1 = #"{"access_token":{"acrs":{"essential":true,"value":"c1"}}}"#

    private func claims(_ token: Any?, _ h: H) throws -> [String: Any] {
        try JWT.verify(try #require(token as? String), keys: h.router.keys)
    }

    private func refresh(_ h: H, _ rt: String?, scope: String = oidc, claims: String? = nil) -> H.Reply {
        h.post(
            "/oauth2/v2.0/token",
            ["grant_type": "refresh_token", "refresh_token": rt, "scope": scope, "client_info": "1", "claims": claims])
    }

    /// An app on `h`'s router over the in-process transport.
    private func app(
        _ h: H, clientId: String = H.passwordApp, challengeTypes: MSALNativeAuthChallengeTypes = [.OOB, .password],
        capabilities: MSALNativeAuthCapabilities = []
    ) throws -> MSALNativeAuthPublicClientApplication {
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: clientId, authority: try MSALCIAMAuthority(url: URL(string: h.router.authority(baseURL: "http://127.0.0.1:1"))!),
            challengeTypes: challengeTypes)
        config.capabilities = capabilities
        config.tokenCacheLocation = .inMemory
        config.transport = EmulatorTransport(router: h.router)
        return try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
    }

    private func signIn(_ app: MSALNativeAuthPublicClientApplication, scopes: [String]? = nil) async throws
        -> MSALNativeAuthUserAccountResult
    {
        let parameters = MSALNativeAuthSignInParameters(username: H.ada)
        parameters.password = H.adaPassword
        parameters.scopes = scopes
        guard case .completed(let account) = try await app.signIn(parameters: parameters) else { throw EndToEndFailure("no sign-in") }
        return account
    }

    private static func isBase64URL(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" }
    }

    // MARK: 1. Every token is a new one

    @Test func tokensIssuedInTheSameSecondDifferByTheirUti() throws {
        let h = try H(frozenAt: Date(timeIntervalSince1970: 1_800_000_000))
        let signedIn = try h.signIn(scope: "\(Self.todo) \(Self.oidc)")
        let rt = signedIn["refresh_token"] as? String
        let first = refresh(h, rt, scope: "\(Self.todo) \(Self.oidc)")
        let second = refresh(h, rt, scope: "\(Self.todo) \(Self.oidc)")
        #expect(first.status == 200 && second.status == 200)
        var utis: Set<String> = []
        for reply in [signedIn, first, second] {
            let id = try claims(reply["id_token"], h)
            let access = try claims(reply["access_token"], h)
            #expect(id["iat"] as? Int == 1_800_000_000 && access["iat"] as? Int == 1_800_000_000, "all in one second")
            for uti in [id["uti"] as? String, access["uti"] as? String] {
                let value = try #require(uti)
                #expect(value.count == 22 && Self.isBase64URL(value), "16 random bytes, base64url: \(value)")
                utis.insert(value)
            }
        }
        #expect(utis.count == 6, "every access and id token has its own uti")
        #expect(Set([signedIn, first, second].compactMap { $0["id_token"] as? String }).count == 3)
        #expect(Set([signedIn, first, second].compactMap { $0["access_token"] as? String }).count == 3)
    }

    @Test func aForcedRefreshGivesANewIDToken() async throws {
        let h = try H(frozenAt: Date(timeIntervalSince1970: 1_800_000_000))
        let account = try await signIn(try app(h))
        let before = try #require(account.idToken)
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.forceRefresh = true
        let token = try await account.getAccessToken(parameters: parameters)
        #expect(!token.accessToken.isEmpty)
        let after = try #require(account.idToken)
        let renewed = after != before // compared outside #expect, which would print both tokens
        #expect(renewed, "Entra issues a new id token on every refresh")
        #expect(account.account.username == H.ada)
    }

    // MARK: 6. Redeeming a refresh token does not revoke it

    @Test func aRedeemedRefreshTokenStaysValidThroughTheSDKsCache() async throws {
        let h = try H()
        let account = try await signIn(try app(h))
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.forceRefresh = true
        parameters.returnRefreshToken = true
        let first = try #require(try await account.getAccessToken(parameters: parameters).refreshToken)
        _ = try await account.getAccessToken(parameters: parameters)
        // The first refresh token, already redeemed, still works (a copy another process holds, say).
        #expect(refresh(h, first).status == 200)
    }
}
