import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// `freshCachedAccessToken`: the synchronous cache hit that `getAccessToken` and the C interface's
/// fast path share. It answers exactly when the async call would answer from the cache without
/// suspending, and otherwise leaves the decision to the full path.
struct CachedTokenTests {
    static let todo = "api://contoso/todolist/ToDoList.Read"

    private func signedIn(_ h: Harness) async throws -> MSALNativeAuthUserAccountResult {
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody(scope: Self.todo)))
        guard
            case .completed(let result) = try await h.app.signIn(
                parameters: h.signInParameters(password: Fixture.password, scopes: [Self.todo]))
        else { throw UnexpectedOutcome("sign-in did not complete") }
        return result
    }

    private func parameters(_ scopes: [String]?, configure: (MSALNativeAuthGetAccessTokenParameters) -> Void = { _ in })
        -> MSALNativeAuthGetAccessTokenParameters
    {
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = scopes
        configure(parameters)
        return parameters
    }

    @Test func servesOnlyScopesTheFullPathServedBefore() async throws {
        let h = try Harness()
        let account = try await signedIn(h)
        #expect(account.freshCachedAccessToken(parameters([Self.todo])) == nil)
        _ = try await account.getAccessToken(parameters: parameters([Self.todo]))
        let token = try #require(account.freshCachedAccessToken(parameters([Self.todo])))
        #expect(token.secret == "AT-secret-value" && token.scopes == [Self.todo])
        // The scopes exactly as the app passed them: another spelling is the full path's to match.
        #expect(account.freshCachedAccessToken(parameters([Self.todo.uppercased()])) == nil)
        #expect(h.stubProblems.isEmpty)
    }

    @Test func leavesForcedRefreshClaimsAndRefreshTokensToTheFullPath() async throws {
        let h = try Harness()
        let account = try await signedIn(h)
        _ = try await account.getAccessToken(parameters: parameters([Self.todo]))
        #expect(account.freshCachedAccessToken(parameters([Self.todo]) { $0.forceRefresh = true }) == nil)
        #expect(account.freshCachedAccessToken(parameters([Self.todo]) { $0.returnRefreshToken = true }) == nil)
        let claims = try MSALClaimsRequest(jsonString: #"{"access_token":{"acrs":{"essential":true,"value":"c1"}}}"#)
        #expect(account.freshCachedAccessToken(parameters([Self.todo]) { $0.claimsRequest = claims }) == nil)
        #expect(account.freshCachedAccessToken(parameters([Self.todo])) != nil)
    }

    @Test func stopsServingOnceTheTokenIsDueForRefresh() async throws {
        let h = try Harness()
        // Expires in 3599 s: due 600 s before (the 300 s expiry buffer and 300 s of margin), while
        // still valid for the full path, which serves it and refreshes in the background.
        let account = try await signedIn(h)
        _ = try await account.getAccessToken(parameters: parameters([Self.todo]))
        try await h.clock.sleep(seconds: 2_990)
        #expect(account.freshCachedAccessToken(parameters([Self.todo])) != nil)
        try await h.clock.sleep(seconds: 20)
        #expect(account.freshCachedAccessToken(parameters([Self.todo])) == nil)
    }

    @Test func servesNothingAfterSignOut() async throws {
        let h = try Harness()
        let account = try await signedIn(h)
        _ = try await account.getAccessToken(parameters: parameters([Self.todo]))
        account.signOut()
        #expect(account.freshCachedAccessToken(parameters([Self.todo])) == nil)
    }

    @Test func aResultWithoutAnApplicationServesNothing() {
        let tokens = TokenSet(accessToken: "AT", refreshToken: nil, scopes: [Self.todo], expiresOn: nil, correlationId: UUID())
        let detached = MSALNativeAuthUserAccountResult(
            account: MSALAccount(username: "a", identifier: "uid.utid", environment: "e", homeAccountId: nil, claims: nil), idToken: nil,
            tokens: tokens)
        #expect(detached.freshCachedAccessToken(parameters([Self.todo])) == nil)
    }
}
