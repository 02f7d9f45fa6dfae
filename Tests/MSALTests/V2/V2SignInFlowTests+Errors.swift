import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// The V2 sign-in journeys, continued: links, retries and errors; what is never logged; limits.
extension V2SignInFlowTests {
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
