import Foundation
import MSAL
import NativeAuthTesting
import Testing

@testable import MSAL

/// Every request of every sign-in step, compared with its golden file.
@Suite struct GoldenRequestTests {
    @Test func passwordSignIn() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))
        _ = try await h.app.signIn(parameters: h.signInParameters(password: Fixture.password, scopes: ["api://todo/ToDoList.Read"]))
        let requests = h.stub.receivedRequests
        try #require(requests.count == 3)
        try Golden.check([requests[0]], named: "signin-initiate")
        try Golden.check([requests[1]], named: "signin-challenge")
        try Golden.check([requests[2]], named: "signin-token-password")
    }

    @Test func codeSignInWithResend() async throws {
        let h = try Harness(challengeTypes: [.OOB])
        h.expectStart(challenge: .json(200, Fixture.oobChallenge))
        guard case .codeRequired(let state, _, _, _) = try await h.app.signIn(parameters: h.signInParameters()) else {
            Issue.record("expected a code")
            return
        }
        var again = Fixture.oobChallenge
        again["continuation_token"] = "T2"
        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: .json(200, again))
        let next = try await state.resendCode().newState
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))
        _ = try await next.submitCode(code: Fixture.code)
        let requests = h.stub.receivedRequests
        try #require(requests.count == 4)
        try Golden.check([requests[0]], named: "signin-initiate-oob-only")
        try Golden.check([requests[2]], named: "signin-resend-code")
        try Golden.check([requests[3]], named: "signin-token-oob")
    }

    @Test func passwordRequiredState() async throws {
        let h = try Harness(challengeTypes: [.password])
        h.expectStart(challenge: .json(200, Fixture.passwordChallenge))
        guard case .passwordRequired(let state) = try await h.app.signIn(parameters: h.signInParameters()) else {
            Issue.record("expected a password state")
            return
        }
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))
        _ = try await state.submitPassword(password: Fixture.password)
        try Golden.check([h.stub.receivedRequests[2]], named: "signin-submit-password")
    }

    @Test func capabilitiesSliceAndInterceptorHeaders() async throws {
        let interceptor = HeaderInterceptor(headers: [
            "x-contoso-tenant": "blue", "x-ms-forbidden": "1", "x-client-SKU": "spoof", "x-app-name": "spoof",
            "x-broker-thing": "1", "Authorization": "Bearer nope", "x-bad name": "1",
        ])
        let h = try Harness {
            $0.capabilities = [.mfaRequired, .registrationRequired]
            $0.sliceConfig = MSALSliceConfig(slice: "testslice", dc: "ESTS-PUB-WUS2-AZ1-FD000-TEST1")
            $0.requestInterceptor = interceptor
        }
        h.stub.expect(path: "/oauth2/v2.0/initiate", reply: .json(400, Fixture.apiError("user_not_found")))
        _ = try? await h.app.signIn(parameters: h.signInParameters())
        try Golden.check(h.stub.receivedRequests, named: "signin-initiate-capabilities-dc-interceptor")
        #expect(h.log.text.contains("Dropped interceptor header 'x-ms-forbidden'"))
    }

    @Test func mfaRequests() async throws {
        let h = try Harness { $0.capabilities = [.mfaRequired] }
        let (methods, awaiting) = try await h.awaitingMFA()
        h.stub.expect(path: "/oauth2/v2.0/challenge", reply: StrongAuthFixture.mfaChallenge())
        let state = try await awaiting.requestChallenge(authMethod: methods[1]).newState
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))
        _ = try await state.submitChallenge(challenge: Fixture.code)
        let requests = h.stub.receivedRequests
        try #require(requests.count == 6)
        try Golden.check([requests[3]], named: "mfa-introspect")
        try Golden.check([requests[4]], named: "mfa-challenge-with-id")
        try Golden.check([requests[5]], named: "mfa-token-mfa-oob")
    }

    @Test func registrationRequests() async throws {
        let h = try Harness { $0.capabilities = [.registrationRequired] }
        let (methods, state) = try await h.registration()
        h.stub.expect(path: "/register/v1.0/challenge", reply: StrongAuthFixture.registerChallenge())
        let parameters = MSALNativeAuthChallengeAuthMethodParameters(authMethod: methods[1], verificationContact: StrongAuthFixture.phone)
        guard case .verificationRequired(let sent) = try await state.challengeAuthMethod(parameters: parameters) else { return }
        h.stub.expect(path: "/register/v1.0/continue", reply: .json(200, ["continuation_token": "Tz"]))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))
        _ = try await sent.newState.submitChallenge(challenge: Fixture.code)
        let requests = h.stub.receivedRequests
        try #require(requests.count == 7)
        try Golden.check([requests[3]], named: "register-introspect")
        try Golden.check([requests[4]], named: "register-challenge")
        try Golden.check([requests[5]], named: "register-continue-oob")
        try Golden.check([requests[6]], named: "register-token-continuation")
    }
}
