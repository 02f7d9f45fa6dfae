import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// The V2 password reset and inline recovery (docs/protocol.md#the-journeys) through the public API, `async` and
/// delegate forms, over a strict stub transport answering as the emulator does.
@Suite struct V2ResetPasswordFlowTests {
    var parameters: MSALNativeAuthResetPasswordParametersV2 { MSALNativeAuthResetPasswordParametersV2(username: Fixture.username) }

    /// Reset up to the new password: the recovery selection (email and SMS; the password dropped), email chosen, the code.
    func resetToNewPassword(_ h: Harness) async throws -> MSALNativeAuthNewPasswordRequiredState {
        h.v2ResetStart(V2Fixture.recoveryChallenge(V2Fixture.recoveryMethods, token: "p1"))
        let selection = try expectState(
            try await h.app.resetPasswordV2(parameters: parameters), MSALNativeAuthAuthMethodSelectionRequiredState.self)
        #expect(selection.purpose == .recovery && selection.authMethods.map(\.challengeType) == ["email", "sms"])
        #expect(selection.scenario == .passwordReset)
        h.v2(V2Fixture.path("auth/methods/email/r-e/challenge"), 200, V2Fixture.verify("r-e", "email", codeLength: 8, token: "p2"))
        let code = try expectState(try await selection.selectAuthMethod(selection.authMethods[0]), MSALNativeAuthCodeRequiredState.self)
        h.v2(V2Fixture.path("auth/methods/email/r-e/verify"), 200, V2Fixture.update(token: "p3"))
        return try expectState(try await code.submitCode(Fixture.code), MSALNativeAuthNewPasswordRequiredState.self)
    }

