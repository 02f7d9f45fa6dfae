import Foundation
import MSAL
import NativeAuthEmulator
import Synchronization

/// An SDK clock that can be moved forward (token expiry without waiting).
final class MovableClock: NativeAuthClock {
    private let offset = Mutex<TimeInterval>(0)
    func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }
    func sleep(seconds: Double) async throws { try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9)) }
    func advance(_ seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}

/// An emulator in process (fast password hashing) and what the figures call it through.
struct InProcessEmulator {
    let router: EmulatorRouter
    let log: RequestLog
    let authority: String
    let transport: EmulatorTransport

    init() throws {
        var configuration = EmulatorConfiguration()
        configuration.passwordHashIterations = 1000
        router = try EmulatorRouter(configuration: configuration)
        log = RequestLog(router: router)
        authority = router.authority(baseURL: "http://127.0.0.1:1")
        transport = EmulatorTransport(router: router)
    }
}

enum Demo {
    static let passwordApp = Seed.demo.apps[0].clientId
    static let codeApp = Seed.demo.apps[1].clientId
    static let todo = "api://emulator/todolist/ToDoList.Read"
    static let profile = "api://emulator/profile/Profile.Read"

    static func app(
        authority: String, clientId: String = passwordApp, transport: (any HTTPTransport)? = nil,
        cache: MSALNativeAuthTokenCacheLocation = .inMemory, clock: MovableClock = MovableClock(),
        capabilities: MSALNativeAuthCapabilities = []
    ) throws
        -> MSALNativeAuthPublicClientApplication
    {
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: clientId, authority: try MSALCIAMAuthority(url: URL(string: authority)!), challengeTypes: [.OOB, .password])
        config.transport = transport
        config.tokenCacheLocation = cache
        config.capabilities = capabilities
        return try MSALNativeAuthPublicClientApplication(configuration: config, clock: clock, uuid: { UUID() })
    }

    static func signIn(
        _ app: MSALNativeAuthPublicClientApplication, _ username: String = "ada@example.com",
        _ password: String = "Analytical-Engine-1843"
    ) async throws -> MSALNativeAuthUserAccountResult {
        let parameters = MSALNativeAuthSignInParameters(username: username)
        parameters.password = password
        guard case .completed(let result) = try await app.signIn(parameters: parameters) else {
            throw EmulatorError("password sign-in did not complete")
        }
        return result
    }

    static func token(_ account: MSALNativeAuthUserAccountResult, _ scope: String) async throws -> String {
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = [scope]
        return try await account.getAccessToken(parameters: parameters).accessToken
    }
}

/// The emulator's request log, through its test hook.
struct RequestLog {
    let router: EmulatorRouter

    func clear() {
        _ = router.handle(EmulatorRequest(method: "DELETE", path: "/_emulator/requests", baseURL: "http://127.0.0.1"))
    }

    var entries: [[String: Any]] {
        let response = router.handle(EmulatorRequest(method: "GET", path: "/_emulator/requests", baseURL: "http://127.0.0.1"))
        return ((try? JSONSerialization.jsonObject(with: response.body)) as? [[String: Any]]) ?? []
    }

    var count: Int { entries.count }

    var refreshGrants: Int {
        entries.filter { ($0["fields"] as? [String: String])?["grant_type"] == "refresh_token" }.count
    }

    /// Adds a user through the emulator's hook (not a request of the flows: the log does not show it).
    func addUser(_ user: [String: Any]) throws {
        let response = router.handle(
            EmulatorRequest(
                method: "POST", path: "/_emulator/users", headers: ["Content-Type": "application/json"],
                body: try JSONSerialization.data(withJSONObject: user), baseURL: "http://127.0.0.1"))
        guard response.status == 201 else { throw EmulatorError("could not add \(user["username"] ?? "a user")") }
    }

    func lastCode(_ username: String) -> String {
        let response = router.handle(
            EmulatorRequest(method: "GET", path: "/_emulator/mailbox", query: ["username": username], baseURL: "http://127.0.0.1"))
        let list = ((try? JSONSerialization.jsonObject(with: response.body)) as? [[String: Any]]) ?? []
        return list.last?["code"] as? String ?? ""
    }
}
