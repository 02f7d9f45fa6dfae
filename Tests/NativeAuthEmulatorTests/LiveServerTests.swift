import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import NativeAuthEmulator

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The emulator served over loopback by libmicrohttpd, driven by URLSession and by the SDK.
@Suite struct LiveServerTests {
    typealias H = EmulatorHarness

    static func app(_ server: EmulatorServer, clientId: String = H.passwordApp, types: MSALNativeAuthChallengeTypes = [.OOB, .password])
        throws -> MSALNativeAuthPublicClientApplication
    {
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: clientId, authority: try MSALCIAMAuthority(url: URL(string: server.authority)!), challengeTypes: types)
        config.tokenCacheLocation = .inMemory
        config.retryPolicy.retryDelay = 0.01
        return try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
    }

    @Test func serverListensOnAFreeLoopbackPortAndStops() async throws {
        let server = try LiveEmulator.start()
        #expect(server.port != 0)
        #expect(server.baseURL == "http://127.0.0.1:\(server.port)")
        #expect(server.authority == "http://127.0.0.1:\(server.port)/emulator.onmicrosoft.com")
        let (status, data) = try await LiveEmulator.get(server.authority + "/v2.0/.well-known/openid-configuration")
        #expect(status == 200)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((document["token_endpoint"] as? String)?.hasPrefix(server.baseURL) == true)
        // Stopped means its listening socket is closed. Checked on that very socket (by inode)
        // rather than by a refused request: a server of a test running meanwhile may be given
        // the port as soon as it is free.
        let listening = OwnSockets.tcp(localPorts: [server.port]).filter(\.isListening)
        #expect(!listening.isEmpty)
        server.stop()
        server.stop()
        #expect(OwnSockets.stillOpen(listening).isEmpty)
    }

    @Test func sdkPasswordSignInEndToEnd() async throws {
        let server = try LiveEmulator.start()
        defer { server.stop() }
        let parameters = MSALNativeAuthSignInParameters(username: H.ada)
        parameters.password = H.adaPassword
        parameters.scopes = ["api://emulator/todolist/ToDoList.Read"]
        let result = try await Self.app(server).signIn(parameters: parameters)
        guard case .completed(let account) = result else {
            Issue.record("expected completion, got \(result)")
            return
        }
        #expect(account.account.username == H.ada)
        #expect(account.account.identifier?.hasSuffix("." + server.router.seed.tenant.id) == true)
        #expect(account.account.accountClaims?["name"] as? String == "Ada Lovelace")

        // The access token opens the protected API.
        var request = URLRequest(url: URL(string: server.baseURL + "/api/todolist")!)
        let accessToken = try #require(account.tokens.accessToken)
        request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as! HTTPURLResponse).statusCode == 200)
    }

    @Test func sdkCodeSignInWithResendEndToEnd() async throws {
        let server = try LiveEmulator.start()
        defer { server.stop() }
        let app = try Self.app(server, clientId: H.codeApp, types: [.OOB])
        guard
            case .codeRequired(let state, let sentTo, let channel, let length) = try await app.signIn(parameters: .init(username: H.grace))
        else {
            Issue.record("expected a code")
            return
        }
        #expect(sentTo == "g***e@e*****e.com" && channel.isEmailType && length == 8)
        let first = try await LiveEmulator.lastCode(server, H.grace)
        let next = try await state.resendCode().newState
        let second = try await LiveEmulator.lastCode(server, H.grace)
        #expect(first != second)
        let stale = try await #require(throws: VerifyCodeError.self) { try await next.submitCode(code: first) }
        #expect(stale.isInvalidCode)
        guard case .completed(let result) = try await next.submitCode(code: second) else { return }
        #expect(result.account.username == H.grace)
    }

    @Test func sdkCodeUserOfAnEmailAndPasswordAppWithoutPasswordsIsSentToTheBrowser() async throws {
        let server = try LiveEmulator.start()
        defer { server.stop() }
        // The email + password app, configured for codes only, and a user who signs in with a code:
        // the service answers the challenge with a redirect.
        let app = try Self.app(server, types: [.OOB])
        let error = try await #require(throws: SignInStartError.self) { try await app.signIn(parameters: .init(username: H.grace)) }
        #expect(error.isBrowserRequired && error.errorDescription?.contains("password") == true, "\(error)")
    }

    @Test func sdkErrorsEndToEnd() async throws {
        let server = try LiveEmulator.start()
        defer { server.stop() }
        let app = try Self.app(server)
        let wrong = MSALNativeAuthSignInParameters(username: H.ada)
        wrong.password = "Not-The-Password-1"
        let invalid = try await #require(throws: SignInStartError.self) { try await app.signIn(parameters: wrong) }
        #expect(invalid.isInvalidCredentials && invalid.errorCodes == [50126])
        #expect(invalid.errorDescription?.hasPrefix("AADSTS50126") == true)
        let nobody = try await #require(throws: SignInStartError.self) {
            try await app.signIn(parameters: .init(username: "nobody@example.com"))
        }
        #expect(nobody.isUserNotFound)
        let passwordOnly = try Self.app(server, types: [.password])
        let redirect = try await #require(throws: SignInStartError.self) {
            try await passwordOnly.signIn(parameters: .init(username: H.grace))
        }
        #expect(redirect.isBrowserRequired)
    }

    @Test func sdkRecoversFromADroppedConnectionAndReportsRepeated5xx() async throws {
        let server = try LiveEmulator.start()
        defer { server.stop() }
        #expect(
            try await LiveEmulator.post(
                server.baseURL + "/_emulator/faults", json: [["endpoint": "/oauth2/v2.0/initiate", "drop_connection": true]]) == 200)
        let app = try Self.app(server)
        let parameters = MSALNativeAuthSignInParameters(username: H.ada)
        parameters.password = H.adaPassword
        guard case .completed = try await app.signIn(parameters: parameters) else {
            Issue.record("expected completion")
            return
        }

        _ = try await LiveEmulator.post(
            server.baseURL + "/_emulator/faults", json: [["endpoint": "/oauth2/v2.0/challenge", "status": 500, "count": 2]])
        let error = try await #require(throws: SignInStartError.self) { try await app.signIn(parameters: parameters) }
        #expect((error.underlyingError as? MSALNativeAuthNetworkFailure)?.kind == .unexpectedStatus(500))
        let (_, log) = try await LiveEmulator.get(server.baseURL + "/_emulator/requests")
        #expect(String(decoding: log, as: UTF8.self).contains("/oauth2/v2.0/token"))
    }

    @Test func oversizeRequestBodiesAreRefused() async throws {
        let server = try LiveEmulator.start()
        defer { server.stop() }
        var request = URLRequest(url: URL(string: server.authority + "/oauth2/v2.0/initiate")!)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(repeating: UInt8(ascii: "a"), count: 200_000)
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as! HTTPURLResponse).statusCode == 413)
        #expect((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["error"] as? String == "invalid_request")
    }

    @Test func concurrentSDKSignInsOverTheWire() async throws {
        let server = try LiveEmulator.start()
        defer { server.stop() }
        let app = try Self.app(server)
        let completed = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<32 {
                group.addTask {
                    let parameters = MSALNativeAuthSignInParameters(username: H.ada)
                    parameters.password = H.adaPassword
                    if case .completed = try? await app.signIn(parameters: parameters) { return true }
                    return false
                }
            }
            var count = 0
            for await ok in group where ok { count += 1 }
            return count
        }
        #expect(completed == 32)
    }

    @Test func servesHTTPSWithAGivenCertificate() async throws {
        let (directory, certificate, key) = try selfSignedCertificate()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try EmulatorServer(
            router: try EmulatorRouter(), port: 0,
            tlsCertificatePEM: try String(contentsOfFile: certificate, encoding: .utf8),
            tlsKeyPEM: try String(contentsOfFile: key, encoding: .utf8))
        defer { server.stop() }
        #expect(server.baseURL.hasPrefix("https://"))
        // URLSession on Linux cannot trust a private certificate, so curl checks the TLS server.
        let output = try runTool(
            "/usr/bin/curl", ["-s", "--cacert", certificate, server.authority + "/v2.0/.well-known/openid-configuration"])
        #expect(output.contains("\"token_endpoint\""))
    }

}