    @Test func resetWithSelectionUpdatePollingThenSignIn() async throws {
        let h = try Harness()
        let newPassword = try await resetToNewPassword(h)
        let update = V2Fixture.path("auth/methods/password/m-p")
        h.v2Put(update, 200, V2Fixture.poll(token: "p4"))
        h.v2(update + "/pollUpdate", 200, V2Fixture.poll(token: "p5"))
        h.v2(update + "/pollUpdate", 200, V2Fixture.continued(token: "p6"))
        let after = try expectState(
            try await newPassword.submitNewPassword("Apollo-11-Eagle-Landed"), MSALNativeAuthSignInAfterResetPasswordState.self)
        #expect(after.scenario == .passwordReset)
        #expect(h.clock.sleeps == [1.5])
        h.v2Redeem()
        let signIn = MSALNativeAuthSignInAfterResetPasswordParameters()
        signIn.scopes = ["api://todo/ToDoList.Read"]
        guard case .completed(_, .passwordReset) = try await after.signIn(parameters: signIn) else {
            throw UnexpectedOutcome("expected completion")
        }
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
        let requests = h.stub.receivedRequests
        try #require(requests.count == 9)
        #expect(requests[1].jsonBody == ["continuationToken": "c0", "username": Fixture.username])
        #expect(
            requests[4].method == "PUT" && requests[4].jsonBody == ["continuationToken": "p3", "newPassword": "Apollo-11-Eagle-Landed"])
        #expect(requests[5].method == "POST" && requests[5].jsonBody == ["continuationToken": "p4"])
        #expect(requests[6].jsonBody == ["continuationToken": "p5"])
        #expect(requests[7].formFields == ["continuation_token": "p6"])
        #expect(requests[8].formFields["scope"] == "api://todo/ToDoList.Read openid profile offline_access")
        #expect(!h.log.text.contains("Apollo-11"))
    }

    @Test func aWeakPasswordKeepsTheStateAndAnEmptyOneSendsNothing() async throws {
        let h = try Harness()
        let newPassword = try await resetToNewPassword(h)
        let count = h.stub.receivedRequests.count
        let empty = try await flowError { () async throws(MSALNativeAuthFlowError) in try await newPassword.submitNewPassword("") }
        #expect(empty.isInvalidPassword && h.stub.receivedRequests.count == count)
        let update = V2Fixture.path("auth/methods/password/m-p")
        h.v2Put(update, 400, V2Fixture.halError("invalidRequest", "AADSTS120002: Too weak.", inner: "passwordTooWeak"))
        let weak = try await flowError { () async throws(MSALNativeAuthFlowError) in try await newPassword.submitNewPassword("abc") }
        #expect(weak.isInvalidPassword && weak.errorCodes == [120_002])
        h.v2Put(update, 200, V2Fixture.poll(token: "p4"))
        h.v2(update + "/pollUpdate", 200, V2Fixture.continued(token: "p6"))
        _ = try expectState(try await newPassword.submitNewPassword("Apollo-11"), MSALNativeAuthSignInAfterResetPasswordState.self)
        #expect(h.clock.sleeps.isEmpty)
    }

    @Test func pollingGivesUpAfterFivePollsAndClampsTheInterval() async throws {
        let h = try Harness()
        let newPassword = try await resetToNewPassword(h)
        let update = V2Fixture.path("auth/methods/password/m-p")
        h.v2Put(update, 200, V2Fixture.poll(token: "q0", interval: 10))
        for (index, interval) in [9000, 400, 10, nil, 1000].enumerated() {
            h.v2(update + "/pollUpdate", 200, V2Fixture.poll(token: "q\(index + 1)", interval: interval))
        }
        let error = try await flowError { () async throws(MSALNativeAuthFlowError) in try await newPassword.submitNewPassword("Apollo-11") }
        #expect(error.isGeneralError && error.errorDescription?.contains("5 polls") == true)
        #expect(h.clock.sleeps == [5, 0.4, 0.25, 1.5])
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func oneRecoveryMethodIsChallengedAndMFAAfterResetEndsInSignInAfterReset() async throws {
        let h = try Harness()
        h.v2ResetStart(
            V2Fixture.recoveryChallenge(
                [V2Fixture.method("r-s", "sms", hint: "+*******0101"), V2Fixture.method("m-p", "password")], token: "p1"))
        h.v2(V2Fixture.path("auth/methods/sms/r-s/challenge"), 200, V2Fixture.riskVerify(token: "p1r"))
        h.v2(V2Fixture.path("risk/phone/verify"), 200, V2Fixture.verify("r-s", "sms", hint: "+*******0101", codeLength: 6, token: "p2"))
        let code = try expectState(try await h.app.resetPasswordV2(parameters: parameters), MSALNativeAuthCodeRequiredState.self)
        #expect(code.codeLength == 6 && code.channel.isSMSType)
        h.v2(V2Fixture.path("auth/methods/sms/r-s/verify"), 200, V2Fixture.update(token: "p3"))
        let newPassword = try expectState(try await code.submitCode("123456"), MSALNativeAuthNewPasswordRequiredState.self)
        let update = V2Fixture.path("auth/methods/password/m-p")
        h.v2Put(update, 200, V2Fixture.poll(token: "p4"))
        h.v2(update + "/pollUpdate", 200, V2Fixture.challenge("multiFactor", V2Fixture.mfaMethods, token: "p5"))
        let mfa = try expectState(try await newPassword.submitNewPassword("Apollo-11"), MSALNativeAuthAuthMethodSelectionRequiredState.self)
        #expect(mfa.purpose == .mfa && mfa.scenario == .passwordReset)
        h.v2(
            V2Fixture.path("auth/methods/email/7f1c-a001/challenge"), 200,
            V2Fixture.verify("7f1c-a001", "email", codeLength: 8, token: "p6"))
        let challenge = try expectState(try await mfa.selectAuthMethod(mfa.authMethods[0]), MSALNativeAuthMFAVerificationRequiredState.self)
        h.v2(V2Fixture.path("auth/methods/email/7f1c-a001/verify"), 200, V2Fixture.continued(token: "p7"))
        let after = try expectState(try await challenge.submitChallenge(Fixture.code), MSALNativeAuthSignInAfterResetPasswordState.self)
        h.v2Redeem()
        guard case .completed = try await after.signIn() else { throw UnexpectedOutcome("expected completion") }
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func startErrors() async throws {
        let h = try Harness()
        h.v2ResetStart(V2Fixture.halError("invalidRequest", "AADSTS500222: No password.", inner: "userDoesNotHavePassword"), status: 400)
        let noPassword = try await flowError { () async throws(MSALNativeAuthFlowError) in
            try await h.app.resetPasswordV2(parameters: parameters)
        }
        #expect(noPassword.isUserDoesNotHavePassword)
        h.v2ResetStart(V2Fixture.halError("invalidRequest", "AADSTS50034: No user.", inner: "userNotFound"), status: 400)
        let unknown = try await flowError { () async throws(MSALNativeAuthFlowError) in
            try await h.app.resetPasswordV2(parameters: MSALNativeAuthResetPasswordParameters(username: Fixture.username))
        }
        #expect(unknown.isUserNotFound)
    }

    @Test func inlineRecoveryCompletesTheSignIn() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.challenge("singleFactor", [V2Fixture.method("m-p", "password")], token: "c1"))
        h.v2(V2Fixture.path("auth/methods/password/m-p/challenge"), 200, V2Fixture.verify("m-p", "password", token: "c2"))
        let password = try expectState(try await h.app.signInV2(parameters: h.v2Parameters), MSALNativeAuthPasswordRequiredState.self)
        #expect(password.canRecoverPassword)
        h.v2(V2Fixture.path("auth/methods/password/m-p/recover"), 200, V2Fixture.recoveryChallenge(V2Fixture.recoveryMethods, token: "r1"))
        let selection = try expectState(try await password.recoverPassword(), MSALNativeAuthAuthMethodSelectionRequiredState.self)
        #expect(selection.purpose == .recovery && selection.scenario == .signIn)
        h.v2(V2Fixture.path("auth/methods/email/r-e/challenge"), 200, V2Fixture.verify("r-e", "email", codeLength: 8, token: "r2"))
        let code = try expectState(try await selection.selectAuthMethod(selection.authMethods[0]), MSALNativeAuthCodeRequiredState.self)
        h.v2(V2Fixture.path("auth/methods/email/r-e/verify"), 200, V2Fixture.update(token: "r3"))
        let newPassword = try expectState(try await code.submitCode(Fixture.code), MSALNativeAuthNewPasswordRequiredState.self)
        let update = V2Fixture.path("auth/methods/password/m-p")
        h.v2Put(update, 200, V2Fixture.poll(token: "r4"))
        h.v2Finish(after: update + "/pollUpdate")
        guard case .completed(let result, .signIn) = try await newPassword.submitNewPassword("Apollo-11") else {
            throw UnexpectedOutcome("expected the sign-in to complete")
        }
        #expect(result.account.username == Fixture.username)
        #expect(h.stub.receivedRequests[3].jsonBody == ["continuationToken": "c2"])
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func noRecoverLinkMeansNoRecovery() async throws {
        let h = try Harness()
        var verify = V2Fixture.verify("m-p", "password", token: "c2")
        verify["_links"] = ["verify": ["href": V2Fixture.path("auth/methods/password/m-p/verify")]]
        h.v2Start(V2Fixture.challenge("singleFactor", [V2Fixture.method("m-p", "password")], token: "c1"))
        h.v2(V2Fixture.path("auth/methods/password/m-p/challenge"), 200, verify)
        let password = try expectState(try await h.app.signInV2(parameters: h.v2Parameters), MSALNativeAuthPasswordRequiredState.self)
        #expect(!password.canRecoverPassword)
        let error = try await flowError { () async throws(MSALNativeAuthFlowError) in try await password.recoverPassword() }
        #expect(error.isGeneralError && h.stub.receivedRequests.count == 3)
    }

    @Test func resetThroughTheDelegate() async throws {
        let h = try Harness()
        let delegate = V2RecordingDelegate()
        h.v2ResetStart(
            V2Fixture.recoveryChallenge(
                [V2Fixture.method("r-e", "email", hint: "a****a@c****o"), V2Fixture.method("m-p", "password")], token: "p1"))
        h.v2(V2Fixture.path("auth/methods/email/r-e/challenge"), 200, V2Fixture.verify("r-e", "email", codeLength: 8, token: "p2"))
        h.app.resetPasswordV2(parameters: parameters, delegate: delegate)
        let code = try await delegate.state(1, MSALNativeAuthCodeRequiredState.self)
        h.v2(V2Fixture.path("auth/methods/email/r-e/verify"), 200, V2Fixture.update(token: "p3"))
        code.submitCode(Fixture.code, delegate: delegate)
        let newPassword = try await delegate.state(2, MSALNativeAuthNewPasswordRequiredState.self)
        let update = V2Fixture.path("auth/methods/password/m-p")
        h.v2Put(update, 200, V2Fixture.poll(token: "p4"))
        h.v2(update + "/pollUpdate", 200, V2Fixture.continued(token: "p6"))
        newPassword.submitNewPassword("Apollo-11", delegate: delegate)
        let after = try await delegate.state(3, MSALNativeAuthSignInAfterResetPasswordState.self)
        h.v2Redeem()
        after.signIn(parameters: MSALNativeAuthSignInAfterResetPasswordParameters(), delegate: delegate)
        guard case .completed(_, .passwordReset) = try await delegate.waitForEvent(count: 4) else {
            throw UnexpectedOutcome("expected completion, got \(await delegate.names)")
        }
        #expect(
            await delegate.names == ["onCodeRequired", "onNewPasswordRequired", "onSignInAfterResetPasswordRequired", "onFlowCompleted"])
    }

    @Test func inlineRecoveryThroughTheDelegate() async throws {
        let h = try Harness()
        let delegate = V2RecordingDelegate()
        h.v2Start(V2Fixture.challenge("singleFactor", [V2Fixture.method("m-p", "password")], token: "c1"))
        h.v2(V2Fixture.path("auth/methods/password/m-p/challenge"), 200, V2Fixture.verify("m-p", "password", token: "c2"))
        h.app.signInV2(parameters: h.v2Parameters, delegate: delegate)
        let password = try await delegate.state(1, MSALNativeAuthPasswordRequiredState.self)
        h.v2(
            V2Fixture.path("auth/methods/password/m-p/recover"), 200,
            V2Fixture.recoveryChallenge([V2Fixture.method("r-e", "email"), V2Fixture.method("m-p", "password")], token: "r1"))
        h.v2(V2Fixture.path("auth/methods/email/r-e/challenge"), 200, V2Fixture.verify("r-e", "email", codeLength: 8, token: "r2"))
        password.recoverPassword(delegate: delegate)
        _ = try await delegate.state(2, MSALNativeAuthCodeRequiredState.self)
        #expect(await delegate.names == ["onPasswordRequired", "onCodeRequired"])
    }
}
