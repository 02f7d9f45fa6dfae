import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// The V2 sign-in journeys (docs/protocol.md#the-journeys) through the public `async` API over a
/// strict stub transport.
@Suite struct V2SignInFlowTests {
    // MARK: 6.1 email OTP, one method

    @Test func emailOTPSignInEndToEnd() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.challenge("singleFactor", V2Fixture.emailMethods, token: "c1"))
        h.v2(
            V2Fixture.path("auth/methods/email/m-e1/challenge"), 200,
            V2Fixture.verify("m-e1", "email", hint: "g****e@e****e", codeLength: 8, token: "c2"))
        let state = try expectState(try await h.app.signInV2(parameters: h.v2Parameters), MSALNativeAuthCodeRequiredState.self)
        #expect(state.sentTo == "g****e@e****e" && state.channel.isEmailType && state.codeLength == 8 && state.scenario == .signIn)

        h.v2Finish(after: V2Fixture.path("auth/methods/email/m-e1/verify"))
        guard case .completed(let result, .signIn) = try await state.submitCode(Fixture.code) else {
            Issue.record("expected completion")
            return
        }
        #expect(result.account.username == Fixture.username)
        #expect(h.app.getNativeAuthUserAccount()?.account.username == Fixture.username)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")

        let requests = h.stub.receivedRequests
        try #require(requests.count == 6)
        let entry = requests[0].formFields
        #expect(entry == ["client_id": Fixture.clientId, "response_type": "code", "scope": "openid profile offline_access"])
        #expect(requests[1].jsonBody == ["username": Fixture.username, "continuationToken": "c0"])
        #expect(requests[1].headers["Accept"] == "application/hal+json" && requests[1].headers["Content-Type"] == "application/json")
        #expect(requests[2].jsonBody == ["continuationToken": "c1"])
        #expect(requests[3].jsonBody == ["continuationToken": "c2", "otp": Fixture.code])
        #expect(requests[4].formFields == ["continuation_token": "c9"])
        #expect(requests[4].url.absoluteString == "https://contoso.ciamlogin.com/contoso.onmicrosoft.com/oauth2/v2.0/authorize-challenge")
        let token = requests[5].formFields
        #expect(token["grant_type"] == "authorization_code" && token["code"] == V2Fixture.code && token["client_info"] == "1")
        #expect(token["redirect_uri"] == nil && token["code_verifier"] == nil && token["continuation_token"] == nil)
    }

    @Test func wrongCodeKeepsTheStateUsable() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.challenge("singleFactor", V2Fixture.emailMethods, token: "c1"))
        h.v2(V2Fixture.path("auth/methods/email/m-e1/challenge"), 200, V2Fixture.verify("m-e1", "email", codeLength: 8, token: "c2"))
        let state = try expectState(try await h.app.signInV2(parameters: h.v2Parameters), MSALNativeAuthCodeRequiredState.self)
        let verify = V2Fixture.path("auth/methods/email/m-e1/verify")
        h.v2(verify, 400, V2Fixture.halError("invalidGrant", "AADSTS50181: The code is wrong.", inner: "invalidOneTimeCode"))
        let error = try await flowError { () async throws(MSALNativeAuthFlowError) in try await state.submitCode("00000000") }
        #expect(error.isInvalidCode && !error.isInvalidChallenge && error.errorCodes == [50181] && error.serverError == "invalidGrant")
        h.v2Finish(after: verify)
        guard case .completed = try await state.submitCode(Fixture.code) else { throw UnexpectedOutcome("expected completion") }
        #expect(h.stub.receivedRequests[4].jsonBody["continuationToken"] == "c2")
    }

    @Test func emptyInputIsRefusedLocally() async throws {
        let h = try Harness()
        let error = try await flowError { () async throws(MSALNativeAuthFlowError) in
            try await h.app.signInV2(parameters: MSALNativeAuthSignInParametersV2(username: ""))
        }
        #expect(error.isInvalidUsername)
        #expect(h.stub.receivedRequests.isEmpty)
    }

    @Test func resendCodePostsTheResendLink() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.challenge("singleFactor", V2Fixture.emailMethods, token: "c1"))
        h.v2(V2Fixture.path("auth/methods/email/m-e1/challenge"), 200, V2Fixture.verify("m-e1", "email", codeLength: 8, token: "c2"))
        let state = try expectState(try await h.app.signInV2(parameters: h.v2Parameters), MSALNativeAuthCodeRequiredState.self)
        h.v2(V2Fixture.path("auth/methods/email/m-e1/challenge"), 200, V2Fixture.verify("m-e1", "email", codeLength: 8, token: "c2b"))
        let again = try expectState(try await state.resendCode(), MSALNativeAuthCodeRequiredState.self)
        #expect(again.core.continuation.token == "c2b")
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    // MARK: 6.2 several first factors, password chosen, email MFA

    @Test func firstFactorSelectionPasswordAndEmailMFA() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.challenge("singleFactor", V2Fixture.firstFactors, token: "c1"))
        let selection = try expectState(
            try await h.app.signInV2(parameters: h.v2Parameters), MSALNativeAuthAuthMethodSelectionRequiredState.self)
        #expect(selection.purpose == .firstFactor && selection.authMethods.map(\.id) == ["m-p", "m-e"])

        h.v2(V2Fixture.path("auth/methods/password/m-p/challenge"), 200, V2Fixture.verify("m-p", "password", token: "c2"))
        let password = try expectState(
            try await selection.selectAuthMethod(selection.authMethods[0]), MSALNativeAuthPasswordRequiredState.self)

        let passwordVerify = V2Fixture.path("auth/methods/password/m-p/verify")
        h.v2(passwordVerify, 400, V2Fixture.halError("invalidGrant", "AADSTS50126: Wrong.", inner: "invalidUserNameOrPassword"))
        let wrong = try await flowError { () async throws(MSALNativeAuthFlowError) in try await password.submitPassword("nope") }
        #expect(wrong.isInvalidPassword)

        h.v2(passwordVerify, 200, V2Fixture.challenge("multiFactor", V2Fixture.mfaMethods, token: "c3"))
        let mfa = try expectState(try await password.submitPassword(Fixture.password), MSALNativeAuthAuthMethodSelectionRequiredState.self)
        #expect(mfa.purpose == .mfa && mfa.authMethods.count == 2)
        #expect(h.stub.receivedRequests.last?.jsonBody == ["continuationToken": "c2", "password": Fixture.password])

        h.v2(
            V2Fixture.path("auth/methods/email/7f1c-a001/challenge"), 200,
            V2Fixture.verify("7f1c-a001", "email", codeLength: 8, token: "c4"))
        let code = try expectState(try await mfa.selectAuthMethod(mfa.authMethods[0]), MSALNativeAuthMFAVerificationRequiredState.self)
        #expect(code.channel.isEmailType && code.codeLength == 8)

        let mfaVerify = V2Fixture.path("auth/methods/email/7f1c-a001/verify")
        h.v2(mfaVerify, 400, V2Fixture.halError("invalidGrant", "AADSTS50181: Wrong code.", inner: "invalidOneTimeCode"))
        let wrongCode = try await flowError { () async throws(MSALNativeAuthFlowError) in try await code.submitChallenge("00000000") }
        #expect(wrongCode.isInvalidChallenge && wrongCode.isInvalidCode)

        // After a wrong code the app selects again on the same selection state (MSAL has no local
        // guard: docs/decisions.md#native-auth-v2): the request goes out with the selection's token.
        h.v2(
            V2Fixture.path("auth/methods/sms/7f1c-a002/challenge"), 200,
            V2Fixture.verify("7f1c-a002", "sms", codeLength: 6, token: "c5"))
        let again = try expectState(try await mfa.selectAuthMethod(mfa.authMethods[1]), MSALNativeAuthMFAVerificationRequiredState.self)
        #expect(again.codeLength == 6 && h.stub.receivedRequests.last?.jsonBody == ["continuationToken": "c3"])

        h.v2Finish(after: mfaVerify)
        guard case .completed = try await code.submitChallenge(Fixture.code) else { throw UnexpectedOutcome("expected completion") }
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func oneMFAMethodIsStillASelection() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.challenge("multiFactor", [V2Fixture.mfaMethods[0]], token: "c3"))
        let mfa = try expectState(try await h.app.signInV2(parameters: h.v2Parameters), MSALNativeAuthAuthMethodSelectionRequiredState.self)
        #expect(mfa.purpose == .mfa && mfa.authMethods.count == 1)
        #expect(h.stubProblems.isEmpty)
    }

    @Test func upfrontPasswordAnswersTheOnePasswordFactor() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.challenge("singleFactor", [V2Fixture.method("m-p", "password")], token: "c1"))
        h.v2(V2Fixture.path("auth/methods/password/m-p/challenge"), 200, V2Fixture.verify("m-p", "password", token: "c2"))
        h.v2Finish(after: V2Fixture.path("auth/methods/password/m-p/verify"))
        let parameters = MSALNativeAuthSignInParameters(username: Fixture.username)
        parameters.password = Fixture.password
        guard case .completed = try await h.app.signInV2(parameters: parameters) else { throw UnexpectedOutcome("expected completion") }
        #expect(h.stub.receivedRequests[3].jsonBody == ["continuationToken": "c2", "password": Fixture.password])
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func upfrontPasswordIsNotUsedAfterASelection() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.challenge("singleFactor", V2Fixture.firstFactors, token: "c1"))
        let parameters = MSALNativeAuthSignInParameters(username: Fixture.username)
        parameters.password = Fixture.password
        let selection = try expectState(
            try await h.app.signInV2(parameters: parameters), MSALNativeAuthAuthMethodSelectionRequiredState.self)
        h.v2(V2Fixture.path("auth/methods/password/m-p/challenge"), 200, V2Fixture.verify("m-p", "password", token: "c2"))
        _ = try expectState(try await selection.selectAuthMethod(selection.authMethods[0]), MSALNativeAuthPasswordRequiredState.self)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    // MARK: 6.3 SMS second factor with the risk hop

    func smsMFAState(_ h: Harness) async throws -> MSALNativeAuthAuthMethodSelectionRequiredState {
        h.v2Start(V2Fixture.challenge("multiFactor", V2Fixture.mfaMethods, token: "c3"))
        return try expectState(try await h.app.signInV2(parameters: h.v2Parameters), MSALNativeAuthAuthMethodSelectionRequiredState.self)
    }

    @Test func smsMFAWithOneRiskHop() async throws {
        let h = try Harness()
        let mfa = try await smsMFAState(h)
        h.v2(V2Fixture.path("auth/methods/sms/7f1c-a002/challenge"), 200, V2Fixture.riskVerify(token: "r1"))
        h.v2(
            V2Fixture.path("risk/phone/verify"), 200,
            V2Fixture.verify("7f1c-a002", "sms", hint: "+*******0100", codeLength: 6, token: "r2", payload: true))
        let code = try expectState(try await mfa.selectAuthMethod(mfa.authMethods[1]), MSALNativeAuthMFAVerificationRequiredState.self)
        #expect(code.channel.isSMSType && code.codeLength == 6 && code.sentTo == "+*******0100")
        #expect(h.stub.receivedRequests.last?.jsonBody == ["continuationToken": "r1"])

        h.v2(V2Fixture.path("auth/methods/sms/7f1c-a002/challenge"), 200, V2Fixture.verify("7f1c-a002", "sms", codeLength: 6, token: "r3"))
        let resent = try expectState(try await code.resendChallenge(), MSALNativeAuthMFAVerificationRequiredState.self)
        h.v2Finish(after: V2Fixture.path("auth/methods/sms/7f1c-a002/verify"))
        guard case .completed = try await resent.submitChallenge("271828") else { throw UnexpectedOutcome("expected completion") }
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func aSecondRiskHopInARowIsAnError() async throws {
        let h = try Harness()
        let mfa = try await smsMFAState(h)
        h.v2(V2Fixture.path("auth/methods/sms/7f1c-a002/challenge"), 200, V2Fixture.riskVerify(token: "r1"))
        h.v2(V2Fixture.path("risk/phone/verify"), 200, V2Fixture.riskVerify(token: "r2"))
        let error = try await flowError { () async throws(MSALNativeAuthFlowError) in try await mfa.selectAuthMethod(mfa.authMethods[1]) }
        #expect(error.isGeneralError)
        #expect(h.stub.receivedRequests.count == 4)
    }

    @Test func aRiskHopAfterAnEmailChallengeIsAnError() async throws {
        let h = try Harness()
        let mfa = try await smsMFAState(h)
        h.v2(V2Fixture.path("auth/methods/email/7f1c-a001/challenge"), 200, V2Fixture.riskVerify(token: "r1"))
        let error = try await flowError { () async throws(MSALNativeAuthFlowError) in try await mfa.selectAuthMethod(mfa.authMethods[0]) }
        #expect(error.isGeneralError)
        #expect(h.stub.receivedRequests.count == 3)
    }

    @Test func aBlockedPhoneIsAuthMethodBlocked() async throws {
        let h = try Harness()
        let mfa = try await smsMFAState(h)
        h.v2(V2Fixture.path("auth/methods/sms/7f1c-a002/challenge"), 200, V2Fixture.riskVerify(token: "r1"))
        h.v2(
            V2Fixture.path("risk/phone/verify"), 400,
            V2Fixture.halError("accessDenied", "AADSTS550024: Blocked.", inner: "providerBlockedByRep"))
        let error = try await flowError { () async throws(MSALNativeAuthFlowError) in try await mfa.selectAuthMethod(mfa.authMethods[1]) }
        #expect(error.isAuthMethodBlocked && error.errorCodes == [550024])
    }
}
