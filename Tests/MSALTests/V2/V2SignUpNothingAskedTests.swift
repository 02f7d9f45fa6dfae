import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// A sign-up step the app could not leave (docs/decisions.md#native-auth-v2): a server that answers
/// the right code with `collectAttributes` and an empty list gets an empty submit at once, in both
/// call forms; an attributes state may submit nothing; the deprecated `password` of the V2
/// parameters (MSAL up to 2.18.0) is sent when the `password` attribute is asked for.
@Suite struct V2SignUpNothingAskedTests {
    /// A code-only sign-up up to the code state: the email autofilled, the code sent.
    func codeState(_ h: Harness, _ parameters: MSALNativeAuthSignUpParametersV2) async throws -> MSALNativeAuthCodeRequiredState {
        Self.stubUpToCode(h)
        return try expectState(try await h.app.signUpV2(parameters: parameters), MSALNativeAuthCodeRequiredState.self)
    }

    static func stubUpToCode(_ h: Harness) {
        h.v2SignUpStart(V2Fixture.collectAttributes([V2Fixture.attribute("email", label: "Email")], token: "s1"))
        h.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.verify("m-new", "email", hint: "a****a@c****o", codeLength: 8, token: "s2"))
    }

    static let verifyPath = V2Fixture.path("auth/methods/email/m-new/verify")

    /// The right code answered with nothing to collect: the SDK submits `{}` and the app gets the
    /// sign-in-after state, as for a password sign-up with nothing missing.
    @Test func anEmptyListAfterTheCodeIsSubmittedEmptyAndTheSignUpFinishes() async throws {
        let h = try Harness()
        let code = try await codeState(h, MSALNativeAuthSignUpParametersV2(username: Fixture.username))
        h.v2(Self.verifyPath, 200, V2Fixture.collectAttributes([], token: "s3"))
        h.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.continued(token: "s4"))
        let after = try expectState(try await code.submitCode(Fixture.code), MSALNativeAuthSignInAfterSignUpState.self)
        #expect(after.scenario == .signUp)
        let submit = try #require(h.stub.receivedRequests.last)
        #expect(submit.jsonObject["continuationToken"] as? String == "s3")
        #expect((submit.jsonObject["attributes"] as? [String: Any])?.isEmpty == true)
        h.v2Redeem()
        guard case .completed(let result, .signUp) = try await after.signIn(parameters: MSALNativeAuthSignInAfterSignUpParameters()) else {
            throw UnexpectedOutcome("expected completion")
        }
        #expect(result.account.username == Fixture.username)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    /// A server that asks for nothing again after the empty submit: one general error, no loop.
    @Test func aSecondEmptyListInTheSameStepIsAGeneralError() async throws {
        let h = try Harness()
        let code = try await codeState(h, MSALNativeAuthSignUpParametersV2(username: Fixture.username))
        h.v2(Self.verifyPath, 200, V2Fixture.collectAttributes([], token: "s3"))
        h.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.collectAttributes([], token: "s4"))
        let error = try await flowError { () async throws(MSALNativeAuthFlowError) in try await code.submitCode(Fixture.code) }
        #expect(error.isGeneralError && h.stub.receivedRequests.count == 5)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    /// Only optional attributes: the app gets the state and may submit nothing, which is sent as `{}`.
    @Test func anAttributesStateSubmitsNothing() async throws {
        let h = try Harness()
        let code = try await codeState(h, MSALNativeAuthSignUpParametersV2(username: Fixture.username))
        h.v2(Self.verifyPath, 200, V2Fixture.collectAttributes([V2Fixture.attribute("city", required: false)], token: "s3"))
        let attributes = try expectState(try await code.submitCode(Fixture.code), MSALNativeAuthAttributesRequiredState.self)
        #expect(attributes.attributes.map(\.name) == ["city"])
        h.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.continued(token: "s4"))
        _ = try expectState(try await attributes.submitAttributes([:]), MSALNativeAuthSignInAfterSignUpState.self)
        #expect((h.stub.receivedRequests.last?.jsonObject["attributes"] as? [String: Any])?.isEmpty == true)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    /// MSAL up to 2.18.0: a password set on the V2 parameters goes with the `password` attribute,
    /// so the app never sees the password state.
    @Test func theV2ParametersPasswordIsSentWhenThePasswordIsAsked() async throws {
        let h = try Harness()
        let parameters = MSALNativeAuthSignUpParametersV2(username: Fixture.username)
        parameters.password = Fixture.password
        parameters.attributes = ["displayName": "Ada"]
        let code = try await codeState(h, parameters)
        let asked = [V2Fixture.attribute("password", "password"), V2Fixture.attribute("displayName")]
        h.v2(Self.verifyPath, 200, V2Fixture.collectAttributes(asked, token: "s3"))
        h.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.continued(token: "s4"))
        _ = try expectState(try await code.submitCode(Fixture.code), MSALNativeAuthSignInAfterSignUpState.self)
        #expect(h.stub.receivedRequests.last?.submittedAttributes == ["password": Fixture.password, "displayName": "Ada"])
        #expect(!h.log.text.contains(Fixture.password))
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }
}

/// The same empty list in the delegate form: one callback per call, the sign-in-after state after the code.
@Suite(.tags(.concurrency)) @MainActor struct V2SignUpNothingAskedDelegateTests {
    @Test func anEmptyListAfterTheCodeFinishesInTheDelegateForm() async throws {
        let h = try Harness()
        V2SignUpNothingAskedTests.stubUpToCode(h)
        let delegate = V2RecordingDelegate()
        h.app.signUpV2(parameters: MSALNativeAuthSignUpParametersV2(username: Fixture.username), delegate: delegate)
        let code = try await delegate.state(1, MSALNativeAuthCodeRequiredState.self)
        h.v2(V2SignUpNothingAskedTests.verifyPath, 200, V2Fixture.collectAttributes([], token: "s3"))
        h.v2(V2Fixture.submitAttributesPath, 200, V2Fixture.continued(token: "s4"))
        code.submitCode(Fixture.code, delegate: delegate)
        _ = try await delegate.state(2, MSALNativeAuthSignInAfterSignUpState.self)
        #expect(delegate.names == ["onCodeRequired", "onSignInAfterSignUpRequired"])
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }
}
