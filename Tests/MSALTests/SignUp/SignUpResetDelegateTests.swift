import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// The delegate form of sign-up and password reset: one callback per call, MSAL's fallback.
@Suite(.tags(.concurrency)) @MainActor struct SignUpResetDelegateTests {
    @MainActor
    final class Recorder: SignUpStartDelegate, SignUpVerifyCodeDelegate, SignUpAttributesRequiredDelegate,
        SignInAfterSignUpDelegate, ResetPasswordStartDelegate, ResetPasswordVerifyCodeDelegate, ResetPasswordRequiredDelegate,
        SignInAfterResetPasswordDelegate
    {
        private(set) var names: [String] = []
        private(set) var signUpCode: SignUpCodeRequiredState?
        private(set) var attributesState: SignUpAttributesRequiredState?
        private(set) var afterSignUp: SignInAfterSignUpState?
        private(set) var resetCode: ResetPasswordCodeRequiredState?
        private(set) var resetPassword: ResetPasswordRequiredState?
        private(set) var afterReset: SignInAfterResetPasswordState?
        private(set) var lastError: MSALNativeAuthError?
        private var waiter: CheckedContinuation<String, Never>?

        func next() async -> String {
            await withCheckedContinuation { waiter = $0 }
        }

        private func record(_ name: String) {
            names.append(name)
            waiter?.resume(returning: name)
            waiter = nil
        }

        func onSignUpStartError(error: SignUpStartError) {
            lastError = error
            record("onSignUpStartError")
        }
        func onSignUpCodeRequired(
            newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
        ) {
            signUpCode = newState
            record("onSignUpCodeRequired")
        }
        func onSignUpVerifyCodeError(error: VerifyCodeError, newState: SignUpCodeRequiredState?) {
            lastError = error
            record("onSignUpVerifyCodeError")
        }
        func onSignUpAttributesRequired(attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState) {
            attributesState = newState
            record("onSignUpAttributesRequired")
        }
        func onSignUpAttributesInvalid(attributeNames: [String], newState: SignUpAttributesRequiredState) {
            attributesState = newState
            record("onSignUpAttributesInvalid")
        }
        func onSignUpCompleted(newState: SignInAfterSignUpState) {
            afterSignUp = newState
            record("onSignUpCompleted")
        }
        func onSignUpAttributesRequiredError(error: AttributesRequiredError) {
            lastError = error
            record("onSignUpAttributesRequiredError")
        }
        func onSignInAfterSignUpError(error: SignInAfterSignUpError) {
            lastError = error
            record("onSignInAfterSignUpError")
        }
        func onSignInCompleted(result: MSALNativeAuthUserAccountResult) { record("onSignInCompleted") }
        func onResetPasswordStartError(error: ResetPasswordStartError) {
            lastError = error
            record("onResetPasswordStartError")
        }
        func onResetPasswordCodeRequired(
            newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
        ) {
            resetCode = newState
            record("onResetPasswordCodeRequired")
        }
        func onResetPasswordVerifyCodeError(error: VerifyCodeError, newState: ResetPasswordCodeRequiredState?) {
            lastError = error
            record("onResetPasswordVerifyCodeError")
        }
        func onPasswordRequired(newState: ResetPasswordRequiredState) {
            resetPassword = newState
            record("onPasswordRequired")
        }
        func onResetPasswordRequiredError(error: PasswordRequiredError, newState: ResetPasswordRequiredState?) {
            lastError = error
            record("onResetPasswordRequiredError")
        }
        func onResetPasswordCompleted(newState: SignInAfterResetPasswordState) {
            afterReset = newState
            record("onResetPasswordCompleted")
        }
        func onSignInAfterResetPasswordError(error: SignInAfterResetPasswordError) {
            lastError = error
            record("onSignInAfterResetPasswordError")
        }
    }

    @Test func signUpThroughDelegates() async throws {
        let h = try Harness()
        let recorder = Recorder()
        h.stub.expect(path: "/signup/v1.0/start", reply: .json(200, ["continuation_token": "T0"]))
        h.stub.expect(path: "/signup/v1.0/challenge", reply: .json(200, Fixture.oobChallenge))
        h.app.signUp(parameters: MSALNativeAuthSignUpParameters(username: Fixture.username), delegate: recorder)
        #expect(await recorder.next() == "onSignUpCodeRequired")

        h.stub.expect(
            path: "/signup/v1.0/continue",
            reply: .json(
                400,
                Fixture.apiError(
                    "attributes_required",
                    extra: [
                        "continuation_token": "T2", "required_attributes": [["name": "city", "type": "string", "required": true]],
                    ])))
        try #require(recorder.signUpCode).submitCode(code: Fixture.code, delegate: recorder)
        #expect(await recorder.next() == "onSignUpAttributesRequired")

        h.stub.expect(
            path: "/signup/v1.0/continue",
            reply: .json(
                400,
                Fixture.apiError(
                    "invalid_grant", suberror: "attribute_validation_failed",
                    extra: ["invalid_attributes": [["name": "city"]]])))
        try #require(recorder.attributesState).submitAttributes(attributes: ["city": ""], delegate: recorder)
        #expect(await recorder.next() == "onSignUpAttributesInvalid")

        h.stub.expect(path: "/signup/v1.0/continue", reply: .json(200, ["continuation_token": "T3"]))
        try #require(recorder.attributesState).submitAttributes(attributes: ["city": "Oslo"], delegate: recorder)
        #expect(await recorder.next() == "onSignUpCompleted")

        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))
        try #require(recorder.afterSignUp).signIn(parameters: MSALNativeAuthSignInAfterSignUpParameters(), delegate: recorder)
        #expect(await recorder.next() == "onSignInCompleted")
        #expect(
            recorder.names == [
                "onSignUpCodeRequired", "onSignUpAttributesRequired", "onSignUpAttributesInvalid", "onSignUpCompleted",
                "onSignInCompleted",
            ])
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func resetThroughDelegates() async throws {
        let h = try Harness()
        let recorder = Recorder()
        h.stub.expect(path: "/resetpassword/v1.0/start", reply: .json(200, ["continuation_token": "T0"]))
        h.stub.expect(path: "/resetpassword/v1.0/challenge", reply: .json(200, Fixture.oobChallenge))
        h.app.resetPassword(parameters: .init(username: Fixture.username), delegate: recorder)
        #expect(await recorder.next() == "onResetPasswordCodeRequired")
        h.stub.expect(path: "/resetpassword/v1.0/continue", reply: .json(200, ["continuation_token": "T2"]))
        try #require(recorder.resetCode).submitCode(code: Fixture.code, delegate: recorder)
        #expect(await recorder.next() == "onPasswordRequired")
        h.stub.expect(path: "/resetpassword/v1.0/submit", reply: .json(200, ["continuation_token": "T3", "poll_interval": 1]))
        h.stub.expect(path: "/resetpassword/v1.0/poll_completion", reply: .json(200, ["status": "succeeded", "continuation_token": "T4"]))
        try #require(recorder.resetPassword).submitPassword(password: Fixture.password, delegate: recorder)
        #expect(await recorder.next() == "onResetPasswordCompleted")
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(400, Fixture.apiError("invalid_grant")))
        try #require(recorder.afterReset).signIn(parameters: MSALNativeAuthSignInAfterResetPasswordParameters(), delegate: recorder)
        #expect(await recorder.next() == "onSignInAfterResetPasswordError")
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @MainActor final class StartErrorOnly: SignUpStartDelegate {
        var error: SignUpStartError?
        var waiter: CheckedContinuation<Void, Never>?
        func onSignUpStartError(error: SignUpStartError) {
            self.error = error
            waiter?.resume()
        }
    }

    @Test func unimplementedAttributesInvalidFallsBack() async throws {
        let h = try Harness()
        h.stub.expect(
            path: "/signup/v1.0/start",
            reply: .json(
                400,
                Fixture.apiError(
                    "invalid_grant", suberror: "attribute_validation_failed",
                    extra: ["invalid_attributes": [["name": "city"]]])))
        let delegate = StartErrorOnly()
        let parameters = MSALNativeAuthSignUpParameters(username: Fixture.username)
        let correlationId = UUID()
        parameters.correlationId = correlationId
        await withCheckedContinuation { continuation in
            delegate.waiter = continuation
            h.app.signUp(parameters: parameters, delegate: delegate)
        }
        #expect(
            delegate.error?.errorDescription
                == "MSALNativeAuth has called the delegate method onSignUpAttributesInvalid that has not been implemented")
        #expect(delegate.error?.correlationId == correlationId, "the sign-up's correlation id, not a new one")
    }
}
