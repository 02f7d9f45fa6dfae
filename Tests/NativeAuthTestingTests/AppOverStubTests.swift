import Foundation
import MSAL
import NativeAuthTesting
import Testing

/// What an app's own test does with the stub: the SDK configured with it, a sign-in answered
/// step by step, and the requests the SDK sent read back.
@Suite struct AppOverStubTests {
    @Test func aPasswordSignInCompletesOverTheStub() async throws {
        let stub = StubTransport()
        let app = try StubbedApp.make(stub)
        stub.expect(path: "/oauth2/v2.0/initiate", reply: .json(200, ["continuation_token": "T0"])) { request in
            request.formFields["username"] == StubbedApp.username ? nil : "username \(request.formFields["username"] ?? "missing")"
        }
        stub.expect(path: "/oauth2/v2.0/challenge", reply: .json(200, ["continuation_token": "T1", "challenge_type": "password"]))
        stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, StubbedApp.tokenBody)) { request in
            request.formFields["password"] == StubbedApp.password ? nil : "no password"
        }

        let parameters = MSALNativeAuthSignInParameters(username: StubbedApp.username)
        parameters.password = StubbedApp.password
        guard case .completed(let account) = try await app.signIn(parameters: parameters) else {
            Issue.record("the sign-in did not complete")
            return
        }

        #expect(account.account.username == StubbedApp.username)
        #expect(stub.receivedRequests.map { $0.formFields["client_id"] } == Array(repeating: StubbedApp.clientId, count: 3))
        #expect(stub.mismatches.isEmpty)
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test func aServerErrorFromTheStubReachesTheAppAsTheSDKsError() async throws {
        let stub = StubTransport()
        let app = try StubbedApp.make(stub)
        stub.expect(
            path: "/oauth2/v2.0/initiate",
            reply: .json(400, StubbedApp.userNotFound))

        let error = try await #require(throws: SignInStartError.self) {
            try await app.signIn(parameters: MSALNativeAuthSignInParameters(username: StubbedApp.username))
        }
        #expect(error.isUserNotFound)
        #expect(stub.unusedStubs.isEmpty)
    }

    @Test func anUnexpectedRequestFailsTheFlowAndIsListed() async throws {
        let stub = StubTransport()
        let app = try StubbedApp.make(stub)

        await #expect(throws: SignInStartError.self) {
            try await app.signIn(parameters: MSALNativeAuthSignInParameters(username: StubbedApp.username))
        }
        #expect(stub.mismatches.count == 1)
        #expect(stub.mismatches.first?.contains("/oauth2/v2.0/initiate") == true)
    }
}
