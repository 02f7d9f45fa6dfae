import Foundation
import MSAL
import Testing

@testable import MSAL

/// `SignUpMachine` on its own: answers in, decisions out, nothing sent.
@Suite struct SignUpMachineTests {
    let offline: OfflineControllers
    init() throws { offline = try OfflineControllers() }

    private var codeState: SignUpCodeRequiredState {
        SignUpCodeRequiredState(
            controller: offline.signUp, username: Fixture.username, continuationToken: "T0", correlationId: Fixture.correlation)
    }
    private var passwordState: SignUpPasswordRequiredState {
        SignUpPasswordRequiredState(
            controller: offline.signUp, username: Fixture.username, continuationToken: "T0", correlationId: Fixture.correlation)
    }
    private var attributesState: SignUpAttributesRequiredState {
        SignUpAttributesRequiredState(
            controller: offline.signUp, username: Fixture.username, continuationToken: "T0", correlationId: Fixture.correlation)
    }
    private var starting: SignUpMachine {
        .start(username: Fixture.username, correlationId: Fixture.correlation, controller: offline.signUp)
    }
    /// A machine that has had `/start` answered and waits for the first challenge.
    private func sendingCode() throws -> SignUpMachine {
        var machine = starting
        _ = try call(machine.startAnswered(.success(ContinuationTokenResponse(continuationToken: "T0")), correlationId: Answer.first))
        return machine
    }
    /// A machine whose code was accepted, waiting for the challenge that asks for the password.
    private func requestingPassword() throws -> SignUpMachine {
        var machine = SignUpMachine.submitCode(on: codeState)
        _ = try call(machine.codeAnswered(.apiError(Answer.error(.credentialRequired, token: "T2")), correlationId: Answer.first))
        return machine
    }

    // MARK: Local checks

