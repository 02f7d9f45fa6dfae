import Foundation
import TestSupport
import Testing

/// `native-auth login` (V1 and `--v2`) against an emulator whose first answer is a redirect to a
/// second loopback address that records every connection: exit status 7 (network), a message
/// naming the status and the host, and nothing reaches that host.
@Suite(.serialized) struct RedirectRefusalCLITests {
    @Test(arguments: [301, 302, 303, 307, 308])
    func aRedirectedLoginFailsAsANetworkErrorAndReachesNothing(status: Int) async throws {
        let emulator = try CLIEmulator()
        let recorder = try ConnectionRecorder()
        defer { recorder.stop() }
        for (arguments, endpoint) in [([String](), "/oauth2/v2.0/initiate"), (["--v2"], "/authorize-challenge")] {
            let added = try await LiveEmulator.post(
                emulator.server.baseURL + "/_emulator/faults",
                json: [["endpoint": endpoint, "status": status, "location": recorder.url()]])
            #expect(added == 200)
            let login = try emulator.run(
                ["login"] + arguments + ["--no-prompt", "--username", "ada@example.com", "--password", "-"],
                input: CLIEmulator.adaPassword + "\n")
            let host = "\(recorder.host):\(recorder.port)"
            #expect(login.status == 7, "\(arguments): \(login)")
            #expect(login.stderr.contains("HTTP \(status)") && login.stderr.contains(host), "\(arguments): \(login)")
            #expect(!login.stderr.contains("stolen"), "only the host is named: \(login)")
        }
        #expect(recorder.connections.isEmpty, "reached the other host: \(recorder.report)")
    }
}
