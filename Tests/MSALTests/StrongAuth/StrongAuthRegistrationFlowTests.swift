import Foundation
import MSAL
import NativeAuthTesting
import Testing

@testable import MSAL

@Suite struct StrongAuthRegistrationFlowTests {
    @Test func registrationSendsTheContactThenTheCodeThenSignsIn() async throws {
        let h = try Harness()
        let (methods, state) = try await h.registration()
        #expect(methods.map(\.id) == ["email", "sms"] && methods[1].loginHint == nil)
        h.stub.expect(
            path: "/register/v1.0/challenge", reply: StrongAuthFixture.registerChallenge(),
            check: StrongAuthFixture.fields([
                "continuation_token": "Tj", "challenge_type": "oob", "challenge_target": StrongAuthFixture.phone,
                "challenge_channel": "sms",
            ]))
        let parameters = MSALNativeAuthChallengeAuthMethodParameters(authMethod: methods[1], verificationContact: " +15550100 ")
        guard case .verificationRequired(let sent) = try await state.challengeAuthMethod(parameters: parameters) else { return }
        #expect(sent.sentTo == StrongAuthFixture.phone && sent.channelTargetType.isSMSType && sent.codeLength == 8)

        h.stub.expect(path: "/register/v1.0/continue", reply: StrongAuthFixture.invalidCode)
        let wrong = try await #require(throws: RegisterStrongAuthSubmitChallengeError.self) {
            try await sent.newState.submitChallenge(challenge: "00000000")
        }
        #expect(wrong.isInvalidChallenge)

