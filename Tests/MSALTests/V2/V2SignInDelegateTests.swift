import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// The same journeys through the delegate form: exactly one callback per call, on the main actor,
/// the per-state protocols opted into, `isNotImplemented` when they are not.
@Suite(.tags(.concurrency)) @MainActor struct V2SignInDelegateTests {
    @Test func emailOTPSignIn() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.challenge("singleFactor", V2Fixture.emailMethods, token: "c1"))
        h.v2(V2Fixture.path("auth/methods/email/m-e1/challenge"), 200, V2Fixture.verify("m-e1", "email", codeLength: 8, token: "c2"))
        let delegate = V2RecordingDelegate()
        h.app.signInV2(parameters: h.v2Parameters, delegate: delegate)
        let state = try await delegate.state(1, MSALNativeAuthCodeRequiredState.self)

        let verify = V2Fixture.path("auth/methods/email/m-e1/verify")
        h.v2(verify, 400, V2Fixture.halError("invalidGrant", "AADSTS50181: Wrong.", inner: "invalidOneTimeCode"))
        state.submitCode("00000000", delegate: delegate)
        #expect(try await delegate.error(2).isInvalidCode)

        h.v2Finish(after: verify)
        state.submitCode(Fixture.code, delegate: delegate)
        guard case .completed(_, .signIn) = try await delegate.waitForEvent(count: 3) else { throw UnexpectedOutcome("\(delegate.names)") }
        try await settle()
        #expect(delegate.names == ["onCodeRequired", "onFlowError", "onFlowCompleted"])
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func selectionPasswordAndEmailMFA() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.challenge("singleFactor", V2Fixture.firstFactors, token: "c1"))
        let delegate = V2RecordingDelegate()
        h.app.signInV2(parameters: h.v2Parameters, delegate: delegate)
        let selection = try await delegate.state(1, MSALNativeAuthAuthMethodSelectionRequiredState.self)

        h.v2(V2Fixture.path("auth/methods/password/m-p/challenge"), 200, V2Fixture.verify("m-p", "password", token: "c2"))
        selection.selectAuthMethod(selection.authMethods[0], delegate: delegate)
        let password = try await delegate.state(2, MSALNativeAuthPasswordRequiredState.self)

        h.v2(V2Fixture.path("auth/methods/password/m-p/verify"), 200, V2Fixture.challenge("multiFactor", V2Fixture.mfaMethods, token: "c3"))
        password.submitPassword(Fixture.password, delegate: delegate)
        let mfa = try await delegate.state(3, MSALNativeAuthAuthMethodSelectionRequiredState.self)
        #expect(mfa.purpose == .mfa)

        h.v2(
            V2Fixture.path("auth/methods/email/7f1c-a001/challenge"), 200,
            V2Fixture.verify("7f1c-a001", "email", codeLength: 8, token: "c4"))
        mfa.selectAuthMethod(mfa.authMethods[0], verificationContact: nil, delegate: delegate)
        let code = try await delegate.state(4, MSALNativeAuthMFAVerificationRequiredState.self)

        h.v2Finish(after: V2Fixture.path("auth/methods/email/7f1c-a001/verify"))
        code.submitChallenge(Fixture.code, delegate: delegate)
        guard case .completed = try await delegate.waitForEvent(count: 5) else { throw UnexpectedOutcome("\(delegate.names)") }
        #expect(
            delegate.names == [
                "onAuthMethodSelectionRequired", "onPasswordRequired", "onAuthMethodSelectionRequired", "onMFAVerificationRequired",
                "onFlowCompleted",
            ])
    }

    @Test func smsMFAWithRiskHop() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.challenge("multiFactor", V2Fixture.mfaMethods, token: "c3"))
        let delegate = V2RecordingDelegate()
        h.app.signInV2(parameters: h.v2Parameters, delegate: delegate)
        let mfa = try await delegate.state(1, MSALNativeAuthAuthMethodSelectionRequiredState.self)
        h.v2(V2Fixture.path("auth/methods/sms/7f1c-a002/challenge"), 200, V2Fixture.riskVerify(token: "r1"))
        h.v2(V2Fixture.path("risk/phone/verify"), 200, V2Fixture.verify("7f1c-a002", "sms", codeLength: 6, token: "r2", payload: true))
        mfa.selectAuthMethod(mfa.authMethods[1], delegate: delegate)
        let code = try await delegate.state(2, MSALNativeAuthMFAVerificationRequiredState.self)
        #expect(code.codeLength == 6)
        h.v2(V2Fixture.path("auth/methods/sms/7f1c-a002/challenge"), 200, V2Fixture.verify("7f1c-a002", "sms", codeLength: 6, token: "r3"))
        code.resendChallenge(delegate: delegate)
        let resent = try await delegate.state(3, MSALNativeAuthMFAVerificationRequiredState.self)
        h.v2Finish(after: V2Fixture.path("auth/methods/sms/7f1c-a002/verify"))
        resent.submitChallenge("271828", delegate: delegate)
        guard case .completed = try await delegate.waitForEvent(count: 4) else { throw UnexpectedOutcome("\(delegate.names)") }
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func justInTimeRegistration() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.challenge("singleFactor", [V2Fixture.method("m-p", "password")], token: "c1"))
        h.v2(V2Fixture.path("auth/methods/password/m-p/challenge"), 200, V2Fixture.verify("m-p", "password", token: "c2"))
        let delegate = V2RecordingDelegate()
        h.app.signInV2(parameters: h.v2Parameters, delegate: delegate)
        let password = try await delegate.state(1, MSALNativeAuthPasswordRequiredState.self)
        h.v2(V2Fixture.path("auth/methods/password/m-p/verify"), 200, V2Fixture.register(token: "j1"))
        password.submitPassword(Fixture.password, delegate: delegate)
        let registration = try await delegate.state(2, MSALNativeAuthStrongAuthRegistrationRequiredState.self)
        h.v2(V2Fixture.path("auth/methods/sms/register"), 200, V2Fixture.riskVerify(token: "j2"))
        h.v2(V2Fixture.path("risk/phone/verify"), 200, V2Fixture.activate(token: "j3"))
        registration.selectAuthMethod(registration.authMethods[1], verificationContact: "+15550123", delegate: delegate)
        let activation = try await delegate.state(3, MSALNativeAuthStrongAuthVerificationRequiredState.self)
        h.v2Finish(after: V2Fixture.path("auth/methods/sms/9b2e/activate"))
        activation.submitChallenge("271828", delegate: delegate)
        guard case .completed = try await delegate.waitForEvent(count: 4) else { throw UnexpectedOutcome("\(delegate.names)") }
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func browserFallback() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.webFallbackHAL, status: 400)
        let delegate = V2RecordingDelegate()
        h.app.signInV2(parameters: h.v2Parameters, delegate: delegate)
        #expect(try await delegate.error(1).isBrowserRequired)
        try await settle()
        #expect(delegate.names == ["onFlowError"])
    }

    @Test func aDelegateWithoutTheStateProtocolGetsNotImplemented() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.challenge("singleFactor", V2Fixture.emailMethods, token: "c1"))
        h.v2(V2Fixture.path("auth/methods/email/m-e1/challenge"), 200, V2Fixture.verify("m-e1", "email", codeLength: 8, token: "c2"))
        let delegate = V2BareDelegate()
        h.app.signInV2(parameters: h.v2Parameters, delegate: delegate)
        for _ in 0..<10_000 where delegate.errors.isEmpty { try await Task.sleep(nanoseconds: 1_000_000) }
        try await settle()
        let error = try #require(delegate.errors.first)
        #expect(delegate.errors.count == 1 && delegate.completions == 0)
        #expect(error.isNotImplemented && error.errorDescription?.contains("MSALNativeAuthCodeRequiredDelegate") == true)
    }

    @Test func theV1ParametersOverloadWorksInTheDelegateForm() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.challenge("singleFactor", [V2Fixture.method("m-p", "password")], token: "c1"))
        h.v2(V2Fixture.path("auth/methods/password/m-p/challenge"), 200, V2Fixture.verify("m-p", "password", token: "c2"))
        h.v2Finish(after: V2Fixture.path("auth/methods/password/m-p/verify"))
        let parameters = MSALNativeAuthSignInParameters(username: Fixture.username)
        parameters.password = Fixture.password
        let delegate = V2RecordingDelegate()
        h.app.signInV2(parameters: parameters, delegate: delegate)
        guard case .completed = try await delegate.waitForEvent(count: 1) else { throw UnexpectedOutcome("\(delegate.names)") }
    }

    /// Lets any stray second callback arrive before the count is checked.
    private func settle() async throws {
        for _ in 0..<20 { await Task.yield() }
        try await Task.sleep(nanoseconds: 20_000_000)
    }
}
