import Foundation
import MSAL
import TestSupport
import Testing

@testable import NativeAuthEmulator

/// The router as the SDK's transport, in-process: no socket, same behaviour.
@Suite struct EmulatorTransportTests {
    typealias H = EmulatorHarness

    private func app(_ router: EmulatorRouter, timeout: TimeInterval = 30) throws -> MSALNativeAuthPublicClientApplication {
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: H.passwordApp, authority: try MSALCIAMAuthority(url: URL(string: router.authority(baseURL: "http://127.0.0.1:1"))!),
            challengeTypes: [.OOB, .password])
        config.tokenCacheLocation = .inMemory
        config.transport = EmulatorTransport(router: router)
        config.retryPolicy.retryDelay = 0.001
        config.requestTimeout = timeout
        return try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
    }

    private var parameters: MSALNativeAuthSignInParameters {
        let parameters = MSALNativeAuthSignInParameters(username: H.ada)
        parameters.password = H.adaPassword
        return parameters
    }

    @Test func signInInProcess() async throws {
        let h = try H()
        guard case .completed(let result) = try await app(h.router).signIn(parameters: parameters) else {
            Issue.record("expected completion")
            return
        }
        #expect(result.account.username == H.ada)
        #expect(h.hook("GET", "requests").list.count == 3)
    }

    @Test func faultsBehaveAsOnTheWire() async throws {
        let h = try H()
        _ = h.hook("POST", "faults", json: [["endpoint": "/oauth2/v2.0/initiate", "drop_connection": true]])
        guard case .completed = try await app(h.router).signIn(parameters: parameters) else {
            Issue.record("expected a retry to succeed")
            return
        }

        _ = h.hook("POST", "faults", json: [["endpoint": "/oauth2/v2.0/initiate", "body": "oversize"]])
        let oversize = try await #require(throws: SignInStartError.self) { try await app(h.router).signIn(parameters: parameters) }
        #expect((oversize.underlyingError as? MSALNativeAuthNetworkFailure)?.kind == .responseTooLarge)

        _ = h.hook("POST", "faults", json: [["endpoint": "/oauth2/v2.0/initiate", "delay_ms": 5000, "count": 2]])
        let slow = try await #require(throws: SignInStartError.self) {
            try await app(h.router, timeout: 0.05).signIn(parameters: parameters)
        }
        #expect((slow.underlyingError as? MSALNativeAuthNetworkFailure)?.transportError?.kind == .timedOut)

        for body in ["truncated", "invalid_json", "empty", "html"] {
            _ = h.hook("POST", "faults", json: [["endpoint": "/oauth2/v2.0/initiate", "body": body]])
            let error = try await #require(throws: SignInStartError.self) { try await app(h.router).signIn(parameters: parameters) }
            #expect((error.underlyingError as? MSALNativeAuthNetworkFailure)?.kind == .invalidResponse, "\(body)")
        }
    }
}