    @Test func theStartChecksRefuseAnEmptyUsernameAnEmptyPasswordAndUnencodableAttributes() throws {
        func check(_ username: String, _ password: String?, _ attributes: Result<String?, SetupError>) -> FlowFailure? {
            let request = SignUpController.StartRequest(
                username: username, password: password, attributes: attributes, correlationId: Fixture.correlation)
            guard case .failure(let failure) = SignUpMachine.checkStart(request) else { return nil }
            return failure
        }
        #expect(check("", nil, .success(nil))?.kind == .invalidUsername)
        #expect(check("", nil, .success(nil))?.details.message == NativeAuthErrorMessage.invalidUsername)
        #expect(check(Fixture.username, "", .success(nil))?.kind == .invalidPassword)
        let unencodable = check(Fixture.username, nil, .failure(SetupError(.invalidJSON, "not JSON")))
        #expect(unencodable?.kind == .generalError && unencodable?.details.message == "not JSON")
        #expect(check(Fixture.username, nil, .success(#"{"a":1}"#)) == nil)
        #expect(
            try SignUpMachine.checkStart(
                .init(username: "u", password: nil, attributes: .success("{}"), correlationId: Fixture.correlation)
            ).get() == "{}")
    }

    @Test func attributesDefaultToAnEmptyObjectAndUnencodableOnesAreAGeneralError() throws {
        #expect(try SignUpMachine.checkAttributes(.success(nil), correlationId: Fixture.correlation).get() == "{}")
        guard
            case .failure(let failure) = SignUpMachine.checkAttributes(
                .failure(SetupError(.invalidJSON, "bad")), correlationId: Fixture.correlation)
        else { throw UnexpectedOutcome("expected a failure") }
        #expect(failure.kind == .generalError && failure.details.message == "bad" && !failure.endsFlow)
    }

    // MARK: Start

    @Test func aStartTokenLeadsToTheChallengeWithTheEchoedCorrelationId() throws {
        var machine = starting
        let next = try call(
            machine.startAnswered(.success(ContinuationTokenResponse(continuationToken: "T0")), correlationId: Answer.first))
        #expect(next == .challenge(continuationToken: "T0", correlationId: Answer.first))
        #expect(machine.state == .sendingCode)
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
            case .codeRequired(let state, let sentTo, let channel, let length) = try result(
                machine.startChallengeAnswered(.success(Answer.code("T1")), correlationId: Answer.second))
        else { throw UnexpectedOutcome("expected codeRequired") }
        #expect(state.continuationToken == "T1" && state.correlationId == Answer.second && state.username == Fixture.username)
        #expect(sentTo == "a***@co**o.com" && channel.isEmailType && length == 8)
        #expect(machine.state == .done && offline.requests == 0)
    }

    @Test func theFirstChallengeMustSendACode() throws {
        var password = try sendingCode()
        let noCode = try failure(password.startChallengeAnswered(.success(Answer.password()), correlationId: Answer.second))
        #expect(noCode.kind == .generalError && noCode.details.message == "The server did not send a verification code")
        #expect(noCode.details.correlationId == Answer.first, "the start answer's correlation id, as before")
        var redirect = try sendingCode()
        #expect(try failure(redirect.startChallengeAnswered(.redirect(reason: nil), correlationId: Answer.second)).kind == .browserRequired)
        var refused = try sendingCode()
        #expect(
            try failure(refused.startChallengeAnswered(.apiError(Answer.error(.expiredToken)), correlationId: Answer.second)).kind
                == .generalError)
        var unanswered = try sendingCode()
        #expect(
            try failure(unanswered.startChallengeAnswered(.failure(Answer.unreachable), correlationId: Answer.second)).kind == .generalError
        )
    }

    // MARK: Code

    @Test func anAcceptedCodeCompletesOrAsksForAttributes() throws {
        var completing = SignUpMachine.submitCode(on: codeState)
        guard
            case .completed(let signIn) = try result(
                completing.codeAnswered(.success(Answer.signedUp("T-signin")), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected completed") }
        #expect(signIn.core.continuationToken == "T-signin" && signIn.core.correlationId == Answer.first)

        var attributes = SignUpMachine.submitCode(on: codeState)
        let answer = Answer.error(.attributesRequired, token: "T-attr", required: ["city"])
        guard
            case .attributesRequired(let required, let next) = try result(
                attributes.codeAnswered(.apiError(answer), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected attributesRequired") }
        #expect(required.map(\.name) == ["city"] && next.continuationToken == "T-attr")
    }

    @Test func anAcceptedCodeThatNeedsACredentialAsksForThePasswordChallenge() throws {
        var machine = SignUpMachine.submitCode(on: codeState)
        let next = try call(machine.codeAnswered(.apiError(Answer.error(.credentialRequired, token: "T2")), correlationId: Answer.first))
        #expect(next == .challenge(continuationToken: "T2", correlationId: Answer.first))
        #expect(machine.state == .requestingPassword)
        guard
            case .passwordRequired(let state) = try result(
                machine.passwordChallengeAnswered(.success(Answer.password("T3")), correlationId: Answer.second))
        else { throw UnexpectedOutcome("expected passwordRequired") }
        #expect(state.continuationToken == "T3" && state.correlationId == Answer.second)
    }

    @Test func aWrongCodeKeepsTheStateAndOtherRefusalsEndIt() throws {
        func decide(_ outcome: NativeAuthOutcome<SignUpCompletedResponse>) throws -> FlowFailure {
            var machine = SignUpMachine.submitCode(on: codeState)
            return try failure(machine.codeAnswered(outcome, correlationId: Answer.first))
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
            return try failure(machine.passwordChallengeAnswered(outcome, correlationId: Answer.second))
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
        var machine = SignUpMachine.resendCode(on: codeState)
        guard
            case .codeRequired(let state, _, _, let length) = try result(
                machine.resendAnswered(.success(Answer.code("T9")), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected codeRequired") }
        #expect(state.continuationToken == "T9" && length == 8)
    }

    @Test func aRefusedResendKeepsTheStateWhileARedirectOrAPasswordPromptEndsIt() throws {
        func decide(_ outcome: NativeAuthOutcome<ChallengeResponse>) throws -> FlowFailure {
            var machine = SignUpMachine.resendCode(on: codeState)
            return try failure(machine.resendAnswered(outcome, correlationId: Answer.first))
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
        var completing = SignUpMachine.submitPassword(on: passwordState)
        guard case .completed = try result(completing.passwordAnswered(.redirect(reason: nil), correlationId: Answer.first))
        else { throw UnexpectedOutcome("a redirect at continue counts as completion") }
        var attributes = SignUpMachine.submitPassword(on: passwordState)
        let answer = Answer.error(.attributesRequired, token: "T-attr", required: ["city"])
        guard case .attributesRequired = try result(attributes.passwordAnswered(.apiError(answer), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected attributesRequired") }
    }

    @Test func aPolicyRefusalKeepsThePasswordStateAndOtherRefusalsEndIt() throws {
        func decide(_ outcome: NativeAuthOutcome<SignUpCompletedResponse>) throws -> FlowFailure {
            var machine = SignUpMachine.submitPassword(on: passwordState)
            return try failure(machine.passwordAnswered(outcome, correlationId: Answer.first))
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

    @Test func refusedAttributeValuesHandBackTheSameState() throws {
        let state = attributesState
        var machine = SignUpMachine.submitAttributes(on: state)
        let answer = Answer.error(.invalidGrant, .attributeValidationFailed, invalid: ["age"])
        guard
            case .attributesInvalid(let names, let next) = try result(
                machine.attributesAnswered(.apiError(answer), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected attributesInvalid") }
        #expect(names == ["age"] && next === state)
    }

    @Test func otherAttributeAnswersCompleteAskForMoreOrEndTheFlow() throws {
        var completing = SignUpMachine.submitAttributes(on: attributesState)
        guard case .completed = try result(completing.attributesAnswered(.success(Answer.signedUp(nil)), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected completed") }
        var more = SignUpMachine.submitAttributes(on: attributesState)
        guard
            case .attributesRequired = try result(
                more.attributesAnswered(
                    .apiError(Answer.error(.attributesRequired, token: "T6", required: ["zip"])), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected attributesRequired") }

        func decide(_ outcome: NativeAuthOutcome<SignUpCompletedResponse>) throws -> FlowFailure {
            var machine = SignUpMachine.submitAttributes(on: attributesState)
            return try failure(machine.attributesAnswered(outcome, correlationId: Answer.first))
        }
        let refused = try decide(.apiError(Answer.error(.expiredToken, description: nil)))
        #expect(refused.kind == .generalError && refused.endsFlow && refused.details.message == NativeAuthErrorMessage.generalError)
        let noNames = try decide(.apiError(Answer.error(.invalidGrant, .attributeValidationFailed)))
        #expect(noNames.kind == .generalError && noNames.endsFlow)
        let again = try decide(.apiError(Answer.error(.credentialRequired, token: "T5")))
        #expect(again.kind == .generalError && again.endsFlow)
        let unanswered = try decide(.failure(Answer.unreachable))
        #expect(unanswered.kind == .generalError && !unanswered.endsFlow)
        #expect(offline.requests == 0)
    }
}
