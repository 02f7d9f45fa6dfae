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

    // MARK: 6.4 just-in-time registration

    @Test func justInTimeRegistrationOfAPhone() async throws {
        let h = try Harness()
        let registration = try await h.v2RegistrationState()
        #expect(registration.authMethods.map(\.id) == ["reg-email", "reg-sms"])

        let empty = try await flowError { () async throws(MSALNativeAuthFlowError) in
            try await registration.selectAuthMethod(registration.authMethods[1], verificationContact: "")
        }
        #expect(empty.isInvalidInput)

        h.v2(V2Fixture.path("auth/methods/sms/register"), 200, V2Fixture.riskVerify(token: "j2"))
        h.v2(V2Fixture.path("risk/phone/verify"), 200, V2Fixture.activate(token: "j3"))
        let activation = try expectState(
            try await registration.selectAuthMethod(registration.authMethods[1], verificationContact: "+15550123"),
            MSALNativeAuthStrongAuthVerificationRequiredState.self)
        #expect(activation.channel.isSMSType && activation.codeLength == 6 && activation.sentTo == "+*******0123")
        #expect(h.stub.receivedRequests[4].jsonBody == ["continuationToken": "j1", "target": "+15550123"])

        let activate = V2Fixture.path("auth/methods/sms/9b2e/activate")
        h.v2(activate, 400, V2Fixture.halError("invalidGrant", "AADSTS50181: Wrong code.", inner: "invalidOneTimeCode"))
        let wrong = try await flowError { () async throws(MSALNativeAuthFlowError) in try await activation.submitChallenge("000000") }
        #expect(wrong.isInvalidChallenge && wrong.isInvalidCode)

        h.v2Finish(after: activate)
        guard case .completed = try await activation.submitChallenge("271828") else { throw UnexpectedOutcome("expected completion") }
        #expect(h.stub.receivedRequests[7].jsonBody == ["continuationToken": "j3", "code": "271828"])
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func registeringThePreverifiedSignInAddressFinishesAtOnce() async throws {
        let h = try Harness()
        let registration = try await h.v2RegistrationState()
        h.v2Finish(after: V2Fixture.path("auth/methods/email/register"))
        guard case .completed = try await registration.selectAuthMethod(registration.authMethods[0], verificationContact: Fixture.username)
        else { throw UnexpectedOutcome("expected completion") }
        #expect(h.stub.receivedRequests[4].jsonBody == ["continuationToken": "j1", "target": Fixture.username])
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    /// The `async` twin of `selectAuthMethod(_:delegate:)`: no contact, for a method that already
    /// has a destination (no `target` sent); without one it is `isInvalidInput` and nothing is sent.
    @Test func registrationWithoutAContactUsesTheMethodsDestination() async throws {
        let h = try Harness()
        let registration = try await h.v2RegistrationState(emailHint: "g****e@e****e")

        let noDestination = try await flowError { () async throws(MSALNativeAuthFlowError) in
            try await registration.selectAuthMethod(registration.authMethods[1])
        }
        #expect(noDestination.isInvalidInput && h.stub.receivedRequests.count == 4)

        h.v2(V2Fixture.path("auth/methods/email/register"), 200, V2Fixture.activate(token: "j3"))
        _ = try expectState(
            try await registration.selectAuthMethod(registration.authMethods[0]), MSALNativeAuthStrongAuthVerificationRequiredState.self)
        #expect(h.stub.receivedRequests[4].jsonBody == ["continuationToken": "j1"])
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func aBlockedContactIsVerificationContactBlocked() async throws {
        let h = try Harness()
        let registration = try await h.v2RegistrationState()
        h.v2(
            V2Fixture.path("auth/methods/sms/register"), 400,
            V2Fixture.halError("accessDenied", "AADSTS550024: Blocked.", inner: "providerBlockedByRep"))
        let error = try await flowError { () async throws(MSALNativeAuthFlowError) in
            try await registration.selectAuthMethod(registration.authMethods[1], verificationContact: "+15550199")
        }
        #expect(error.isVerificationContactBlocked && !error.isAuthMethodBlocked)
    }

    // MARK: 6.8 browser fallback

    @Test func browserFallbackFromAnInteraction() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.webFallbackHAL, status: 400)
        let error = try await flowError { () async throws(MSALNativeAuthFlowError) in try await h.app.signInV2(parameters: h.v2Parameters) }
        #expect(error.isBrowserRequired && error.errorDescription == "Sign-in must continue in a web browser.")
    }

    @Test func browserFallbackFromTheEntry() async throws {
        let h = try Harness()
        h.v2(
            V2Fixture.entryPath, 400,
            ["error": "invalid_grant", "suberror": "web_redirect_required", "error_description": "Use a browser."])
        let error = try await flowError { () async throws(MSALNativeAuthFlowError) in try await h.app.signInV2(parameters: h.v2Parameters) }
        #expect(error.isBrowserRequired)
    }

    // MARK: Links, retries, errors

    @Test func aLinkToAnotherHostIsRefusedAndNothingIsSent() async throws {
        let h = try Harness()
        let evil = V2Fixture.method("m-e1", "email", href: "https://evil.example.com/contoso.onmicrosoft.com/api/v2.0/challenge")
        h.v2Start(V2Fixture.challenge("singleFactor", [evil], token: "c1"))
        let error = try await flowError { () async throws(MSALNativeAuthFlowError) in try await h.app.signInV2(parameters: h.v2Parameters) }
        #expect(error.isGeneralError)
        #expect(h.stub.receivedRequests.count == 2)
        #expect(!h.stub.receivedRequests.contains { $0.url.host == "evil.example.com" })
    }

    @Test func theEntryIsRetriedOnceButAnInteractionIsNot() async throws {
        let h = try Harness()
        h.v2(V2Fixture.entryPath, 503, ["error": "temporarily_unavailable"])
        h.v2Start(V2Fixture.halError("serverError", "AADSTS50000: Failure."), status: 500)
        let error = try await flowError { () async throws(MSALNativeAuthFlowError) in try await h.app.signInV2(parameters: h.v2Parameters) }
        #expect(error.isGeneralError && error.serverError == "serverError" && error.errorCodes == [50000])
        #expect(h.stub.receivedRequests.count == 3)
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
    }

    @Test func userNotFoundAtStart() async throws {
        let h = try Harness()
        var body = V2Fixture.halError("invalidRequest", "AADSTS50034: No such user.", inner: "userNotFound")
        var error = body["error"] as! [String: Any]
        error["correlationId"] = Fixture.echoedCorrelation.uuidString
        body["error"] = error
        h.v2Start(body, status: 400)
        let thrown = try await flowError { () async throws(MSALNativeAuthFlowError) in try await h.app.signInV2(parameters: h.v2Parameters)
        }
        #expect(thrown.isUserNotFound && thrown.correlationId == Fixture.echoedCorrelation)
    }

    @Test func scopesAndClaimsReachTheEntryAndTheToken() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.challenge("singleFactor", [V2Fixture.method("m-p", "password")], token: "c1"))
        h.v2(V2Fixture.path("auth/methods/password/m-p/challenge"), 200, V2Fixture.verify("m-p", "password", token: "c2"))
        let parameters = h.v2Parameters
        parameters.scopes = ["api://todo/ToDoList.Read", "openid"]
        let state = try expectState(try await h.app.signInV2(parameters: parameters), MSALNativeAuthPasswordRequiredState.self)
        h.v2Finish(after: V2Fixture.path("auth/methods/password/m-p/verify"))
        _ = try await state.submitPassword(Fixture.password)
        let scope = "api://todo/ToDoList.Read openid profile offline_access"
        #expect(h.stub.receivedRequests[0].formFields["scope"] == scope)
        #expect(h.stub.receivedRequests.last?.formFields["scope"] == scope)
    }

    // MARK: Logging and limits

    @Test func noTokenCodeOrPasswordIsLogged() async throws {
        let h = try Harness()
        let secretTokens = ["CT-ENTRY-7Qx", "CT-ONE-8Ry", "CT-TWO-9Sz", "CT-DONE-0Ta"]
        var entry = V2Fixture.entry
        entry["continuation_token"] = secretTokens[0]
        h.v2(V2Fixture.entryPath, 401, entry)
        h.v2(V2Fixture.startPath, 200, V2Fixture.challenge("singleFactor", [V2Fixture.method("m-p", "password")], token: secretTokens[1]))
        h.v2(V2Fixture.path("auth/methods/password/m-p/challenge"), 200, V2Fixture.verify("m-p", "password", token: secretTokens[2]))
        h.v2Finish(after: V2Fixture.path("auth/methods/password/m-p/verify"), token: secretTokens[3])
        let parameters = MSALNativeAuthSignInParameters(username: Fixture.username)
        parameters.password = Fixture.password
        guard case .completed = try await h.app.signInV2(parameters: parameters) else { throw UnexpectedOutcome("expected completion") }
        let text = h.log.text
        #expect(text.contains("/api/v2.0/signin/start"))
        for secret in secretTokens + [Fixture.password, V2Fixture.code, Fixture.username, "AT-secret-value", "RT-secret-value"] {
            #expect(!text.contains(secret), "the log holds \(secret)")
        }
    }

    /// One-time codes (first factor, second factor, registration) and the contact a user registers
    /// (phone and email `target`) never reach the logs with PII logging off, wrong attempts included.
    @Test func noOneTimeCodeOrRegisteredContactIsLogged() async throws {
        let h = try Harness()
        let firstCode = "OTP-FIRST-31415"
        let mfaCode = "OTP-MFA-27182"
        let activationCode = "OTP-JIT-16180"
        let phone = "+15550142"
        let email = "jit.contact@example.org"
        h.v2Start(V2Fixture.challenge("singleFactor", V2Fixture.emailMethods, token: "c1"))
        h.v2(V2Fixture.path("auth/methods/email/m-e1/challenge"), 200, V2Fixture.verify("m-e1", "email", codeLength: 8, token: "c2"))
        let code = try expectState(try await h.app.signInV2(parameters: h.v2Parameters), MSALNativeAuthCodeRequiredState.self)
        let verify = V2Fixture.path("auth/methods/email/m-e1/verify")
        h.v2(verify, 400, V2Fixture.halError("invalidGrant", "AADSTS50181: The code is wrong.", inner: "invalidOneTimeCode"))
        _ = try await flowError { () async throws(MSALNativeAuthFlowError) in try await code.submitCode("OTP-WRONG-00000") }
        h.v2(verify, 200, V2Fixture.challenge("multiFactor", V2Fixture.mfaMethods, token: "c3"))
        let mfa = try expectState(try await code.submitCode(firstCode), MSALNativeAuthAuthMethodSelectionRequiredState.self)

        h.v2(V2Fixture.path("auth/methods/email/7f1c-a001/challenge"), 200, V2Fixture.verify("7f1c-a001", "email", token: "c4"))
        let challenge = try expectState(try await mfa.selectAuthMethod(mfa.authMethods[0]), MSALNativeAuthMFAVerificationRequiredState.self)
        h.v2(V2Fixture.path("auth/methods/email/7f1c-a001/verify"), 200, V2Fixture.register(token: "j1"))
        let registration = try expectState(
            try await challenge.submitChallenge(mfaCode), MSALNativeAuthStrongAuthRegistrationRequiredState.self)

        h.v2(
            V2Fixture.path("auth/methods/sms/register"), 400,
            V2Fixture.halError("accessDenied", "AADSTS550024: Blocked.", inner: "providerBlockedByRep"))
        _ = try await flowError { () async throws(MSALNativeAuthFlowError) in
            try await registration.selectAuthMethod(registration.authMethods[1], verificationContact: phone)
        }
        h.v2(V2Fixture.path("auth/methods/email/register"), 200, V2Fixture.activate(token: "j3"))
        let activation = try expectState(
            try await registration.selectAuthMethod(registration.authMethods[0], verificationContact: email),
            MSALNativeAuthStrongAuthVerificationRequiredState.self)
        h.v2Finish(after: V2Fixture.path("auth/methods/sms/9b2e/activate"))
        guard case .completed = try await activation.submitChallenge(activationCode) else { throw UnexpectedOutcome("expected completion") }
        #expect(h.stubProblems.isEmpty, "\(h.stubProblems)")
        #expect(h.stub.receivedRequests[8].jsonBody == ["continuationToken": "j1", "target": email])

        let text = h.log.text
        #expect(text.contains("members code,continuationToken") && text.contains("members continuationToken,target"))
        for secret in [firstCode, mfaCode, activationCode, "OTP-WRONG-00000", phone, email, "jit.contact", "5550142"] {
            #expect(!text.contains(secret), "the log holds \(secret)")
        }
    }

    @Test func aBodyOverTheCapIsAGeneralError() async throws {
        let h = try Harness { $0.maxResponseBodyBytes = 2_048 }
        h.v2(V2Fixture.entryPath, 401, V2Fixture.entry)
        var huge = V2Fixture.challenge("singleFactor", V2Fixture.emailMethods, token: "c1")
        huge["padding"] = String(repeating: "x", count: 4_096)
        h.v2(V2Fixture.startPath, 200, huge)
        let error = try await flowError { () async throws(MSALNativeAuthFlowError) in try await h.app.signInV2(parameters: h.v2Parameters) }
        #expect(error.isGeneralError && error.underlyingError != nil)
        #expect(h.stub.receivedRequests.count == 2)
    }
}
