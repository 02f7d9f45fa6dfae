import Foundation
import MSAL
import NativeAuthTesting
import Testing

/// `StubTransport` as an app's test relies on it: queued answers in order, every request kept,
/// both sides of the strictness (a request it did not expect, a stub never asked for).
@Suite struct StubTransportTests {
    static let authority = "https://contoso.ciamlogin.com/contoso.onmicrosoft.com"

    private func post(_ path: String, body: String = "") -> HTTPTransportRequest {
        HTTPTransportRequest(method: "POST", url: URL(string: Self.authority + path)!, body: Data(body.utf8))
    }

    @Test func answersTheQueuedRepliesInOrderAndKeepsEveryRequest() async throws {
        let stub = StubTransport()
        stub.expect(path: "/oauth2/v2.0/initiate", reply: .json(200, ["continuation_token": "T0"]))
        stub.expect(path: "/oauth2/v2.0/challenge", reply: .raw(200, Data("plain".utf8)))

        let first = try await stub.send(post("/oauth2/v2.0/initiate", body: "username=ada"))
        let second = try await stub.send(post("/oauth2/v2.0/challenge", body: "continuation_token=T0"))

        #expect(first.status == 200)
        #expect(try JSONSerialization.jsonObject(with: first.body) as? [String: String] == ["continuation_token": "T0"])
        #expect(String(decoding: second.body, as: UTF8.self) == "plain")
        #expect(
            stub.receivedRequests.map(\.url.path) == [
                "/contoso.onmicrosoft.com/oauth2/v2.0/initiate", "/contoso.onmicrosoft.com/oauth2/v2.0/challenge",
            ])
        #expect(stub.unusedStubs.isEmpty)
        #expect(stub.mismatches.isEmpty)
    }

    @Test func aJSONReplyIsSortedAndTypedUnlessTheTestSetsItsOwnContentType() async throws {
        let stub = StubTransport()
        stub.expect(path: "/token", reply: .json(400, ["b": 1, "a": 2], headers: ["X-Extra": "yes"]))
        stub.expect(path: "/token", reply: .json(200, [:], headers: ["Content-Type": "application/problem+json"]))

        let sorted = try await stub.send(post("/token"))
        #expect(sorted.status == 400)
        #expect(String(decoding: sorted.body, as: UTF8.self) == #"{"a":2,"b":1}"#)
        #expect(sorted.header("content-type") == "application/json")
        #expect(sorted.header("X-Extra") == "yes")

        let own = try await stub.send(post("/token"))
        #expect(own.header("Content-Type") == "application/problem+json")
    }

    @Test func aRequestWithNothingQueuedFailsTheSendAndIsKept() async throws {
        let stub = StubTransport()
        let error = try await #require(throws: HTTPTransportError.self) { try await stub.send(post("/oauth2/v2.0/initiate")) }
        #expect(error.underlyingError is StubTransport.Mismatch)
        #expect(error.message.contains("no stub queued"))
        #expect(stub.mismatches.count == 1)
        #expect(stub.receivedRequests.count == 1)
    }

    @Test func anotherPathOrMethodThanQueuedFailsAndUsesUpTheStub() async throws {
        let stub = StubTransport()
        stub.expect(path: "/oauth2/v2.0/initiate", reply: .json(200, [:]))
        stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, [:]))

        await #expect(throws: HTTPTransportError.self) { try await stub.send(post("/oauth2/v2.0/challenge")) }
        var get = post("/oauth2/v2.0/token")
        get.method = "GET"
        await #expect(throws: HTTPTransportError.self) { try await stub.send(get) }

        #expect(stub.mismatches.count == 2)
        #expect(stub.mismatches[0].contains("Expected POST …/oauth2/v2.0/initiate"))
        #expect(stub.mismatches[0].contains("got POST /contoso.onmicrosoft.com/oauth2/v2.0/challenge"))
        #expect(stub.mismatches[1].contains("got GET"))
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test func theCheckInspectsTheRequestAndItsComplaintFailsTheSend() async throws {
        let stub = StubTransport()
        let line = #line + 1
        stub.expect(path: "/token", reply: .json(200, [:])) { request in
            request.formFields["grant_type"] == "password" ? nil : "grant_type is \(request.formFields["grant_type"] ?? "missing")"
        }
        stub.expect(path: "/token", reply: .json(200, [:])) { request in
            request.formFields["grant_type"] == "password" ? nil : "not a password grant"
        }

        await #expect(throws: HTTPTransportError.self) { try await stub.send(post("/token", body: "grant_type=refresh_token")) }
        let answered = try await stub.send(post("/token", body: "grant_type=password"))

        #expect(answered.status == 200)
        #expect(
            stub.mismatches == [
                "Request to /token (queued at NativeAuthTestingTests/StubTransportTests.swift:\(line)): grant_type is refresh_token"
            ])
    }

    @Test func aQueuedFailureIsThrownAsItIs() async throws {
        let stub = StubTransport()
        stub.expect(path: "/token", reply: .failure(HTTPTransportError(kind: .timedOut, message: "slow")))
        let error = try await #require(throws: HTTPTransportError.self) { try await stub.send(post("/token")) }
        #expect(error.kind == .timedOut)
        #expect(error.message == "slow")
        #expect(stub.mismatches.isEmpty)
    }

    @Test func unusedStubsSayWhereTheyWereQueued() {
        let stub = StubTransport()
        stub.expect(path: "/oauth2/v2.0/challenge", reply: .json(200, [:]))
        let line = #line - 1
        #expect(stub.unusedStubs == ["/oauth2/v2.0/challenge (queued at NativeAuthTestingTests/StubTransportTests.swift:\(line))"])
    }

    @Test func formFieldsAreDecodedAndALaterDuplicateWins() {
        let request = post("/token", body: "username=ada%40contoso.com&scope=openid+profile&empty=&flag&scope=openid+offline_access")
        #expect(
            request.formFields == [
                "username": "ada@contoso.com", "scope": "openid offline_access", "empty": "", "flag": "",
            ])
    }
}
