import Foundation
import Testing

@testable import NativeAuthEmulator

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Binding beyond loopback: refused without TLS or an explicit opt-in, and then every test hook
/// needs the token made at start. The tests bind 0.0.0.0 but send traffic only to 127.0.0.1.
@Suite(.serialized) struct ExposureTests {
    /// A request to this machine's loopback address only.
    private func fetch(
        _ base: String, _ path: String, method: String = "GET", headers: [String: String] = [:], body: Data? = nil
    ) async throws -> (status: Int, body: Data) {
        let url = try #require(URL(string: base + path))
        try #require(url.host == "127.0.0.1", "tests talk to loopback only")
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    @Test func loopbackIsOnlyLiteralLoopbackAddresses() {
        for host in ["127.0.0.1", "127.1.2.3", "::1", "0:0:0:0:0:0:0:1"] { #expect(EmulatorServer.isLoopback(host), "\(host)") }
        for host in ["0.0.0.0", "192.168.1.10", "10.0.0.1", "128.0.0.1", "::", "localhost", "", "127.0.0.1.example.com"] {
            #expect(!EmulatorServer.isLoopback(host), "\(host)")
        }
    }

    @Test func plainHTTPBeyondLoopbackIsRefusedWithoutTheOptIn() throws {
        #expect(throws: EmulatorError.self) { try EmulatorServer(router: try EmulatorRouter(), host: "0.0.0.0", port: 0) }
    }

    @Test func loopbackServersNeedNoHookToken() async throws {
        let server = try EmulatorServer(router: try EmulatorRouter(), port: 0)
        defer { server.stop() }
        #expect(server.hookToken == nil && !server.listensOnAllInterfaces)
        #expect(try await fetch(server.baseURL, "/_emulator/mailbox?username=ada@example.com").status == 200)
    }

    @Test func onAllInterfacesEveryHookNeedsTheToken() async throws {
        let server = try EmulatorServer(router: try EmulatorRouter(), host: "0.0.0.0", port: 0, exposeInsecurely: true)
        defer { server.stop() }
        let token = try #require(server.hookToken)
        #expect(token.count >= 43, "32 random bytes")
        #expect(server.listensOnAllInterfaces && server.baseURL == "http://127.0.0.1:\(server.port)")
        let base = server.baseURL

        for (method, path) in [
            ("GET", "/_emulator/mailbox?username=ada@example.com"), ("GET", "/_emulator/requests"), ("DELETE", "/_emulator/faults"),
            ("GET", "/_emulator/nothing"),
        ] {
            let bare = try await fetch(base, path, method: method)
            #expect(bare.status == 401, "\(method) \(path)")
            #expect(String(decoding: bare.body, as: UTF8.self).contains("X-Emulator-Hook-Token"))
            #expect(try await fetch(base, path, method: method, headers: ["X-Emulator-Hook-Token": "wrong"]).status == 401)
            let other = String(token.reversed())
            #expect(try await fetch(base, path, method: method, headers: ["X-Emulator-Hook-Token": other]).status == 401)
        }
        let added = try await fetch(
            base, "/_emulator/users", method: "POST", headers: ["Content-Type": "application/json"],
            body: Data(#"{"username": "lin@example.com"}"#.utf8))
        #expect(added.status == 401)
        let withToken = try await fetch(
            base, "/_emulator/users", method: "POST", headers: ["Content-Type": "application/json", "X-Emulator-Hook-Token": token],
            body: Data(#"{"username": "lin@example.com"}"#.utf8))
        #expect(withToken.status == 201)
        #expect(
            try await fetch(base, "/_emulator/mailbox?username=ada@example.com", headers: ["x-emulator-hook-token": token]).status == 200)
        // The native-auth API itself needs no token.
        #expect(try await fetch(base, "/emulator.onmicrosoft.com/v2.0/.well-known/openid-configuration").status == 200)
    }

    @Test func withTLSBeyondLoopbackNeedsNoOptInButStillTheToken() throws {
        let (directory, certificate, key) = try selfSignedCertificate()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try EmulatorServer(
            router: try EmulatorRouter(), host: "0.0.0.0", port: 0,
            tlsCertificatePEM: try String(contentsOfFile: certificate, encoding: .utf8),
            tlsKeyPEM: try String(contentsOfFile: key, encoding: .utf8))
        defer { server.stop() }
        let token = try #require(server.hookToken)
        #expect(server.baseURL == "https://127.0.0.1:\(server.port)")
        let url = server.baseURL + "/_emulator/requests"
        let curl = ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", certificate]
        #expect(try runTool("/usr/bin/curl", curl + [url]) == "401")
        #expect(try runTool("/usr/bin/curl", curl + ["-H", "X-Emulator-Hook-Token: \(token)", url]) == "200")
    }

    // MARK: The command

    @Test func theCommandRefusesPlainHTTPBeyondLoopback() async throws {
        for host in ["0.0.0.0", "192.0.2.1"] {
            let child = try EmulatorCommandTests.start(["--host", host, "--port", "0"])
            #expect(await child.exitStatus(within: 60) == 2, "\(host)")
            #expect(child.errors.contains("not a loopback address") && child.errors.contains("--expose-insecurely"))
            #expect(child.errors.contains("--tls-cert") && child.errors.contains("mailbox"))
            #expect(child.output.isEmpty)
        }
        let help = try EmulatorCommandTests.start(["--help"])
        #expect(await help.exitStatus(within: 60) == 0)
        #expect(help.output.contains("--expose-insecurely"))
    }

    /// The emulator on every interface (with its mailbox) is up only inside `with`, which ends it
    /// however the test leaves that scope.
    @Test func theCommandOnAllInterfacesWarnsPrintsALoopbackURLAndGuardsTheHooks() async throws {
        try await EmulatorCommandTests.with(["--host", "0.0.0.0", "--port", "0", "--expose-insecurely"]) { child in
            #expect(await EmulatorCommandTests.waitForBanner(child), "no banner: \(child.errors)")
            let lines = child.output.split(separator: "\n").map(String.init)
            let base = try #require(lines.first { $0.hasPrefix("base URL: ") }?.dropFirst("base URL: ".count)).description
            #expect(base.hasPrefix("http://127.0.0.1:"))
            #expect(lines.contains { $0.hasPrefix("listening on all interfaces (0.0.0.0)") })
            #expect(!child.output.contains("0.0.0.0:"), "no unusable URL is printed")
            let errors = child.errors
            #expect(errors.contains("WARNING") && errors.contains("mailbox") && errors.contains("plain HTTP"))
            let tokenLine = try #require(errors.split(separator: "\n").first { $0.contains("hook token: ") })
            let token = try #require(tokenLine.components(separatedBy: "hook token: ").last?.split(separator: " ").first).description
            #expect(errors.components(separatedBy: token).count == 2, "the token is printed once")
            #expect(!child.output.contains(token), "and only to stderr")

            #expect(try await fetch(base, "/_emulator/mailbox?username=ada@example.com").status == 401)
            #expect(
                try await fetch(base, "/_emulator/mailbox?username=ada@example.com", headers: ["X-Emulator-Hook-Token": token]).status
                    == 200)
            #expect(try await fetch(base, "/emulator.onmicrosoft.com/v2.0/.well-known/openid-configuration").status == 200)
            child.signal(SIGTERM)
            #expect(await child.exitStatus(within: 60) == 0)
        }
    }

    @Test func theCommandsMailLineShowsChannelAndTarget() async throws {
        let child = try EmulatorCommandTests.start(["--port", "0"])
        #expect(await EmulatorCommandTests.waitForBanner(child), "no banner: \(child.errors)")
        #expect(!child.errors.contains("hook token"), "loopback: no token, no warning")
        let lines = child.output.split(separator: "\n").map(String.init)
        let base = try #require(lines.first { $0.hasPrefix("base URL: ") }?.dropFirst("base URL: ".count)).description
        let form = ["Content-Type": "application/x-www-form-urlencoded"]
        let codeApp = Seed.demo.apps[1].clientId
        let initiated = try await fetch(
            base, "/emulator.onmicrosoft.com/oauth2/v2.0/initiate", method: "POST", headers: form,
            body: Data("client_id=\(codeApp)&username=grace%40example.com&challenge_type=oob+redirect".utf8))
        let token = try #require(
            (try JSONSerialization.jsonObject(with: initiated.body) as? [String: Any])?["continuation_token"] as? String)
        let challenged = try await fetch(
            base, "/emulator.onmicrosoft.com/oauth2/v2.0/challenge", method: "POST", headers: form,
            body: Data("client_id=\(codeApp)&continuation_token=\(token)&challenge_type=oob+redirect".utf8))
        #expect(challenged.status == 200)
        #expect(child.errors.contains("mail to grace@example.com (sign_in, email grace@example.com): Account verification code: "))
        child.signal(SIGTERM)
        #expect(await child.exitStatus(within: 60) == 0)
    }

}
