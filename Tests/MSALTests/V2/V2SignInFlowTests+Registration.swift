import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// The V2 sign-in journeys, continued: just-in-time registration and the browser fallback.
extension V2SignInFlowTests {
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
}
