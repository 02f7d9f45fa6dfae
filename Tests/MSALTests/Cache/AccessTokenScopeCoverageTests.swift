import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// The cache serves a token only when its scopes cover every requested scope.
@Suite struct AccessTokenScopeCoverageTests {
    static let read = "api://contoso/todolist/ToDoList.Read"
    static let readWrite = "api://contoso/todolist/ToDoList.ReadWrite"

    @Test func aTokenForSomeOfTheScopesIsNotServedAndTheRequestGoesToTheNetwork() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody(scope: Self.read)))
        guard
            case .completed(let account) = try await h.app.signIn(
                parameters: h.signInParameters(password: Fixture.password, scopes: [Self.read]))
        else {
            throw UnexpectedOutcome("sign-in did not complete")
        }
        let cached = h.app.environment.cache.accessToken(
            homeAccountId: try #require(account.account.identifier), scopes: ScopeSet([Self.read]), validAt: h.clock.now())
        #expect(cached?.scopes == [Self.read], "the cache holds a token for ToDoList.Read only")

        h.stub.expect(
            path: "/oauth2/v2.0/token",
            reply: .json(
                200,
                Fixture.tokenBody(scope: "\(Self.read) \(Self.readWrite)").merging(["access_token": "AT-both", "refresh_token": "RT-2"]) {
                    _, new in new
                }),
            check: { request in
                let f = request.formFields
                return f["grant_type"] == "refresh_token" && f["scope"]?.contains(Self.readWrite) == true ? nil : "fields \(f)"
            })
        let before = h.stub.receivedRequests.count
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = [Self.read, Self.readWrite]
        let token = try await account.getAccessToken(parameters: parameters)
        #expect(token.accessToken == "AT-both", "a token for Read alone must not answer Read + ReadWrite")
        #expect(h.stub.receivedRequests.count == before + 1, "exactly one refresh request")
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }
}
