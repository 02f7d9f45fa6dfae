import Foundation
import MSAL
import TestSupport
import Testing

@testable import MSAL

/// The real URLSession transport against a loopback socket: what arrives on the wire, and how
/// failures surface (codes as measured on Linux FoundationNetworking).
@Suite struct URLSessionTransportTests {
    private func request(_ url: URL, limit: Int = 1 << 20) -> HTTPTransportRequest {
        HTTPTransportRequest(
            method: "POST", url: url, headers: ["Content-Type": "application/x-www-form-urlencoded", "client-request-id": "abc"],
            body: Data("a=b+c".utf8), timeout: 10, maxResponseBytes: limit)
    }

    @Test func sendsTheRequestAndReadsTheResponse() async throws {
        let server = try LoopbackServer(answers: [
            LoopbackServer.response(
                status: 200, headers: ["client-request-id": "xyz", "Content-Type": "application/json"], body: #"{"ok":1}"#)
        ])
        defer { server.stop() }
        let response = try await URLSessionTransport().send(request(server.url))
        #expect(response.status == 200)
        #expect(response.header("Client-Request-Id") == "xyz")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":1}"#)
        let wire = String(decoding: try #require(server.receivedRequests.first), as: UTF8.self)
        #expect(wire.hasPrefix("POST /t/oauth2/v2.0/initiate HTTP/1.1\r\n"))
        #expect(wire.lowercased().contains("content-type: application/x-www-form-urlencoded"))
        #expect(wire.hasSuffix("\r\n\r\na=b+c"))
    }

    /// The recorder the redirect tests use sees a connection that does reach it, so "nothing reached
    /// it" is a finding and not a deaf listener.
    @Test func theRecorderKeepsWhatReachesIt() async throws {
        let recorder = try ConnectionRecorder()
        defer { recorder.stop() }
        let response = try await URLSessionTransport().send(request(try #require(URL(string: recorder.url("/t/x")))))
        #expect(response.status == 200 && String(decoding: response.body, as: UTF8.self).contains("from-the-other-host"))
        #expect(recorder.connections.count == 1)
        #expect(String(decoding: try #require(recorder.connections.first), as: UTF8.self).hasPrefix("POST /t/x HTTP/1.1\r\n"))
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func aRedirectIsTheResponseAndNothingReachesTheHostItNames(status: Int) async throws {
        let recorder = try ConnectionRecorder()
        defer { recorder.stop() }
        for method in ["POST", "GET"] {
            let server = try LoopbackServer(answers: [
                LoopbackServer.response(status: status, headers: ["Location": recorder.url("/t/oauth2/v2.0/initiate")], body: "")
            ])
            defer { server.stop() }
            var sent = request(server.url)
            sent.method = method
            if method == "GET" { sent.body = Data() }
            let response = try await URLSessionTransport().send(sent)
            #expect(response.status == status, "\(method)")
            #expect(response.header("Location") == recorder.url("/t/oauth2/v2.0/initiate"), "\(method)")
            #expect(server.receivedRequests.count == 1, "\(method)")
        }
        #expect(recorder.connections.isEmpty, "reached the other host: \(recorder.report)")
    }

    @Test func errorStatusesAreResponsesNotErrors() async throws {
        let server = try LoopbackServer(answers: [LoopbackServer.response(status: 503, body: "busy")])
        defer { server.stop() }
        let response = try await URLSessionTransport().send(request(server.url))
        #expect(response.status == 503)
    }

    @Test func refusedConnectionIsCannotConnectWithTheURLError() async throws {
        let (port, release) = try LoopbackServer.refusingPort()
        defer { release() }
        let url = URL(string: "http://127.0.0.1:\(port)/t")!
        let error = try await #require(throws: HTTPTransportError.self) { try await URLSessionTransport().send(request(url)) }
        #expect(error.kind == .cannotConnect)
        // FoundationNetworking reports a `URLError`; `as NSError` gives its domain and code.
        let underlying = try #require(error.underlyingError) as NSError
        #expect(underlying.domain == NSURLErrorDomain)
        #expect(underlying.code == NSURLErrorCannotConnectToHost)
    }

    @Test func declaredOversizeBodyIsRefused() async throws {
        let server = try LoopbackServer(answers: [LoopbackServer.response(status: 200, body: String(repeating: "x", count: 5000))])
        defer { server.stop() }
        let error = try await #require(throws: HTTPTransportError.self) {
            try await URLSessionTransport().send(request(server.url, limit: 1000))
        }
        #expect(error.kind == .responseTooLarge)
    }

    @Test func streamedOversizeBodyIsRefused() async throws {
        // No Content-Length: the cap is enforced while reading.
        let body = String(repeating: "y", count: 300_000)
        let server = try LoopbackServer(answers: [.raw(Data("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n\(body)".utf8))])
        defer { server.stop() }
        let error = try await #require(throws: HTTPTransportError.self) {
            try await URLSessionTransport().send(request(server.url, limit: 64_000))
        }
        #expect(error.kind == .responseTooLarge)
    }

    @Test func cutBodyIsAConnectionFailure() async throws {
        let server = try LoopbackServer(answers: [.cutBody(status: 200, declared: 1000, sent: 10)])
        defer { server.stop() }
        let error = try await #require(throws: HTTPTransportError.self) { try await URLSessionTransport().send(request(server.url)) }
        #expect(error.isTransient)
        #expect(error.underlyingError != nil)
    }

    @Test func emptyReplyIsATransientFailure() async throws {
        let server = try LoopbackServer(answers: [.close])
        defer { server.stop() }
        let error = try await #require(throws: HTTPTransportError.self) { try await URLSessionTransport().send(request(server.url)) }
        #expect(error.isTransient)
    }

    @Test func signInOverTheRealTransportRetriesACutAnswerAndSucceeds() async throws {
        let server = try LoopbackServer(answers: [
            .close,
            LoopbackServer.response(
                status: 400, headers: ["Content-Type": "application/json"], body: #"{"error":"user_not_found","error_codes":[50034]}"#),
        ])
        defer { server.stop() }
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: "id", authority: try MSALCIAMAuthority(url: URL(string: "http://127.0.0.1:\(server.port)/t")!), challengeTypes: [.OOB]
        )
        config.tokenCacheLocation = .inMemory
        let clock = TestClock()
        let app = try MSALNativeAuthPublicClientApplication(configuration: config, clock: clock, uuid: { UUID() })
        let error = try await #require(throws: SignInStartError.self) {
            try await app.signIn(parameters: MSALNativeAuthSignInParameters(username: "a@b.c"))
        }
        #expect(error.isUserNotFound)
        #expect(clock.sleeps == [0.5])
        #expect(server.receivedRequests.count == 2)
    }

    /// An owner whose last reference a completion handler of its own session holds goes away on
    /// that session's work queue; invalidating the session there synchronously traps and ends the
    /// whole test process. Which queue lets go last is a race, so a round is repeated: with the
    /// synchronous invalidation, about half the rounds trap.
    @Test func aSessionReleasedOnItsOwnQueueIsStillInvalidated() async throws {
        let rounds = 20
        let server = try LoopbackServer(answers: Array(repeating: LoopbackServer.response(status: 200, body: "ok"), count: rounds))
        defer { server.stop() }
        let invalidations = InvalidationCounter()
        let answered = Locked(0)
        for _ in 0..<rounds {
            var owner: OwnedURLSession? = OwnedURLSession(configuration: .ephemeral, delegate: invalidations)
            owner?.session.dataTask(with: server.url) { [owner] _, _, _ in
                withExtendedLifetime(owner) { answered.withLock { $0 += 1 } }
            }.resume()
            owner = nil
        }
        let allInvalidated = await waitUntil(seconds: 60) { invalidations.count.withLock { $0 } == rounds }
        #expect(allInvalidated, "\(invalidations.count.withLock { $0 }) of \(rounds) sessions invalidated")
        #expect(answered.withLock { $0 } == rounds)
    }
}

/// Counts the sessions that told their delegate they became invalid.
private final class InvalidationCounter: NSObject, URLSessionDelegate, Sendable {
    let count = Locked(0)

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        count.withLock { $0 += 1 }
    }
}
