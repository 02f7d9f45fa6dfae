import Foundation
import NativeAuthEmulator
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The emulator served over loopback (a free port, fast password hashing), and plain HTTP calls to
/// it: for the live server's tests and the SDK's end-to-end tests over the wire.
package enum LiveEmulator {
    package static func start(configure: (inout EmulatorConfiguration) -> Void = { _ in }) throws -> EmulatorServer {
        var configuration = EmulatorConfiguration()
        configuration.passwordHashIterations = 1000
        configure(&configuration)
        return try EmulatorServer(router: try EmulatorRouter(configuration: configuration), port: 0)
    }

    package static func get(_ url: String) async throws -> (Int, Data) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: url)!)
        return ((response as! HTTPURLResponse).statusCode, data)
    }

    package static func post(_ url: String, json: Any) async throws -> Int {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: json)
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as! HTTPURLResponse).statusCode
    }

    package static func lastCode(_ server: EmulatorServer, _ username: String) async throws -> String {
        try #require(try await mails(server, username).last?["code"] as? String)
    }

    /// The messages mailed to `username`, oldest first, as the mailbox hook lists them (`code`,
    /// `purpose`, `channel`, `target`, `api`, ...).
    package static func mails(_ server: EmulatorServer, _ username: String) async throws -> [[String: Any]] {
        let (_, data) = try await get("\(server.baseURL)/_emulator/mailbox?username=\(username)")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }
}
