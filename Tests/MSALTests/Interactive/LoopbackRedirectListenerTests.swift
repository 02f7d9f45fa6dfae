import Foundation
import TestSupport
import Testing

@testable import MSAL

/// The loopback redirect listener over real sockets on 127.0.0.1 (and ::1 when present).
@Suite(.tags(.concurrency)) struct LoopbackRedirectListenerTests {
    private static let state = "expected-state_123"

    private func started(
        _ redirectURI: String? = nil, readTimeout: Double = 10
    ) throws -> (listener: LoopbackRedirectListener, url: URL, port: UInt16) {
        let listener = try LoopbackRedirectListener(
            redirectURI: redirectURI.map { URL(string: $0)! }, expectedState: Self.state, readTimeout: readTimeout)
        let url = try listener.start()
        return (listener, url, UInt16(try #require(url.port)))
    }

    /// The listener's listening sockets, read from the kernel right after `start()`: while it holds
    /// its port on the loopback addresses no other socket can listen there. Kept by inode, so that
    /// `OwnSockets.stillOpen` tells whether these very sockets are closed even if a test
    /// running meanwhile is given the port afterwards (which a refused connection could not tell).
    private func listeningSockets(_ port: UInt16) -> [OwnSockets.Socket] {
        OwnSockets.tcp(localPorts: [port]).filter(\.isListening)
    }

    private func status(_ answer: String) -> String {
        answer.components(separatedBy: "\r\n").first ?? ""
    }

    private func expectError(
        _ expected: InteractiveAuthorizationError, _ body: () async throws -> some Any, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do {
            _ = try await body()
            Issue.record("expected \(expected), got a result", sourceLocation: sourceLocation)
        } catch {
            #expect(error as? InteractiveAuthorizationError == expected, sourceLocation: sourceLocation)
        }
    }

    @Test func successAnswersThePageAndReturnsTheQuery() async throws {
        let (listener, url, port) = try started()
        #expect(url.absoluteString == "http://localhost:\(port)")
        #expect(port != 0)
        async let response = listener.waitForResponse(timeout: LoopbackTestClient.patience)
        let answer = try await LoopbackTestClient.get(
            "/?code=SECRET-CODE.x&state=\(Self.state)&client_info=eyJ1aWQiOiIxIn0&session_state=s", port: port)
        #expect(status(answer) == "HTTP/1.1 200 OK")
        #expect(answer.contains("Content-Type: text/html; charset=utf-8\r\n"))
        #expect(answer.contains("Cache-Control: no-store\r\n"))
        #expect(answer.contains("Referrer-Policy: no-referrer\r\n"))
        #expect(answer.contains("Connection: close\r\n"))
        #expect(answer.contains("Authentication completed. You can close this window now."))
        #expect(!answer.contains("SECRET-CODE"))
        let result = try await response
        #expect(result == AuthorizationResponse(code: "SECRET-CODE.x", state: Self.state, clientInfo: "eyJ1aWQiOiIxIn0"))
    }

    @Test func errorResponseIsEscapedOnThePageAndReturned() async throws {
        let (listener, _, port) = try started()
        async let response = listener.waitForResponse(timeout: LoopbackTestClient.patience)
        let answer = try await LoopbackTestClient.get(
            "/?error=access_denied&error_description=%3Cscript%3Ealert(1)%3C%2Fscript%3E+%26+more&error_subcode=cancel&state=\(Self.state)",
            port: port)
        #expect(status(answer) == "HTTP/1.1 200 OK")
        #expect(answer.contains("Authentication failed. access_denied: &lt;script&gt;alert(1)&lt;/script&gt; &amp; more."))
        #expect(!answer.contains("<script>"))
        let result = try await response
        #expect(result.error == "access_denied")
        #expect(result.errorDescription == "<script>alert(1)</script> & more")
        #expect(result.errorSubcode == "cancel")
        #expect(result.code == nil)
    }

    @Test func wrongOrMissingStateIsRefusedAndTheListenerKeepsWaiting() async throws {
        let (listener, _, port) = try started()
        async let response = listener.waitForResponse(timeout: LoopbackTestClient.patience)
        let forged = try await LoopbackTestClient.get("/?code=FORGED&state=attacker", port: port)
        #expect(status(forged) == "HTTP/1.1 400 Bad Request")
        #expect(forged.contains("State mismatch"))
        let missing = try await LoopbackTestClient.get("/?code=FORGED", port: port)
        #expect(missing.contains("State mismatch"))
        let real = try await LoopbackTestClient.get("/?code=REAL&state=\(Self.state)", port: port)
        #expect(status(real) == "HTTP/1.1 200 OK")
        #expect(try await response.code == "REAL")
    }

    /// Only the whole `state` sent ends the wait: a part of it (down to nothing) or more than it is
    /// refused like any other forged one.
    @Test func aPrefixOfTheStateOrMoreThanItIsRefused() async throws {
        let (listener, _, port) = try started()
        async let response = listener.waitForResponse(timeout: LoopbackTestClient.patience)
        for forged in [String(Self.state.dropLast()), String(Self.state.prefix(1)), "", Self.state + "4"] {
            let answer = try await LoopbackTestClient.get("/?code=FORGED&state=\(forged)", port: port)
            #expect(status(answer) == "HTTP/1.1 400 Bad Request", "state=\(forged)")
            #expect(answer.contains("State mismatch"), "state=\(forged)")
        }
        let real = try await LoopbackTestClient.get("/?code=REAL&state=\(Self.state)", port: port)
        #expect(status(real) == "HTTP/1.1 200 OK")
        #expect(try await response.code == "REAL")
    }

    @Test func otherPathsAreNotFoundAndTheListenerKeepsWaiting() async throws {
        let (listener, url, port) = try started("http://localhost/callback")
        #expect(url.absoluteString == "http://localhost:\(port)/callback")
        async let response = listener.waitForResponse(timeout: LoopbackTestClient.patience)
        for target in ["/favicon.ico", "/?code=C&state=\(Self.state)", "/callback/x?code=C&state=\(Self.state)", "/callback"] {
            let answer = try await LoopbackTestClient.get(target, port: port)
            #expect(status(answer) == "HTTP/1.1 404 Not Found", "\(target)")
        }
        let answer = try await LoopbackTestClient.get("/callback?code=C&state=\(Self.state)", port: port)
        #expect(status(answer) == "HTTP/1.1 200 OK")
        #expect(try await response.code == "C")
    }

    @Test func postIsRefused() async throws {
        let (listener, _, port) = try started()
        async let response = listener.waitForResponse(timeout: LoopbackTestClient.patience)
        let body = "code=C&state=\(Self.state)"
        let post = try await LoopbackTestClient.exchange(
            "POST /?code=C&state=\(Self.state) HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)", port: port)
        #expect(status(post) == "HTTP/1.1 404 Not Found")
        let answer = try await LoopbackTestClient.get("/?code=AFTER&state=\(Self.state)", port: port)
        #expect(status(answer) == "HTTP/1.1 200 OK")
        #expect(try await response.code == "AFTER")
    }

    @Test func oversizedHeadIsRefused() async throws {
        let (listener, _, port) = try started()
        async let response = listener.waitForResponse(timeout: LoopbackTestClient.patience)
        let big = "GET /?code=C&state=\(Self.state) HTTP/1.1\r\nHost: localhost\r\nX-Filler: \(String(repeating: "a", count: 9000))\r\n\r\n"
        let answer = try await LoopbackTestClient.exchange(big, port: port)
        #expect(status(answer) == "HTTP/1.1 431 Request Header Fields Too Large")
        let ok = try await LoopbackTestClient.get("/?code=SMALL&state=\(Self.state)", port: port)
        #expect(status(ok) == "HTTP/1.1 200 OK")
        #expect(try await response.code == "SMALL")
    }

    @Test func malformedRequestLineIsABadRequest() async throws {
        let (listener, _, port) = try started()
        defer { listener.cancel() }
        let answer = try await LoopbackTestClient.exchange("HELLO\r\n\r\n", port: port)
        #expect(status(answer) == "HTTP/1.1 400 Bad Request")
    }

    @Test func aSilentClientDoesNotHoldUpTheRealResponse() async throws {
        let (listener, _, port) = try started()
        let silent = try LoopbackTestClient.connect(port: port)
        defer { silent.close() }
        let partial = try LoopbackTestClient.connect(port: port)
        defer { partial.close() }
        partial.send("GET /?code=PARTIAL&state=\(Self.state) HTTP/1.1\r\nHost: loc")
        async let response = listener.waitForResponse(timeout: LoopbackTestClient.patience)
        let answer = try await LoopbackTestClient.get("/?code=REAL&state=\(Self.state)", port: port)
        #expect(status(answer) == "HTTP/1.1 200 OK")
        #expect(try await response.code == "REAL")
    }

    @Test func manyIdleConnectionsDoNotLockOutTheRedirect() async throws {
        let (listener, _, port) = try started()
        let idle = try (0..<40).map { _ in try LoopbackTestClient.connect(port: port) }
        defer { for connection in idle { connection.close() } }
        async let response = listener.waitForResponse(timeout: LoopbackTestClient.patience)
        let answer = try await LoopbackTestClient.get("/?code=REAL&state=\(Self.state)", port: port)
        #expect(status(answer) == "HTTP/1.1 200 OK")
        #expect(try await response.code == "REAL")
    }

    /// The listener closes the connection (the read ends) rather than the test's own time limit.
    @Test(.timeLimit(.minutes(1))) func aSilentClientIsDisconnectedAfterTheReadTimeout() async throws {
        let (listener, _, port) = try started(readTimeout: 0.2)
        defer { listener.cancel() }
        let silent = try LoopbackTestClient.connect(port: port)
        defer { silent.close() }
        let answer = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: silent.readToEnd()) }.start()
        }
        #expect(answer == "") // closed by the listener, without a byte
    }

    @Test func timesOutAsUserCancel() async throws {
        let (listener, _, _) = try started()
        await expectError(.cancelled(.timedOut(seconds: 0.2))) { try await listener.waitForResponse(timeout: 0.2) }
        #expect(InteractiveAuthorizationError.cancelled(.timedOut(seconds: 0.2)).isUserCanceled)
    }

    @Test func timeoutAfterAStateMismatchIsAStateMismatch() async throws {
        let (listener, _, port) = try started()
        let forged = try await LoopbackTestClient.get("/?code=FORGED&state=other", port: port)
        #expect(forged.contains("State mismatch"))
        await expectError(.stateMismatch) { try await listener.waitForResponse(timeout: 0.2) }
        #expect(InteractiveAuthorizationError.stateMismatch.internalErrorCode == -42_501)
    }

    @Test func cancelEndsTheWait() async throws {
        let (listener, _, port) = try started()
        let sockets = listeningSockets(port)
        Task {
            try await Task.sleep(nanoseconds: 50_000_000)
            listener.cancel()
        }
        // The cancel comes after 50 ms; the long timeout only has to outlast a loaded machine.
        await expectError(.cancelled(.cancelCalled)) { try await listener.waitForResponse(timeout: 300) }
        #expect(!sockets.isEmpty)
        #expect(OwnSockets.stillOpen(sockets) == [])
    }

    @Test func anInfiniteTimeoutWaitsAndANaNTimeoutDoesNot() async throws {
        let (forever, _, _) = try started()
        Task {
            try await Task.sleep(nanoseconds: 50_000_000)
            forever.cancel()
        }
        await expectError(.cancelled(.cancelCalled)) { try await forever.waitForResponse(timeout: .infinity) }
        let (nan, _, _) = try started()
        do {
            _ = try await nan.waitForResponse(timeout: .nan)
            Issue.record("expected a timeout")
        } catch {
            guard case .cancelled(.timedOut) = error else {
                Issue.record("expected a timeout, got \(error)")
                return
            }
        }
    }

    @Test func taskCancellationEndsTheWait() async throws {
        let (listener, _, port) = try started()
        let sockets = listeningSockets(port)
        let waiter = Task { try await listener.waitForResponse(timeout: 30) }
        try await Task.sleep(nanoseconds: 50_000_000)
        waiter.cancel()
        await expectError(.cancelled(.taskCancelled)) { try await waiter.value }
        #expect(!sockets.isEmpty)
        #expect(OwnSockets.stillOpen(sockets) == [])
    }

    @Test func cancelAndWaitReturnsWithThePortClosed() async throws {
        let (listener, _, port) = try started()
        let sockets = listeningSockets(port)
        #expect(sockets.count == listener.boundAddresses.count)
        await listener.cancelAndWait()
        #expect(!sockets.isEmpty)
        #expect(OwnSockets.stillOpen(sockets) == [])
        // The wait was spent by cancelAndWait.
        await #expect(throws: InteractiveAuthorizationError.self) { try await listener.waitForResponse(timeout: 1) }
    }

    @Test func aResponseBeforeTheWaitIsKept() async throws {
        let (listener, _, port) = try started()
        let answer = try await LoopbackTestClient.get("/?code=EARLY&state=\(Self.state)", port: port)
        #expect(status(answer) == "HTTP/1.1 200 OK")
        #expect(try await listener.waitForResponse(timeout: LoopbackTestClient.patience).code == "EARLY")
    }

    @Test func busyPortIsATypedErrorNamingThePort() throws {
        let squatter = try LoopbackTestClient.squat()
        defer { close(squatter.descriptor) }
        let listener = try LoopbackRedirectListener(redirectURI: URL(string: "http://localhost:\(squatter.port)")!, expectedState: "s")
        #expect(throws: InteractiveAuthorizationError.portUnavailable(port: squatter.port)) { try listener.start() }
        let error = InteractiveAuthorizationError.portUnavailable(port: squatter.port)
        #expect(error.description == "cannot listen on port \(squatter.port); use port 0")
        #expect(error.internalErrorCode == -42_000)
    }

    @Test func givenPortIsUsed() async throws {
        // A port that was free a moment ago, outside the range other tests' listeners are given.
        let port = try LoopbackTestClient.freePortBelowTheEphemeralRange()
        let (listener, url, bound) = try started("http://127.0.0.1:\(port)")
        #expect(bound == port)
        #expect(url.absoluteString == "http://127.0.0.1:\(port)")
        async let response = listener.waitForResponse(timeout: LoopbackTestClient.patience)
        _ = try await LoopbackTestClient.get("/?code=C&state=\(Self.state)", port: port)
        #expect(try await response.code == "C")
    }

    @Test(.enabled(if: LoopbackTestClient.ipv6LoopbackAvailable, "this machine has no ::1 (no IPv6 loopback)"))
    func ipv6LoopbackIsServedOnTheSamePort() async throws {
        let (listener, _, port) = try started()
        #expect(listener.boundAddresses == ["127.0.0.1", "::1"])
        async let response = listener.waitForResponse(timeout: LoopbackTestClient.patience)
        let forged = try await LoopbackTestClient.get("/?code=X&state=nope", port: port, family: .ipv6)
        #expect(forged.contains("State mismatch"))
        let answer = try await LoopbackTestClient.get("/?code=SIX&state=\(Self.state)", port: port, family: .ipv6)
        #expect(status(answer) == "HTTP/1.1 200 OK")
        #expect(try await response.code == "SIX")
    }

    /// Only this machine may reach the listener: each of its sockets is bound to a loopback
    /// address, as the listener reports it and as the kernel's socket table shows it.
    @Test func onlyLoopbackAddressesAreBound() throws {
        let (listener, _, port) = try started()
        defer { listener.cancel() }
        let loopback = LoopbackTestClient.ipv6LoopbackAvailable ? ["127.0.0.1", "::1"] : ["127.0.0.1"]
        #expect(listener.boundAddresses == loopback)
        let listening = listeningSockets(port)
        #expect(listening.map(\.address).sorted() == loopback.sorted(), "\(listening)")
    }

    /// A peer arriving at the machine's own network address (the way another host would) finds
    /// nothing listening on the port, while loopback is served. The connections go from this
    /// machine's addresses to themselves.
    @Test(
        .enabled(
            if: !LoopbackTestClient.nonLoopbackAddresses.isEmpty,
            "this machine has no network address besides loopback to try a connection from"))
    func aPeerOnTheMachinesNetworkAddressIsRefused() async throws {
        let (listener, _, port) = try started()
        async let response = listener.waitForResponse(timeout: LoopbackTestClient.patience)
        var tried: [String] = []
        for address in LoopbackTestClient.nonLoopbackAddresses {
            do {
                try LoopbackTestClient.connect(to: address, port: port).close()
                Issue.record("a connection to \(address) on port \(port) was accepted")
                tried.append(address.description)
            } catch let error as LoopbackTestClient.ConnectFailed where error.operation == "connect" {
                #expect(error.errno == ECONNREFUSED, "\(address): errno \(error.errno)")
                tried.append(address.description)
            } catch {
                // The address cannot be used as a source (an IPv6 address still being checked
                // for duplicates, say): nothing is learnt from it.
            }
        }
        #expect(!tried.isEmpty, "no network address of \(LoopbackTestClient.nonLoopbackAddresses) could be used")
        let answer = try await LoopbackTestClient.get("/?code=LOCAL&state=\(Self.state)", port: port)
        #expect(status(answer) == "HTTP/1.1 200 OK")
        #expect(try await response.code == "LOCAL")
    }

    @Test func waitingTwiceOrBeforeStartIsRefused() async throws {
        let unstarted = try LoopbackRedirectListener(redirectURI: nil, expectedState: "s")
        await #expect(throws: InteractiveAuthorizationError.self) { try await unstarted.waitForResponse(timeout: 1) }
        let (listener, _, _) = try started()
        #expect(throws: InteractiveAuthorizationError.self) { try listener.start() }
        await expectError(.cancelled(.timedOut(seconds: 0))) { try await listener.waitForResponse(timeout: 0) }
        await #expect(throws: InteractiveAuthorizationError.self) { try await listener.waitForResponse(timeout: 1) }
    }
}
