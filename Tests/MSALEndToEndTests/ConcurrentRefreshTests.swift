import Foundation
import MSAL
import NativeAuthEmulator
import Synchronization
import TestSupport
import Testing

/// Two APIs asked for at once right after a sign-in: two refreshes of one account. With strict
/// rotation the emulator honours each refresh token once (Entra keeps a redeemed one valid, but a
/// stricter service may not), so the SDK must never send one twice at once (found through the C
/// interface's tests).
@Suite(.tags(.concurrency)) struct ConcurrentRefreshTests {
    typealias H = EmulatorHarness
    static let todo = "api://emulator/todolist/ToDoList.Read"
    static let profile = "api://emulator/profile/Profile.Read"

    /// Holds each refresh request until a second one arrives or 300 ms pass, so that two refreshes
    /// the SDK lets run at once reach the emulator together.
    final class RefreshBarrier: HTTPTransport {
        let inner: any HTTPTransport
        private let arrivals = Mutex(0)
        private let forwarded = Mutex(0)
        init(_ inner: any HTTPTransport) { self.inner = inner }

        var refreshesSent: Int { forwarded.withLock { $0 } }

        func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
            guard String(decoding: request.body, as: UTF8.self).contains("grant_type=refresh_token") else {
                return try await inner.send(request)
            }
            arrivals.withLock { $0 += 1 }
            let deadline = Date().addingTimeInterval(0.3)
            while arrivals.withLock({ $0 }) < 2, Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
            forwarded.withLock { $0 += 1 }
            return try await inner.send(request)
        }
    }

    @Test(arguments: ["memory", "file"])
    func twoAPIsAtOnceAfterASignInBothGetTokens(_ store: String) async throws {
        let router = try H { $0.strictRefreshTokenRotation = true }.router
        let barrier = RefreshBarrier(EmulatorTransport(router: router))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("msal-concurrent-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: H.passwordApp, authority: try MSALCIAMAuthority(url: URL(string: router.authority(baseURL: "http://127.0.0.1:1"))!),
            challengeTypes: [.OOB, .password])
        config.tokenCacheLocation = store == "file" ? .file(folder.appendingPathComponent("token_cache.json")) : .inMemory
        config.transport = barrier
        let app = try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
        let parameters = MSALNativeAuthSignInParameters(username: H.ada)
        parameters.password = H.adaPassword
        guard case .completed(let account) = try await app.signIn(parameters: parameters) else { throw EndToEndFailure("no sign-in") }

        func token(_ scope: String) async throws -> String {
            let request = MSALNativeAuthGetAccessTokenParameters()
            request.scopes = [scope]
            return try await account.getAccessToken(parameters: request).accessToken
        }
        async let todo = token(Self.todo)
        async let profile = token(Self.profile)
        let tokens = try await [todo, profile]
        #expect(tokens.allSatisfy { !$0.isEmpty })
        #expect(barrier.refreshesSent == 2, "one refresh per API, one after the other")
        #expect(try await token(Self.todo) == tokens[0], "both were stored")
        #expect(try await token(Self.profile) == tokens[1])
    }
}