        h.stub.expect(
            path: "/register/v1.0/continue", reply: .json(200, ["continuation_token": "Tz"]),
            check: StrongAuthFixture.fields(["continuation_token": "Tk", "grant_type": "oob", "oob": Fixture.code]))
        h.stub.expect(
            path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()),
            check: StrongAuthFixture.fields([
                "continuation_token": "Tz", "grant_type": "continuation_token", "username": nil, "challenge_type": "oob password redirect",
            ]))
        let result = try await sent.newState.submitChallenge(challenge: Fixture.code)
        #expect(result.account.username == Fixture.username)
        #expect(h.stub.unusedStubs.isEmpty && h.stub.mismatches.isEmpty)
    }

    @Test func preverifiedContactRegistersAndSignsInAtOnce() async throws {
        let h = try Harness()
        let (methods, state) = try await h.registration()
        h.stub.expect(path: "/register/v1.0/challenge", reply: .json(200, ["continuation_token": "Tk", "challenge_type": "preverified"]))
        h.stub.expect(
            path: "/register/v1.0/continue", reply: .json(200, ["continuation_token": "Tz"]),
            check: StrongAuthFixture.fields(["continuation_token": "Tk", "grant_type": "continuation_token", "oob": nil]))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))
        let parameters = MSALNativeAuthChallengeAuthMethodParameters(authMethod: methods[0], verificationContact: Fixture.username)
        guard case .completed = try await state.challengeAuthMethod(parameters: parameters) else {
            Issue.record("expected .completed")
            return
        }
        #expect(h.stub.unusedStubs.isEmpty && h.stub.mismatches.isEmpty)
    }

    @Test func emptyContactAndEmptyCodeAreRefusedWithoutARequest() async throws {
        let h = try Harness()
        let (methods, state) = try await h.registration()
        let count = h.stub.receivedRequests.count
        let empty = try await #require(throws: RegisterStrongAuthChallengeError.self) {
            try await state.challengeAuthMethod(
                parameters: MSALNativeAuthChallengeAuthMethodParameters(authMethod: methods[0], verificationContact: "  "))
        }
        #expect(empty.isInvalidInput && empty.errorDescription == "Invalid input")
        #expect(h.stub.receivedRequests.count == count && !state.lifecycle.hasEnded)
    }

    @Test func invalidAndBlockedContactsKeepTheStateUsable() async throws {
        let h = try Harness()
        let (methods, state) = try await h.registration()
        let parameters = MSALNativeAuthChallengeAuthMethodParameters(authMethod: methods[1], verificationContact: "12")
        h.stub.expect(path: "/register/v1.0/challenge", reply: .json(400, Fixture.apiError("invalid_request", codes: [901001])))
        let invalid = try await #require(throws: RegisterStrongAuthChallengeError.self) {
            try await state.challengeAuthMethod(parameters: parameters)
        }
        #expect(invalid.isInvalidInput && !invalid.isVerificationContactBlocked)
        h.stub.expect(path: "/register/v1.0/challenge", reply: StrongAuthFixture.blocked)
        let blocked = try await #require(throws: RegisterStrongAuthChallengeError.self) {
            try await state.challengeAuthMethod(parameters: parameters)
        }
        #expect(blocked.isVerificationContactBlocked && !blocked.isInvalidInput)
        h.stub.expect(path: "/register/v1.0/challenge", reply: .json(400, Fixture.apiError("invalid_request", codes: [90100])))
        let other = try await #require(throws: RegisterStrongAuthChallengeError.self) {
            try await state.challengeAuthMethod(parameters: parameters)
        }
        #expect(!other.isInvalidInput && !other.isVerificationContactBlocked && !other.isBrowserRequired)
        #expect(!state.lifecycle.hasEnded)
    }

    @Test func redirectEndsTheRegistration() async throws {
        let h = try Harness()
        let (methods, state) = try await h.registration()
        h.stub.expect(path: "/register/v1.0/challenge", reply: .json(200, ["challenge_type": "redirect"]))
        let error = try await #require(throws: RegisterStrongAuthChallengeError.self) {
            try await state.challengeAuthMethod(
                parameters: MSALNativeAuthChallengeAuthMethodParameters(
                    authMethod: methods[0], verificationContact: StrongAuthFixture.backupEmail))
        }
        #expect(error.isBrowserRequired && state.lifecycle.hasEnded)
    }

    @Test func aFailedTokenCallAfterRegistrationEndsTheFlow() async throws {
        let h = try Harness()
        let (methods, state) = try await h.registration()
        h.stub.expect(path: "/register/v1.0/challenge", reply: StrongAuthFixture.registerChallenge())
        guard
            case .verificationRequired(let sent) = try await state.challengeAuthMethod(
                parameters: MSALNativeAuthChallengeAuthMethodParameters(
                    authMethod: methods[1], verificationContact: StrongAuthFixture.phone))
        else { return }
        h.stub.expect(path: "/register/v1.0/continue", reply: .json(200, ["continuation_token": "Tz"]))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(400, Fixture.apiError("expired_token", codes: [552003])))
        let error = try await #require(throws: RegisterStrongAuthSubmitChallengeError.self) {
            try await sent.newState.submitChallenge(challenge: Fixture.code)
        }
        #expect(!error.isInvalidChallenge && error.errorCodes == [552003])
        #expect(sent.newState.lifecycle.hasEnded)
    }

    @Test func theCodeStateCanSendAnotherCodeOrUseAnotherContact() async throws {
        let h = try Harness()
        let (methods, state) = try await h.registration()
        h.stub.expect(path: "/register/v1.0/challenge", reply: StrongAuthFixture.registerChallenge())
        guard
            case .verificationRequired(let sent) = try await state.challengeAuthMethod(
                parameters: MSALNativeAuthChallengeAuthMethodParameters(
                    authMethod: methods[1], verificationContact: StrongAuthFixture.phone))
        else { return }
        h.stub.expect(
            path: "/register/v1.0/challenge",
            reply: StrongAuthFixture.registerChallenge(token: "Tk2", target: StrongAuthFixture.backupEmail, channel: "email"),
            check: StrongAuthFixture.fields(["continuation_token": "Tk", "challenge_target": StrongAuthFixture.backupEmail]))
        guard
            case .verificationRequired(let again) = try await sent.newState.challengeAuthMethod(
                parameters: MSALNativeAuthChallengeAuthMethodParameters(
                    authMethod: methods[0], verificationContact: StrongAuthFixture.backupEmail))
        else { return }
        #expect(again.newState.continuationToken == "Tk2" && again.channelTargetType.isEmailType)
    }

    @Test func contactsAndCodesStayOutOfTheLog() async throws {
        let h = try Harness()
        let (methods, state) = try await h.registration()
        h.stub.expect(path: "/register/v1.0/challenge", reply: StrongAuthFixture.registerChallenge())
        guard
            case .verificationRequired(let sent) = try await state.challengeAuthMethod(
                parameters: MSALNativeAuthChallengeAuthMethodParameters(
                    authMethod: methods[1], verificationContact: StrongAuthFixture.phone))
        else { return }
        h.stub.expect(path: "/register/v1.0/continue", reply: .json(200, ["continuation_token": "Tz"]))
        h.stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody()))
        _ = try await sent.newState.submitChallenge(challenge: Fixture.code)
        for secret in [StrongAuthFixture.phone, "0100", Fixture.code, "Tk", "Tz"] {
            #expect(!h.log.text.contains(secret), "the log shows \(secret)")
        }
    }
}
