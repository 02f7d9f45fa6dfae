import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// Status handling, retries, malformed and hostile responses (docs/protocol.md#response-handling-by-status, #response-bodies), seen
/// through sign-in.
@Suite(.tags(.concurrency)) struct NetworkBehaviourTests {
    private func startError(_ h: Harness) async throws -> SignInStartError {
        try await #require(throws: SignInStartError.self) { try await h.app.signIn(parameters: h.signInParameters()) }
    }

    private func failure(_ error: MSALNativeAuthError) throws -> MSALNativeAuthNetworkFailure {
        try #require(error.underlyingError as? MSALNativeAuthNetworkFailure)
    }

    @Test(arguments: [500, 502, 503, 504])
    func serverErrorIsRetriedOnceAfterHalfASecond(status: Int) async throws {
        let h = try Harness()
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .json(status, ["error": "server_error"]))
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        _ = try await h.app.signIn(parameters: h.signInParameters())
        #expect(h.clock.sleeps == [0.5])
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func serverErrorTwiceIsAGeneralErrorNamingTheStatus() async throws {
        let h = try Harness()
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .json(503, [:]))
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .json(503, [:]))
        let error = try await startError(h)
        #expect(!error.isBrowserRequired && !error.isUserNotFound)
        #expect(try failure(error).kind == .unexpectedStatus(503))
        #expect(h.clock.sleeps == [0.5])
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test(arguments: [403, 404, 405, 409])
    func otherStatusesAreGeneralWithoutRetryAndBodyIgnored(status: Int) async throws {
        let h = try Harness()
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .json(status, Fixture.apiError("user_not_found")))
        let error = try await startError(h)
        #expect(!error.isUserNotFound, "a non-400 body must be ignored")
        #expect(try failure(error).kind == .unexpectedStatus(status))
        #expect(h.clock.sleeps.isEmpty)
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func aRedirectIsATypedFailureNamingTheStatusAndHostWithoutRetry(status: Int) async throws {
        let h = try Harness()
        h.stub.expect(
            path: "/oauth2/v2.0/initiate",
            reply: .raw(status, Data(), headers: ["Location": "https://login.attacker.example:8443/steal?continuation_token=abc"]))
        let error = try await startError(h)
        #expect(try failure(error).kind == .redirected(status: status, host: "login.attacker.example:8443"))
        let text = error.errorDescription ?? ""
        #expect(text.contains("HTTP \(status)") && text.contains("login.attacker.example:8443"), "\(text)")
        #expect(!text.contains("steal") && !text.contains("continuation_token"), "only the host: \(text)")
        #expect(h.clock.sleeps.isEmpty)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func aRedirectWithARelativeOrNoLocationNamesTheAuthorityOrNothing() async throws {
        let h = try Harness()
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .raw(307, Data(), headers: ["Location": "/elsewhere"]))
        #expect(try failure(try await startError(h)).kind == .redirected(status: 307, host: "contoso.ciamlogin.com"))
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .raw(302, Data()))
        #expect(try failure(try await startError(h)).kind == .redirected(status: 302, host: nil))
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func tooManyRequestsHonoursRetryAfterSeconds() async throws {
        let h = try Harness()
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .raw(429, Data(), headers: ["Retry-After": "7"]))
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        _ = try await h.app.signIn(parameters: h.signInParameters())
        #expect(h.clock.sleeps == [7])
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func tooManyRequestsHonoursRetryAfterDate() async throws {
        let h = try Harness()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = formatter.string(from: h.clock.now().addingTimeInterval(12))
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .raw(429, Data(), headers: ["retry-after": date]))
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        _ = try await h.app.signIn(parameters: h.signInParameters())
        #expect(h.clock.sleeps == [12])
    }

    @Test func tooManyRequestsBeyondTheCeilingFailsAtOnceWithTheServersWait() async throws {
        let h = try Harness { $0.retryPolicy.maxRetryAfter = 60 }
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .raw(429, Data(), headers: ["Retry-After": "120"]))
        let error = try await startError(h)
        let cause = try failure(error)
        #expect(cause.kind == .unexpectedStatus(429))
        #expect(cause.retryAfter == 120)
        #expect(error.errorDescription?.contains("120") == true)
        #expect(h.clock.sleeps.isEmpty)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func tooManyRequestsTwiceFails() async throws {
        let h = try Harness()
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .raw(429, Data(), headers: ["Retry-After": "1"]))
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .raw(429, Data(), headers: ["Retry-After": "1"]))
        let error = try await startError(h)
        #expect(try failure(error).kind == .unexpectedStatus(429))
        #expect(h.clock.sleeps == [1])
    }

    @Test(arguments: [HTTPTransportError.Kind.timedOut, .cannotConnect, .connectionLost, .badServerResponse])
    func transientTransportFailureIsRetriedOnce(kind: HTTPTransportError.Kind) async throws {
        let h = try Harness()
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .failure(HTTPTransportError(kind: kind, message: "x")))
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        _ = try await h.app.signIn(parameters: h.signInParameters())
        #expect(h.clock.sleeps == [0.5])
    }

    @Test func offlineWaitsTwoSeconds() async throws {
        let h = try Harness()
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .failure(HTTPTransportError(kind: .notConnectedToInternet, message: "offline")))
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        _ = try await h.app.signIn(parameters: h.signInParameters())
        #expect(h.clock.sleeps == [2])
    }

    @Test func transportFailureKeepsTheURLErrorReachable() async throws {
        let h = try Harness()
        let urlError = NSError(domain: NSURLErrorDomain, code: NSURLErrorCannotConnectToHost, userInfo: nil)
        let mapped = HTTPTransportError.fromURLSession(urlError)
        #expect(mapped.kind == .cannotConnect)
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .failure(mapped))
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .failure(mapped))
        let error = try await startError(h)
        let cause = try failure(error)
        #expect(cause.kind == .transport)
        let underlying = try #require(cause.transportError?.underlyingError as? NSError)
        #expect(underlying.domain == NSURLErrorDomain && underlying.code == NSURLErrorCannotConnectToHost)
    }

    @Test func cutBodyFromTheTransportIsRetriedThenReported() async throws {
        let h = try Harness()
        let cut = HTTPTransportError.fromURLSession(NSError(domain: NSURLErrorDomain, code: NSURLErrorUnknown, userInfo: nil))
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .failure(cut))
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .failure(cut))
        let error = try await startError(h)
        #expect(try failure(error).transportError?.kind == .connectionLost)
    }

    @Test func nonTransientTransportFailureIsNotRetried() async throws {
        let h = try Harness()
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .failure(HTTPTransportError(kind: .other, message: "TLS failure")))
        let error = try await startError(h)
        #expect(try failure(error).kind == .transport)
        #expect(h.clock.sleeps.isEmpty)
    }

    @Test func oversizeBodyIsAClearError() async throws {
        let h = try Harness { $0.maxResponseBodyBytes = 1024 }
        let huge = Data(#"{"continuation_token":""#.utf8) + Data(repeating: UInt8(ascii: "a"), count: 4096) + Data(#""}"#.utf8)
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .raw(200, huge))
        let error = try await startError(h)
        #expect(try failure(error).kind == .responseTooLarge)
        #expect(error.errorDescription?.contains("larger than 1024 bytes") == true)
    }

    @Test func oversizeBodyReportedByTheTransportIsNotRetried() async throws {
        let h = try Harness()
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .failure(HTTPTransportError(kind: .responseTooLarge, message: "too big")))
        let error = try await startError(h)
        #expect(try failure(error).kind == .responseTooLarge)
        #expect(h.clock.sleeps.isEmpty)
    }

    @Test(arguments: [
        ("not json", "not valid JSON"),
        ("", "empty"),
        ("<html><body>Bad gateway</body></html>", "not valid JSON"),
        (#"{"continuation_token": 12}"#, "wrong type"),
        (#"{"continuation_tok"#, "not valid JSON"),
        (#"{}"#, "continuation_token"),
        (#"{"continuation_token": ""}"#, "empty"),
        (#"[1,2]"#, "wrong type"),
    ])
    func malformedInitiateBodyIsAGeneralErrorSayingWhy(body: String, says: String) async throws {
        let h = try Harness()
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .raw(200, Data(body.utf8)))
        let error = try await startError(h)
        let cause = try failure(error)
        #expect(cause.kind == .invalidResponse)
        #expect(error.errorDescription?.contains(says) == true, "\(error.errorDescription ?? "")")
    }

    @Test(arguments: [
        #"{"continuation_token":"T1","challenge_type":"sms"}"#,
        #"{"continuation_token":"T1"}"#,
        #"{"continuation_token":"T1","challenge_type":"oob","challenge_channel":"email","code_length":8}"#,
        #"{"continuation_token":"T1","challenge_type":"oob","challenge_target_label":"x","code_length":8}"#,
        #"{"continuation_token":"T1","challenge_type":"oob","challenge_target_label":"x","challenge_channel":"email"}"#,
        #"{"continuation_token":"T1","challenge_type":"oob","challenge_target_label":"x","challenge_channel":"email","code_length":"8"}"#,
        #"{"continuation_token":"T1","challenge_type":"oob","challenge_target_label":"x","challenge_channel":"email","code_length":-1}"#,
        #"{"challenge_type":"password"}"#,
    ])
    func strictChallengeDecoding(body: String) async throws {
        let h = try Harness()
        h.expectStart(challenge: .raw(200, Data(body.utf8)))
        let error = try await startError(h)
        #expect(try failure(error).kind == .invalidResponse)
    }

    @Test(arguments: [
        #"{"error_description":"no error field"}"#, "garbage", "", #"{"error":""}"#, #"{"error":"invalid_grant","error_codes":"50126"}"#,
    ])
    func undecodableErrorEnvelopeIsGeneral(body: String) async throws {
        let h = try Harness()
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .raw(400, Data(body.utf8)))
        let error = try await startError(h)
        #expect(try failure(error).kind == .invalidResponse)
    }

    @Test(
        arguments: [
            ["token_type": "MAC"],
            ["access_token": "", "id_token": ""],
            ["client_info": "!!!not-base64!!!"],
            ["client_info": Base64URL.encode(Data(#"{"uid":"only-uid"}"#.utf8))],
            ["id_token": "not-a-jwt"],
            ["id_token": "e30.bm90IGpzb24.sig"],
        ] as [[String: String]])
    func unusableTokenResponsesAreGeneral(overrides: [String: String]) async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody().merging(overrides) { _, new in new }))
        let error = try await #require(throws: SignInStartError.self) {
            try await h.app.signIn(parameters: h.signInParameters(password: Fixture.password))
        }
        #expect(try failure(error).kind == .invalidResponse)
    }

    @Test func tokenLifetimesMayBeStrings() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody().merging(["expires_in": "600"]) { _, new in new }))
        guard case .completed(let result) = try await h.app.signIn(parameters: h.signInParameters(password: Fixture.password)) else {
            Issue.record("expected completion")
            return
        }
        #expect(result.tokens.expiresOn == h.clock.now().addingTimeInterval(600))
    }

    @Test func unknownFieldsAreIgnored() async throws {
        let h = try Harness()
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .json(200, ["continuation_token": "T0", "new_field": ["x": 1]]))
        h.stub.expect(
            path: "/oauth2/v2.0/challenge", reply: .json(200, Fixture.passwordChallenge.merging(["later": true]) { _, new in new }))
        guard case .passwordRequired = try await h.app.signIn(parameters: h.signInParameters()) else {
            Issue.record("expected password")
            return
        }
    }

    @Test func theServersCorrelationIdIsAdoptedForTheRestOfTheFlow() async throws {
        let h = try Harness()
        let echoed = Fixture.echoedCorrelation.uuidString
        h.stub.expect(
            path: "/oauth2/v2.0/initiate", reply: .json(200, ["continuation_token": "T0"], headers: ["client-request-id": echoed]))
        h.stub.expect(
            path: "/oauth2/v2.0/challenge", reply: .json(200, Fixture.passwordChallenge),
            check: { request in
                request.headers["client-request-id"] == echoed ? nil : "the challenge must carry the echoed id"
            })
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(400, Fixture.apiError("invalid_grant", codes: [50126])))
        let error = try await #require(throws: SignInStartError.self) {
            try await h.app.signIn(parameters: h.signInParameters(password: "x"))
        }
        #expect(error.correlationId == Fixture.echoedCorrelation)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func anEchoThatIsNotAUUIDIsIgnored() async throws {
        let h = try Harness()
        h.stub.expect(
            path: "/oauth2/v2.0/initiate", reply: .json(400, Fixture.apiError("user_not_found"), headers: ["client-request-id": "nope"]))
        let error = try await startError(h)
        #expect(error.correlationId == Fixture.correlation)
    }

    @Test func callerCorrelationIdIsSent() async throws {
        let h = try Harness()
        let mine = UUID()
        h.stub.expect(
            path: "/oauth2/v2.0/initiate", reply: .json(400, Fixture.apiError("user_not_found")),
            check: { request in
                request.headers["client-request-id"] == mine.uuidString ? nil : "wrong id"
            })
        let parameters = h.signInParameters()
        parameters.correlationId = mine
        _ = try? await h.app.signIn(parameters: parameters)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func cancellationDuringARetryWaitEndsTheFlow() async throws {
        let h = try Harness()
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .json(503, [:]))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await h.app.signIn(parameters: h.signInParameters())
        }
        let result = await task.result
        guard case .failure(let error as SignInStartError) = result else {
            Issue.record("expected an error, got \(result)")
            return
        }
        #expect(try failure(error).kind == .cancelled)
    }
}
