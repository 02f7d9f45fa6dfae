import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// One golden file per native auth V2 request kind of the sign-up and reset (docs/protocol.md#routes): `sign_up`,
/// `submitAttributes`, `reset_password`, the PUT `update` and `poll`.
@Suite struct V2SignUpResetGoldenTests {
    @Test func signUpJourney() async throws {
        let h = try Harness()
        let parameters = MSALNativeAuthSignUpParametersV2(username: Fixture.username)
        parameters.attributes = ["displayName": "Ada", "age": 36]
        h.v2SignUpStart(
            V2Fixture.collectAttributes([V2Fixture.attribute("email"), V2Fixture.attribute("age", "int", required: false)], token: "s1"))
        h.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.verify("m-new", "email", codeLength: 8, token: "s2"))
        _ = try await h.app.signUpV2(parameters: parameters)
        let requests = h.stub.receivedRequests
        try #require(requests.count == 3)
        try Golden.check([requests[1]], named: "v2-signup-start")
        try Golden.check([requests[2]], named: "v2-submit-attributes")
    }

    @Test func resetJourney() async throws {
        let h = try Harness()
        h.v2ResetStart(V2Fixture.recoveryChallenge([V2Fixture.method("r-e", "email"), V2Fixture.method("m-p", "password")], token: "p1"))
        h.v2(V2Fixture.path("auth/methods/email/r-e/challenge"), 200, V2Fixture.verify("r-e", "email", codeLength: 8, token: "p2"))
        let code = try expectState(
            try await h.app.resetPasswordV2(parameters: MSALNativeAuthResetPasswordParametersV2(username: Fixture.username)),
            MSALNativeAuthCodeRequiredState.self)
        h.v2(V2Fixture.path("auth/methods/email/r-e/verify"), 200, V2Fixture.update(token: "p3"))
        let newPassword = try expectState(try await code.submitCode(Fixture.code), MSALNativeAuthNewPasswordRequiredState.self)
        let update = V2Fixture.path("auth/methods/password/m-p")
        h.v2Put(update, 200, V2Fixture.poll(token: "p4"))
        h.v2(update + "/pollUpdate", 200, V2Fixture.continued(token: "p5"))
        _ = try await newPassword.submitNewPassword(Fixture.password)
        let requests = h.stub.receivedRequests
        try #require(requests.count == 6)
        try Golden.check([requests[1]], named: "v2-reset-start")
        try Golden.check([requests[4]], named: "v2-update-new-password")
        try Golden.check([requests[5]], named: "v2-poll")
    }
}
