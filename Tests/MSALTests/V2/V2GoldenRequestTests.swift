import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// One golden file per native auth V2 request kind of the sign-in (docs/protocol.md#routes).
@Suite struct V2GoldenRequestTests {
    @Test func emailOTPJourney() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.challenge("singleFactor", V2Fixture.emailMethods, token: "c1"))
        h.v2(V2Fixture.path("auth/methods/email/m-e1/challenge"), 200, V2Fixture.verify("m-e1", "email", codeLength: 8, token: "c2"))
        let parameters = h.v2Parameters
        parameters.scopes = ["api://todo/ToDoList.Read"]
        let state = try expectState(try await h.app.signInV2(parameters: parameters), MSALNativeAuthCodeRequiredState.self)
        h.v2Finish(after: V2Fixture.path("auth/methods/email/m-e1/verify"))
        _ = try await state.submitCode(Fixture.code)
        let requests = h.stub.receivedRequests
        try #require(requests.count == 6)
        try Golden.check([requests[0]], named: "v2-entry")
        try Golden.check([requests[1]], named: "v2-signin-start")
        try Golden.check([requests[2]], named: "v2-challenge")
        try Golden.check([requests[3]], named: "v2-verify-otp")
        try Golden.check([requests[4]], named: "v2-resume")
        try Golden.check([requests[5]], named: "v2-token-authorization-code")
    }

    @Test func passwordRiskRegistrationJourney() async throws {
        let h = try Harness()
        let registration = try await h.v2RegistrationState()
        h.v2(V2Fixture.path("auth/methods/sms/register"), 200, V2Fixture.riskVerify(token: "j2"))
        h.v2(V2Fixture.path("risk/phone/verify"), 200, V2Fixture.activate(token: "j3"))
        let activation = try expectState(
            try await registration.selectAuthMethod(registration.authMethods[1], verificationContact: StrongAuthFixture.phone),
            MSALNativeAuthStrongAuthVerificationRequiredState.self)
        h.v2Finish(after: V2Fixture.path("auth/methods/sms/9b2e/activate"))
        _ = try await activation.submitChallenge(Fixture.code)
        let requests = h.stub.receivedRequests
        try #require(requests.count == 9)
        try Golden.check([requests[3]], named: "v2-verify-password")
        try Golden.check([requests[4]], named: "v2-register-target")
        try Golden.check([requests[5]], named: "v2-riskverify")
        try Golden.check([requests[6]], named: "v2-activate")
    }

    /// `verify` answers whose `resend` link is not the `challenge` one, so the golden shows which link was posted.
    func verifyWithResend(_ id: String, _ type: String, token: String) -> [String: Any] {
        var body = V2Fixture.verify(id, type, codeLength: 8, token: token)
        var links = body["_links"] as? [String: Any] ?? [:]
        links["resend"] = ["href": V2Fixture.path("auth/methods/\(type)/\(id)/resend")]
        body["_links"] = links
        return body
    }

    @Test func codeAndChallengeResend() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.challenge("singleFactor", V2Fixture.emailMethods, token: "c1"))
        h.v2(V2Fixture.path("auth/methods/email/m-e1/challenge"), 200, verifyWithResend("m-e1", "email", token: "c2"))
        let code = try expectState(try await h.app.signInV2(parameters: h.v2Parameters), MSALNativeAuthCodeRequiredState.self)
        h.v2(V2Fixture.path("auth/methods/email/m-e1/resend"), 200, verifyWithResend("m-e1", "email", token: "c3"))
        _ = try expectState(try await code.resendCode(), MSALNativeAuthCodeRequiredState.self)
        try #require(h.stub.receivedRequests.count == 4)
        try Golden.check([h.stub.receivedRequests[3]], named: "v2-resend-code")

        let m = try Harness()
        m.v2Start(V2Fixture.challenge("multiFactor", [V2Fixture.mfaMethods[1]], token: "c3"))
        let mfa = try expectState(try await m.app.signInV2(parameters: m.v2Parameters), MSALNativeAuthAuthMethodSelectionRequiredState.self)
        m.v2(V2Fixture.path("auth/methods/sms/7f1c-a002/challenge"), 200, verifyWithResend("7f1c-a002", "sms", token: "c4"))
        let challenge = try expectState(try await mfa.selectAuthMethod(mfa.authMethods[0]), MSALNativeAuthMFAVerificationRequiredState.self)
        m.v2(V2Fixture.path("auth/methods/sms/7f1c-a002/resend"), 200, verifyWithResend("7f1c-a002", "sms", token: "c5"))
        _ = try expectState(try await challenge.resendChallenge(), MSALNativeAuthMFAVerificationRequiredState.self)
        try #require(m.stub.receivedRequests.count == 4)
        try Golden.check([m.stub.receivedRequests[3]], named: "v2-resend-challenge")
        #expect(h.stubProblems.isEmpty && m.stubProblems.isEmpty, "\(h.stubProblems) \(m.stubProblems)")
    }

    @Test func inlinePasswordRecover() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.challenge("singleFactor", [V2Fixture.method("m-p", "password")], token: "c1"))
        h.v2(V2Fixture.path("auth/methods/password/m-p/challenge"), 200, V2Fixture.verify("m-p", "password", token: "c2"))
        let password = try expectState(try await h.app.signInV2(parameters: h.v2Parameters), MSALNativeAuthPasswordRequiredState.self)
        h.v2(V2Fixture.path("auth/methods/password/m-p/recover"), 200, V2Fixture.recoveryChallenge(V2Fixture.recoveryMethods, token: "r1"))
        _ = try expectState(try await password.recoverPassword(), MSALNativeAuthAuthMethodSelectionRequiredState.self)
        try #require(h.stub.receivedRequests.count == 4)
        try Golden.check([h.stub.receivedRequests[3]], named: "v2-recover")
    }

    @Test func registerWithoutTarget() async throws {
        let h = try Harness()
        let registration = try await h.v2RegistrationState(emailHint: "g****e@e****e")
        h.v2(V2Fixture.path("auth/methods/email/register"), 200, V2Fixture.activate(token: "j3"))
        _ = try expectState(
            try await registration.selectAuthMethod(registration.authMethods[0]), MSALNativeAuthStrongAuthVerificationRequiredState.self)
        try #require(h.stub.receivedRequests.count == 5)
        try Golden.check([h.stub.receivedRequests[4]], named: "v2-register-no-target")
    }

    @Test func sliceAndInterceptorApplyToV2() async throws {
        let h = try Harness {
            $0.sliceConfig = MSALSliceConfig(slice: "testslice", dc: "ESTS-PUB-WUS2-AZ1-FD000-TEST1")
            $0.requestInterceptor = HeaderInterceptor(headers: ["x-contoso-tenant": "blue"])
        }
        h.v2Start(V2Fixture.halError("invalidRequest", "AADSTS50034: No user.", inner: "userNotFound"), status: 400)
        _ = try? await h.app.signInV2(parameters: h.v2Parameters)
        try Golden.check(h.stub.receivedRequests, named: "v2-entry-and-start-dc-interceptor")
    }
}
