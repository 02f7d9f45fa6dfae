import Foundation
import TestSupport
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

    // MARK: 2. A scope the app has no permission for

    @Test(arguments: [
        "Calendar.Read", "https://graph.microsoft.com/Calendars.Read", "api://emulator/todolist/ToDoList.Delete",
    ])
    func aWellFormedScopeTheAppIsNotGrantedNeedsConsent(scope: String) throws {
        let h = try H()
        let rt = try h.signIn()["refresh_token"] as? String
        for reply in [
            h.passwordGrant(try h.passwordToken(), scope: "\(scope) \(Self.oidc)"), refresh(h, rt, scope: "\(scope) \(Self.oidc)"),
        ] {
            #expect(reply.status == 400 && reply.error == "invalid_grant" && reply.codes == [65001], "\(reply.json)")
            #expect(reply.suberror == "consent_required")
            let description = try #require(reply["error_description"] as? String)
            #expect(description.hasPrefix("AADSTS65001: ") && description.contains(Self.consentText))
            #expect(description.contains(H.passwordApp))
        }
        #expect(refresh(h, rt).status == 200, "the refresh token survives")
    }

    @Test(arguments: [
        "api://elsewhere/Read", "api://emulator/todolist/", "https://graph.microsoft.com/", "Cal\"endar.Read",
        "api://emulator/todolist/ToDoList.Read/x",
    ])
    func aMalformedOrUnknownScopeIsInvalid(scope: String) throws {
        let h = try H()
        let reply = h.passwordGrant(try h.passwordToken(), scope: "\(scope) \(Self.oidc)")
        #expect(reply.error == "invalid_scope" && reply.codes == [70011], "\(reply.json)")
    }

    @Test func theSDKReportsTheConsentAnswer() async throws {
        let h = try H()
        let app = try app(h)
        let account = try await signIn(app)
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = ["Calendar.Read"]
        parameters.forceRefresh = true
        let error = try await #require(throws: RetrieveAccessTokenError.self) { try await account.getAccessToken(parameters: parameters) }
        #expect(error.errorDescription?.contains(Self.consentText) == true, "\(error.errorDescription ?? "")")
        #expect(error.isBrowserRequired && !error.isRefreshTokenExpired && !error.isInvalidScope && error.errorCodes == [65001])

        do {
            _ = try await app.acquireTokenSilent(with: MSALSilentTokenParameters(scopes: ["Calendar.Read"], account: account.account))
            Issue.record("acquireTokenSilent succeeded")
        } catch {
            let silent = error as NSError
            #expect(silent.domain == MSALErrorDomain && silent.code == MSALError.interactionRequired.rawValue, "\(silent)")
            #expect((silent.userInfo[MSALErrorDescriptionKey] as? String)?.contains(Self.consentText) == true)
        }
        // The account is still signed in: a granted scope still works.
        let todo = MSALNativeAuthGetAccessTokenParameters()
        todo.scopes = [Self.todo]
        #expect(try await !account.getAccessToken(parameters: todo).accessToken.isEmpty)
    }

    // MARK: 3. Microsoft Graph's delegated scopes

    @Test func userReadIsGrantedAndItsTokensAreForGraph() throws {
        let h = try H()
        let bare = try h.signIn(scope: "User.Read \(Self.oidc)")
        #expect(bare["scope"] as? String == "User.Read openid profile offline_access")
        let access = try claims(bare["access_token"], h)
        #expect(access["aud"] as? String == "00000003-0000-0000-c000-000000000000" && access["scp"] as? String == "User.Read")

        let written = try h.signIn(scope: "https://graph.microsoft.com/User.Read openid")
        #expect(written["scope"] as? String == "https://graph.microsoft.com/User.Read openid")
        #expect(try claims(written["access_token"], h)["aud"] as? String == "00000003-0000-0000-c000-000000000000")
        let all = try h.signIn(scope: "https://graph.microsoft.com/.default openid")
        #expect(try claims(all["access_token"], h)["scp"] as? String == "User.Read")
        // Graph is a resource of its own: not with another API in one request.
        let mixed = h.passwordGrant(try h.passwordToken(), scope: "User.Read \(Self.todo)")
        #expect(mixed.error == "invalid_scope" && mixed.codes == [28000])
        // The sample APIs do not take Graph's tokens.
        let api = h.send("GET", "/api/todolist", headers: ["Authorization": "Bearer \(bare["access_token"] as? String ?? "")"])
        #expect(api.status == 401)
    }

    @Test func theGrantedGraphScopesAreTheAppsSeedField() throws {
        let json = #"""
            {"tenant": {"subdomain": "t", "id": "5c3b1c2e-8a4f-4f5e-9d7a-0e6b2a9c1d00"},
             "apps": [{"client_id": "c", "graph_scopes": ["Mail.Read"]}, {"client_id": "d"}],
             "users": [{"username": "ada@example.com", "password": "Analytical-Engine-1843"}], "apis": []}
            """#
        let seed = try Seed.load(from: Data(json.utf8))
        #expect(seed.apps[0].graphScopes == ["Mail.Read"] && seed.apps[1].graphScopes == ["User.Read"])
        #expect(Seed.demo.apps.allSatisfy { $0.graphScopes == ["User.Read"] })
        let h = try H(seed: seed)
        func grant(_ scope: String) throws -> H.Reply {
            let initiated = try #require(h.initiate(H.ada, clientId: "c").token)
            let token = try #require(h.challenge(initiated, clientId: "c").token)
            return h.post(
                "/oauth2/v2.0/token",
                [
                    "continuation_token": token, "grant_type": "password", "username": H.ada, "password": H.adaPassword,
                    "scope": scope, "challenge_type": H.all, "client_info": "true",
                ], clientId: "c")
        }
        #expect(try grant("mail.read openid").status == 200, "Graph scope names are case-insensitive")
        #expect(try grant("User.Read openid").codes == [65001])
    }

    @Test func aSignInForUserReadThroughTheSDK() async throws {
        let h = try H()
        let account = try await signIn(try app(h), scopes: ["User.Read"])
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = ["User.Read"]
        let token = try await account.getAccessToken(parameters: parameters)
        #expect(token.scopes.contains("User.Read"))
        #expect(try claims(token.accessToken, h)["aud"] as? String == "00000003-0000-0000-c000-000000000000")
    }

    // MARK: 4. An authentication context on a native sign-in

    /// A user with strong-auth methods whom nothing else asks for MFA.
    private func addUserWithMethods(_ h: H) throws -> String {
        let username = "context.\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let methods: [[String: Any]] = [["id": "m-email", "channel": "email", "target": "backup@example.net"]]
        let added = h.hook("POST", "users", json: ["username": username, "password": H.adaPassword, "strong_auth_methods": methods])
        try #require(added.status == 201)
        return username
    }

    private func passwordGrant(_ h: H, _ username: String, capabilities: String?, claims: String?) throws -> H.Reply {
        let initiated = h.post(
            "/oauth2/v2.0/initiate", ["username": username, "challenge_type": H.all, "capabilities": capabilities])
        let challenged = h.challenge(initiated.token)
        return h.post(
            "/oauth2/v2.0/token",
            [
                "continuation_token": challenged.token, "grant_type": "password", "username": username,
                "password": H.adaPassword, "scope": "\(Self.todo) \(Self.oidc)", "challenge_type": H.all, "client_info": "true",
                "claims": claims,
            ])
    }

    @Test func anAuthenticationContextLeadsToMFAAndTheTokenCarriesIt() throws {
        let h = try H()
        let username = try addUserWithMethods(h)
        // Without claims this user needs no second factor.
        let plain = try passwordGrant(h, username, capabilities: "mfa_required", claims: nil)
        #expect(try plain.status == 200 && claims(plain["access_token"], h)["acrs"] == nil)

        let asked = try passwordGrant(h, username, capabilities: "mfa_required", claims: Self.c1)
        #expect(asked.status == 400 && asked.error == "invalid_grant" && asked.suberror == "mfa_required" && asked.codes == [50076])
        let introspected = h.post("/oauth2/v2.0/introspect", ["continuation_token": asked.token])
        let challenged = h.post(
            "/oauth2/v2.0/challenge", ["continuation_token": introspected.token, "challenge_type": H.all, "id": "m-email"])
        let done = h.post(
            "/oauth2/v2.0/token",
            [
                "continuation_token": challenged.token, "grant_type": "mfa_oob", "oob": h.lastCode(username),
                "scope": "\(Self.todo) \(Self.oidc)", "client_info": "true", "claims": Self.c1,
            ])
        #expect(done.status == 200, "\(done.json)")
        #expect(try claims(done["access_token"], h)["acrs"] as? [String] == ["c1"])
        // Its refresh token satisfies c1 again; an unproven context still needs interaction.
        let rt = done["refresh_token"] as? String
        let again = refresh(h, rt, scope: "\(Self.todo) \(Self.oidc)", claims: Self.c1)
        #expect(try again.status == 200 && claims(again["access_token"], h)["acrs"] as? [String] == ["c1"])
        let other = refresh(h, rt, claims: #"{"access_token":{"acrs":{"essential":true,"value":"c2"}}}"#)
        #expect(other.error == "invalid_grant" && other.codes == [50076])
    }

    @Test func anAuthenticationContextWithoutTheCapabilityNeedsTheBrowser() throws {
        let h = try H()
        let username = try addUserWithMethods(h)
        let reply = try passwordGrant(h, username, capabilities: nil, claims: Self.c1)
        #expect(reply.status == 200 && reply["challenge_type"] as? String == "redirect" && reply["access_token"] == nil)
    }

    @Test func anAuthenticationContextThroughTheSDK() async throws {
        let h = try H()
        let username = try addUserWithMethods(h)
        let parameters = MSALNativeAuthSignInParameters(username: username)
        parameters.password = H.adaPassword
        parameters.claimsRequest = try MSALClaimsRequest(jsonString: Self.c1)

        let refused = try app(h)
        let error = try await #require(throws: SignInStartError.self) { try await refused.signIn(parameters: parameters) }
        #expect(error.isBrowserRequired)

        guard case .awaitingMFA(let methods, let awaiting) = try await app(h, capabilities: [.mfaRequired]).signIn(parameters: parameters)
        else { throw EndToEndFailure("no MFA step") }
        let email = try #require(methods.first { $0.channelTargetType.isEmailType })
        let mfa = try await awaiting.requestChallenge(authMethod: email).newState
        let account = try await mfa.submitChallenge(challenge: h.lastCode(username) ?? "")
        let token = try await account.getAccessToken(parameters: MSALNativeAuthGetAccessTokenParameters())
        let payload = try #require(token.accessToken.split(separator: ".").dropFirst().first.flatMap { Base64URLCoding.decode($0) })
        #expect(String(decoding: payload, as: UTF8.self).contains(#""acrs":["c1"]"#), "as Microsoft's end-to-end test reads it")
    }

    // MARK: 5. A client that can only do passwords, a user without one

    @Test func aPasswordOnlyClientAndAUserWithoutAPasswordGetTheBrowser() throws {
        let h = try H()
        let initiated = h.initiate(H.grace, types: "password redirect")
        let challenged = h.challenge(initiated.token, types: "password redirect")
        #expect(challenged.status == 200 && challenged["challenge_type"] as? String == "redirect" && challenged.token == nil)
        #expect(h.lastCode(H.grace) == nil, "no code is sent")
    }

    @Test func aPasswordOnlyClientThroughTheSDK() async throws {
        let h = try H()
        let parameters = MSALNativeAuthSignInParameters(username: H.grace)
        parameters.password = "testpassword"
        let error = try await #require(throws: SignInStartError.self) {
            try await app(h, challengeTypes: [.password]).signIn(parameters: parameters)
        }
        #expect(error.isBrowserRequired, "\(error)")
        #expect(h.lastCode(H.grace) == nil)
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
