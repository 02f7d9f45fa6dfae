import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// The resume goes to the server's `continue` link as given, its own path and query included, and
/// never gets the configured `dc` (docs/decisions.md#v2-links): in a live sign-in, in a live sign-up
/// and from a restored sign-in-after state.
@Suite struct V2ContinueLinkTests {
    static let continuePath = "/tenant-guid/oauth2/v2.0/authorize-challenge"
    static let continueURL = "https://contoso.ciamlogin.com\(continuePath)?session=s%2F1&flow=v2"

    static func continued(token: String) -> [String: Any] {
        ["state": "continue", "continuationToken": token, "_links": ["continue": ["href": "\(continuePath)?session=s%2F1&flow=v2"]]]
    }

    static func slicedHarness() throws -> Harness {
        try Harness { $0.sliceConfig = MSALSliceConfig(slice: "testslice", dc: "ESTS-PUB-TEST") }
    }

    @Test func aSignInResumesAtTheContinueLinkAsGiven() async throws {
        let h = try Self.slicedHarness()
        h.v2Start(V2Fixture.challenge("singleFactor", V2Fixture.emailMethods, token: "c1"))
        h.v2(V2Fixture.path("auth/methods/email/m-e1/challenge"), 200, V2Fixture.verify("m-e1", "email", codeLength: 8, token: "c2"))
        let code = try expectState(try await h.app.signInV2(parameters: h.v2Parameters), MSALNativeAuthCodeRequiredState.self)
        h.v2(V2Fixture.path("auth/methods/email/m-e1/verify"), 200, Self.continued(token: "c3"))
        h.v2(Self.continuePath, 200, ["code": V2Fixture.code])
        h.v2("/oauth2/v2.0/token", 200, Fixture.tokenBody())
        guard case .completed = try await code.submitCode(Fixture.code) else { throw UnexpectedOutcome("expected completion") }
        let requests = h.stub.receivedRequests
        try #require(requests.count == 6)
        #expect(requests[4].url.absoluteString == Self.continueURL)
        #expect(requests[4].formFields == ["continuation_token": "c3"])
        // The URLs the SDK builds keep the slice; the server's links get none.
        #expect(requests[0].url.query == "dc=ESTS-PUB-TEST" && requests[5].url.query == "dc=ESTS-PUB-TEST")
        #expect(requests[1...4].allSatisfy { $0.url.query?.contains("dc=") != true })
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func aSignUpResumesAtTheContinueLinkLiveAndRestored() async throws {
        let h = try Self.slicedHarness()
        h.v2SignUpStart(V2Fixture.collectAttributes([V2Fixture.attribute("email")], token: "s1"))
        h.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.verify("m-new", "email", codeLength: 8, token: "s2"))
        let code = try expectState(
            try await h.app.signUpV2(parameters: MSALNativeAuthSignUpParametersV2(username: Fixture.username)),
            MSALNativeAuthCodeRequiredState.self)
        h.v2(V2Fixture.path("auth/methods/email/m-new/verify"), 200, Self.continued(token: "s3"))
        let after = try expectState(try await code.submitCode(Fixture.code), MSALNativeAuthSignInAfterSignUpState.self)
        let saved = after.serialized()

        h.v2(Self.continuePath, 200, ["code": V2Fixture.code])
        h.v2("/oauth2/v2.0/token", 200, Fixture.tokenBody())
        guard case .completed = try await after.signIn(parameters: MSALNativeAuthSignInAfterSignUpParameters()) else {
            throw UnexpectedOutcome("expected completion")
        }
        #expect(h.stub.receivedRequests.dropLast().last?.url.absoluteString == Self.continueURL)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")

        let other = try Self.slicedHarness()
        let restored = try expectState(try other.app.restoreStateV2(serialized: saved), MSALNativeAuthSignInAfterSignUpState.self)
        other.v2(Self.continuePath, 200, ["code": V2Fixture.code])
        other.v2("/oauth2/v2.0/token", 200, Fixture.tokenBody())
        guard case .completed = try await restored.signIn(parameters: MSALNativeAuthSignInAfterSignUpParameters()) else {
            throw UnexpectedOutcome("expected completion after the restore")
        }
        #expect(other.stub.receivedRequests.first?.url.absoluteString == Self.continueURL)
        #expect(other.stub.receivedRequests.first?.formFields == ["continuation_token": "s3"])
        #expect(other.stubProblems.isEmpty, "\(other.stubProblems)")
    }
}
