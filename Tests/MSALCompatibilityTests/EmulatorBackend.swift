import Foundation
import NativeAuthEmulator

/// The emulator the client code talks to over loopback HTTP, and its mailbox. The only file of
/// this target that knows about the emulator: the client code imports MSAL alone.
final class EmulatorBackend {
    let router: EmulatorRouter
    let server: EmulatorServer
    var authority: URL { URL(string: server.authority)! }

    init() throws {
        var configuration = EmulatorConfiguration()
        configuration.passwordHashIterations = 1000
        router = try EmulatorRouter(seed: .demo, configuration: configuration)
        server = try EmulatorServer(router: router)
    }

    deinit { server.stop() }

    /// The codes mailed to `username`, oldest first.
    func codes(for username: String) -> [String] {
        mails(for: username).compactMap { $0["code"] as? String }
    }

    /// The messages mailed to `username`, oldest first, as the mailbox hook lists them (`code`,
    /// `purpose`, `channel`, `target`, ...).
    func mails(for username: String) -> [[String: Any]] {
        let response = router.handle(
            EmulatorRequest(
                method: "GET", path: "/_emulator/mailbox", query: ["username": username], headers: [:], body: Data(),
                baseURL: server.baseURL))
        return (try? JSONSerialization.jsonObject(with: response.body)) as? [[String: Any]] ?? []
    }
}
