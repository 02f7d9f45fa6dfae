import Foundation
import MSAL
import TestSupport
import Testing

@testable import MSAL

/// `SignUpMachine` on its own: answers in, decisions out, nothing sent and no SDK around it.
@Suite struct SignUpMachineTests {
    private let token = Continuation("T0", Fixture.correlation)

    private var starting: SignUpMachine {
        var machine = SignUpMachine()
        _ = machine.start(username: Fixture.username, password: nil, attributes: .success(nil), correlationId: Fixture.correlation)
        return machine
    }
    /// A machine that has had `/start` answered and waits for the first challenge.
    private func sendingCode() throws -> SignUpMachine {
        var machine = starting
        _ = try call(machine.startAnswered(.success(ContinuationTokenResponse(continuationToken: "T0")), correlationId: Answer.first))
        return machine
    }
    private func verifying(_ step: (inout SignUpMachine) -> SignUpMachine.Action) throws -> SignUpMachine {
        var machine = SignUpMachine()
        _ = try call(step(&machine))
        return machine
    }
    private func verifyingCode() throws -> SignUpMachine { try verifying { $0.submitCode(Fixture.code, on: token) } }
    private func resendingCode() throws -> SignUpMachine { try verifying { $0.resendCode(on: token) } }
    private func verifyingPassword() throws -> SignUpMachine { try verifying { $0.submitPassword(Fixture.password, on: token) } }
    private func verifyingAttributes() throws -> SignUpMachine { try verifying { $0.submitAttributes(.success(#"{"a":1}"#), on: token) } }
    /// A machine whose code was accepted, waiting for the challenge that asks for the password.
    private func requestingPassword() throws -> SignUpMachine {
        var machine = try verifyingCode()
        _ = try call(machine.continued(.apiError(Answer.error(.credentialRequired, token: "T2")), correlationId: Answer.first))
        return machine
    }

    // MARK: Checks before anything is sent

    @Test func theStartRefusesAnEmptyUsernameAnEmptyPasswordAndUnencodableAttributesBeforeSending() throws {
        func start(_ username: String, _ password: String?, _ attributes: Result<String?, SetupError>) -> SignUpMachine.Action {
            var machine = SignUpMachine()
            return machine.start(username: username, password: password, attributes: attributes, correlationId: Fixture.correlation)
        }
        let username = try failure(start("", nil, .success(nil)))
        #expect(username.kind == .invalidUsername && username.details.message == NativeAuthErrorMessage.invalidUsername)
        #expect(try failure(start(Fixture.username, "", .success(nil))).kind == .invalidPassword)
        let unencodable = try failure(start(Fixture.username, nil, .failure(SetupError(.invalidJSON, "not JSON"))))
        #expect(unencodable.kind == .generalError && unencodable.details.message == "not JSON")
        let sent = try call(start(Fixture.username, "pw", .success(#"{"a":1}"#)))
        #expect(sent == .start(username: Fixture.username, password: "pw", attributes: #"{"a":1}"#, correlationId: Fixture.correlation))
    }

    @Test func anEmptyCodeOrPasswordIsRefusedBeforeSending() throws {
        var code = SignUpMachine()
        #expect(try failure(code.submitCode("", on: token)).kind == .invalidCode)
        var password = SignUpMachine()
        #expect(try failure(password.submitPassword("", on: token)).kind == .invalidPassword)
        #expect(code.state == .done && password.state == .done)
    }

    @Test func attributesDefaultToAnEmptyObjectAndUnencodableOnesAreAGeneralError() throws {
        var none = SignUpMachine()
        #expect(try call(none.submitAttributes(.success(nil), on: token)) == .continueSignUp(.attributes("{}"), token))
        var bad = SignUpMachine()
        let failure = try failure(bad.submitAttributes(.failure(SetupError(.invalidJSON, "bad")), on: token))
        #expect(failure.kind == .generalError && failure.details.message == "bad" && !failure.endsFlow)
    }

    // MARK: Start

    @Test func aStartTokenLeadsToTheChallengeWithTheEchoedCorrelationId() throws {
        var machine = starting
        let next = try call(
            machine.startAnswered(.success(ContinuationTokenResponse(continuationToken: "T0")), correlationId: Answer.first))
        #expect(next == .challenge(Continuation("T0", Answer.first)))
        #expect(machine.state == .sendingCode(startCorrelationId: Answer.first))
    }

    @Test func startErrorsMapToTheirKinds() throws {
        func kind(_ error: NativeAuthAPIError) throws -> NativeAuthErrorKind {
            var machine = starting
            let failure = try failure(machine.startAnswered(.apiError(error), correlationId: Answer.first))
            #expect(machine.state == .done && failure.details.correlationId == Answer.first)
            return failure.kind
        }
        #expect(try kind(Answer.error(.invalidGrant, .passwordTooWeak)) == .invalidPassword)
        #expect(try kind(Answer.error(.invalidGrant, .passwordBanned)) == .invalidPassword)
        #expect(try kind(Answer.error(.userAlreadyExists)) == .userAlreadyExists)
        #expect(
            try kind(Answer.error(.invalidRequest, codes: [90100], description: "AADSTS90100: username parameter is empty or not valid"))
                == .invalidUsername)
        #expect(try kind(Answer.error(.invalidRequest, codes: [90100], description: "AADSTS90100: password is empty")) == .generalError)
        #expect(try kind(Answer.error(.invalidGrant)) == .generalError)
        #expect(try kind(Answer.error(.unauthorizedClient)) == .generalError)
    }

    @Test func startErrorsWithoutADescriptionGetTheKindsFixedText() throws {
        var machine = starting
        let failure = try failure(
            machine.startAnswered(.apiError(Answer.error(.userAlreadyExists, description: nil)), correlationId: Answer.first))
        #expect(failure.details.message == NativeAuthErrorMessage.userAlreadyExists)
        #expect(failure.details.serverError == "user_already_exists")
    }

    @Test func refusedAttributesAtStartAreAResultNotAnError() throws {
        var machine = starting
        let answer = Answer.error(.invalidGrant, .attributeValidationFailed, invalid: ["age"])
        guard case .attributesInvalid(let names) = try result(machine.startAnswered(.apiError(answer), correlationId: Answer.first)) else {
            throw UnexpectedOutcome("expected attributesInvalid")
        }
        #expect(names == ["age"])
        // Without names the answer is an ordinary general error.
        var bare = starting
        let failure = try failure(
            bare.startAnswered(.apiError(Answer.error(.invalidGrant, .attributeValidationFailed)), correlationId: Answer.first))
        #expect(failure.kind == .generalError)
    }

    @Test func aStartRedirectOrNoAnswerIsBrowserRequiredOrGeneral() throws {
        var redirected = starting
        let redirect = try failure(redirected.startAnswered(.redirect(reason: "use a browser"), correlationId: Answer.first))
        #expect(redirect.kind == .browserRequired && redirect.details.message == "use a browser")
        var unanswered = starting
        let failure = try failure(unanswered.startAnswered(.failure(Answer.unreachable), correlationId: Answer.first))
        #expect(failure.kind == .generalError && failure.details.underlyingError is MSALNativeAuthNetworkFailure)
    }

    @Test func theFirstChallengeHandsBackTheCodeState() throws {
        var machine = try sendingCode()
        guard
            case .codeRequired(let sent) = try result(machine.challengeAnswered(.success(Answer.code("T1")), correlationId: Answer.second))
        else { throw UnexpectedOutcome("expected codeRequired") }
        #expect(sent == CodeSent(next: Continuation("T1", Answer.second), sentTo: "a***@co**o.com", channel: "email", codeLength: 8))
        #expect(machine.state == .done)
    }

    @Test func theFirstChallengeMustSendACode() throws {
        var password = try sendingCode()
        let noCode = try failure(password.challengeAnswered(.success(Answer.password()), correlationId: Answer.second))
        #expect(noCode.kind == .generalError && noCode.details.message == "The server did not send a verification code")
        #expect(noCode.details.correlationId == Answer.first, "the start answer's correlation id, as before")
        var redirect = try sendingCode()
        #expect(try failure(redirect.challengeAnswered(.redirect(reason: nil), correlationId: Answer.second)).kind == .browserRequired)
        var refused = try sendingCode()
        #expect(
            try failure(refused.challengeAnswered(.apiError(Answer.error(.expiredToken)), correlationId: Answer.second)).kind
                == .generalError)
        var unanswered = try sendingCode()
        #expect(
            try failure(unanswered.challengeAnswered(.failure(Answer.unreachable), correlationId: Answer.second)).kind == .generalError
        )
    }

    // MARK: Code

    @Test func anAcceptedCodeCompletesOrAsksForAttributes() throws {
        var completing = try verifyingCode()
        guard
            case .completed("T-signin", Answer.first) = try result(
                completing.continued(.success(Answer.signedUp("T-signin")), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected completed with the token") }

        var attributes = try verifyingCode()
        let answer = Answer.error(.attributesRequired, token: "T-attr", required: ["city"])
        guard
            case .attributesRequired(let required, let next) = try result(
                attributes.continued(.apiError(answer), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected attributesRequired") }
        #expect(required.map(\.name) == ["city"] && next == Continuation("T-attr", Answer.first))
    }

    @Test func anAcceptedCodeThatNeedsACredentialAsksForThePasswordChallenge() throws {
        var machine = try verifyingCode()
        let next = try call(machine.continued(.apiError(Answer.error(.credentialRequired, token: "T2")), correlationId: Answer.first))
        #expect(next == .challenge(Continuation("T2", Answer.first)))
        #expect(machine.state == .requestingPassword)
        guard
            case .passwordRequired(let password) = try result(
                machine.challengeAnswered(.success(Answer.password("T3")), correlationId: Answer.second))
        else { throw UnexpectedOutcome("expected passwordRequired") }
        #expect(password == Continuation("T3", Answer.second))
    }

    @Test func aWrongCodeKeepsTheStateAndOtherRefusalsEndIt() throws {
        func decide(_ outcome: NativeAuthOutcome<SignUpCompletedResponse>) throws -> FlowFailure {
            var machine = try verifyingCode()
            return try failure(machine.continued(outcome, correlationId: Answer.first))
        }
        let wrong = try decide(.apiError(Answer.error(.invalidGrant, .invalidOOBValue, description: nil)))
        #expect(wrong.kind == .invalidCode && !wrong.endsFlow && wrong.details.message == NativeAuthErrorMessage.invalidCode)
        let policy = try decide(.apiError(Answer.error(.invalidGrant, .passwordTooShort)))
        #expect(policy.kind == .invalidCode && !policy.endsFlow)
        let expired = try decide(.apiError(Answer.error(.expiredToken, description: nil)))
        #expect(expired.kind == .generalError && expired.endsFlow && expired.details.message == NativeAuthErrorMessage.invalidCode)
        let otherGrant = try decide(.apiError(Answer.error(.invalidGrant)))
        #expect(otherGrant.kind == .generalError && otherGrant.endsFlow)
        let unanswered = try decide(.failure(Answer.unreachable))
        #expect(unanswered.kind == .generalError && !unanswered.endsFlow)
    }

    @Test func everyFailureOfThePasswordChallengeAfterTheCodeEndsTheFlow() throws {
        func decide(_ outcome: NativeAuthOutcome<ChallengeResponse>) throws -> FlowFailure {
            var machine = try requestingPassword()
            return try failure(machine.challengeAnswered(outcome, correlationId: Answer.second))
        }
        let redirect = try decide(.redirect(reason: nil))
        #expect(redirect.kind == .browserRequired && redirect.endsFlow)
        let refused = try decide(.apiError(Answer.error(.expiredToken)))
        #expect(refused.kind == .generalError && refused.endsFlow)
        let unanswered = try decide(.failure(Answer.unreachable))
        #expect(unanswered.kind == .generalError && unanswered.endsFlow)
        let code = try decide(.success(Answer.code()))
        #expect(code.kind == .generalError && code.endsFlow)
        #expect(
            code.details.message == "The server asked for another code instead of a password" && code.details.correlationId == Answer.second
        )
    }

    // MARK: Resend

    @Test func aResentCodeHandsBackANewState() throws {
        var machine = try resendingCode()
        guard case .codeRequired(let sent) = try result(machine.challengeAnswered(.success(Answer.code("T9")), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected codeRequired") }
        #expect(sent.next == Continuation("T9", Answer.first) && sent.codeLength == 8)
    }

    @Test func aRefusedResendKeepsTheStateWhileARedirectOrAPasswordPromptEndsIt() throws {
        func decide(_ outcome: NativeAuthOutcome<ChallengeResponse>) throws -> FlowFailure {
            var machine = try resendingCode()
            return try failure(machine.challengeAnswered(outcome, correlationId: Answer.first))
        }
        let refused = try decide(.apiError(Answer.error(.expiredToken)))
        #expect(refused.kind == .generalError && !refused.endsFlow)
        let unanswered = try decide(.failure(Answer.unreachable))
        #expect(unanswered.kind == .generalError && !unanswered.endsFlow)
        let redirect = try decide(.redirect(reason: nil))
        #expect(redirect.kind == .browserRequired && redirect.endsFlow)
        let password = try decide(.success(Answer.password()))
        #expect(password.kind == .generalError && password.endsFlow)
        #expect(password.details.message == "The server asked for a password instead of sending a new code")
    }

    // MARK: Password

    @Test func anAcceptedPasswordCompletesOrAsksForAttributes() throws {
        var completing = try verifyingPassword()
        guard case .completed(nil, Answer.first) = try result(completing.continued(.redirect(reason: nil), correlationId: Answer.first))
        else { throw UnexpectedOutcome("a redirect at continue counts as completion") }
        var attributes = try verifyingPassword()
        let answer = Answer.error(.attributesRequired, token: "T-attr", required: ["city"])
        guard case .attributesRequired = try result(attributes.continued(.apiError(answer), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected attributesRequired") }
    }

    @Test func aPolicyRefusalKeepsThePasswordStateAndOtherRefusalsEndIt() throws {
        func decide(_ outcome: NativeAuthOutcome<SignUpCompletedResponse>) throws -> FlowFailure {
            var machine = try verifyingPassword()
            return try failure(machine.continued(outcome, correlationId: Answer.first))
        }
        let weak = try decide(.apiError(Answer.error(.invalidGrant, .passwordTooWeak, description: nil)))
        #expect(weak.kind == .invalidPassword && !weak.endsFlow && weak.details.message == NativeAuthErrorMessage.invalidPassword)
        let oob = try decide(.apiError(Answer.error(.invalidGrant, .invalidOOBValue)))
        #expect(oob.kind == .generalError && !oob.endsFlow)
        let expired = try decide(.apiError(Answer.error(.expiredToken)))
        #expect(expired.kind == .generalError && expired.endsFlow)
        let again = try decide(.apiError(Answer.error(.credentialRequired, token: "T5")))
        #expect(again.kind == .generalError && again.endsFlow && again.details.message == "The server asked for a credential again")
        let unanswered = try decide(.failure(Answer.unreachable))
        #expect(unanswered.kind == .generalError && !unanswered.endsFlow)
    }

    // MARK: Attributes

    @Test func refusedAttributeValuesAreAnOutcomeNotAnError() throws {
        var machine = try verifyingAttributes()
        let answer = Answer.error(.invalidGrant, .attributeValidationFailed, invalid: ["age"])
        guard case .attributesInvalid(let names) = try result(machine.continued(.apiError(answer), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected attributesInvalid") }
        #expect(names == ["age"] && machine.state == .done)
    }

    @Test func otherAttributeAnswersCompleteAskForMoreOrEndTheFlow() throws {
        var completing = try verifyingAttributes()
        guard case .completed = try result(completing.continued(.success(Answer.signedUp(nil)), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected completed") }
        var more = try verifyingAttributes()
        guard
            case .attributesRequired = try result(
                more.continued(
                    .apiError(Answer.error(.attributesRequired, token: "T6", required: ["zip"])), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected attributesRequired") }

        func decide(_ outcome: NativeAuthOutcome<SignUpCompletedResponse>) throws -> FlowFailure {
            var machine = try verifyingAttributes()
            return try failure(machine.continued(outcome, correlationId: Answer.first))
        }
        let refused = try decide(.apiError(Answer.error(.expiredToken, description: nil)))
        #expect(refused.kind == .generalError && refused.endsFlow && refused.details.message == NativeAuthErrorMessage.generalError)
        let noNames = try decide(.apiError(Answer.error(.invalidGrant, .attributeValidationFailed)))
        #expect(noNames.kind == .generalError && noNames.endsFlow)
        let again = try decide(.apiError(Answer.error(.credentialRequired, token: "T5")))
        #expect(again.kind == .generalError && again.endsFlow)
        let unanswered = try decide(.failure(Answer.unreachable))
        #expect(unanswered.kind == .generalError && !unanswered.endsFlow)
    }
}
