import Foundation
import MSAL
import TestSupport
import Testing

@testable import MSAL

/// `ResetPasswordMachine` on its own: answers in, decisions out, nothing sent, no waiting and no
/// SDK around it.
@Suite struct ResetPasswordMachineTests {
    private let token = Continuation("T0", Fixture.correlation)

    @Test func aStateNamesItselfWithoutItsContinuationToken() throws {
        let polling = ResetPasswordMachine.Polling(next: Continuation("secret-continuation", Fixture.correlation), interval: 2)
        let states: [ResetPasswordMachine.State] = [
            .polling(polling, retriesLeft: 3), .waiting(polling, retriesLeft: 2, lastAnswer: Fixture.correlation),
        ]
        for state in states {
            #expect(!"\(state)".contains("secret-continuation"))
            #expect(!String(reflecting: state).contains("secret-continuation"))
            #expect("\(state)".contains(Fixture.correlation.uuidString))
        }
    }

    private var starting: ResetPasswordMachine {
        var machine = ResetPasswordMachine()
        _ = machine.start(username: Fixture.username, correlationId: Fixture.correlation)
        return machine
    }
    private func sent(_ step: (inout ResetPasswordMachine) -> ResetPasswordMachine.Action) throws -> ResetPasswordMachine {
        var machine = ResetPasswordMachine()
        _ = try call(step(&machine))
        return machine
    }
    private func resendingCode() throws -> ResetPasswordMachine { try sent { $0.resendCode(on: token) } }
    private func verifyingCode() throws -> ResetPasswordMachine { try sent { $0.submitCode(Fixture.code, on: token) } }
    private func submittingPassword() throws -> ResetPasswordMachine { try sent { $0.submitPassword(Fixture.password, on: token) } }
    /// A machine whose password `/submit` accepted (token P, interval 2), waiting for the first poll.
    private func polling() throws -> ResetPasswordMachine {
        var machine = try submittingPassword()
        _ = try call(machine.passwordAnswered(.success(Answer.submitted("P", interval: 2)), correlationId: Answer.first))
        return machine
    }

    // MARK: Checks before anything is sent

    @Test func anEmptyUsernameCodeOrPasswordIsRefusedBeforeSending() throws {
        var username = ResetPasswordMachine()
        #expect(try failure(username.start(username: "", correlationId: Fixture.correlation)).kind == .invalidUsername)
        var code = ResetPasswordMachine()
        let emptyCode = try failure(code.submitCode("", on: token))
        #expect(emptyCode.kind == .invalidCode && emptyCode.details.message == NativeAuthErrorMessage.invalidCode && !emptyCode.endsFlow)
        var password = ResetPasswordMachine()
        #expect(try failure(password.submitPassword("", on: token)).kind == .invalidPassword)
        #expect([username.state, code.state, password.state] == [.done, .done, .done])
        var valid = ResetPasswordMachine()
        #expect(
            try call(valid.start(username: Fixture.username, correlationId: Fixture.correlation))
                == .start(correlationId: Fixture.correlation))
    }

    // MARK: Start

    @Test func aStartTokenLeadsToTheChallengeAndACodeToTheCodeState() throws {
        var machine = starting
        let next = try call(machine.startAnswered(.success(.init(continuationToken: "T0")), correlationId: Answer.first))
        #expect(next == .challenge(Continuation("T0", Answer.first)) && machine.state == .sendingCode)
        guard
            case .codeRequired(let sent) = try result(machine.challengeAnswered(.success(Answer.code("T1")), correlationId: Answer.second))
        else { throw UnexpectedOutcome("expected codeRequired") }
        #expect(sent == CodeSent(next: Continuation("T1", Answer.second), sentTo: "a***@co**o.com", channel: "email", codeLength: 8))
    }

    @Test func startErrorsMapToTheirKinds() throws {
        func kind(_ outcome: NativeAuthOutcome<ContinuationTokenResponse>) throws -> NativeAuthErrorKind {
            var machine = starting
            return try failure(machine.startAnswered(outcome, correlationId: Answer.first)).kind
        }
        #expect(try kind(.apiError(Answer.error(.userNotFound))) == .userNotFound)
        #expect(try kind(.apiError(Answer.error(.invalidRequest, codes: [500222]))) == .userDoesNotHavePassword)
        #expect(try kind(.apiError(Answer.error(.invalidRequest, codes: [90100]))) == .generalError)
        #expect(try kind(.apiError(Answer.error(.unauthorizedClient))) == .generalError)
        #expect(try kind(.redirect(reason: nil)) == .browserRequired)
        #expect(try kind(.failure(Answer.unreachable)) == .generalError)
        var machine = starting
        let noDescription = try failure(
            machine.startAnswered(.apiError(Answer.error(.userNotFound, description: nil)), correlationId: Answer.first))
        #expect(noDescription.details.message == NativeAuthErrorMessage.userNotFound)
    }

    @Test func theFirstChallengeMustSendACode() throws {
        func decide(_ outcome: NativeAuthOutcome<ChallengeResponse>) throws -> FlowFailure {
            var machine = starting
            _ = try call(machine.startAnswered(.success(.init(continuationToken: "T0")), correlationId: Answer.first))
            let failure = try failure(machine.challengeAnswered(outcome, correlationId: Answer.second))
            #expect(!failure.endsFlow)
            return failure
        }
        let password = try decide(.success(Answer.password()))
        #expect(password.kind == .generalError && password.details.message == "The server asked for a password instead of sending a code")
        #expect(password.details.correlationId == Answer.second)
        #expect(try decide(.redirect(reason: nil)).kind == .browserRequired)
        #expect(try decide(.apiError(Answer.error(.expiredToken))).kind == .generalError)
        #expect(try decide(.failure(Answer.unreachable)).kind == .generalError)
    }

    // MARK: Resend

    @Test func everyAnsweredResendFailureEndsTheFlowButNoAnswerKeepsIt() throws {
        func decide(_ outcome: NativeAuthOutcome<ChallengeResponse>) throws -> FlowFailure {
            var machine = try resendingCode()
            return try failure(machine.challengeAnswered(outcome, correlationId: Answer.first))
        }
        let password = try decide(.success(Answer.password()))
        #expect(password.kind == .generalError && password.endsFlow)
        let redirect = try decide(.redirect(reason: nil))
        #expect(redirect.kind == .browserRequired && redirect.endsFlow)
        let refused = try decide(.apiError(Answer.error(.expiredToken)))
        #expect(refused.kind == .generalError && refused.endsFlow)
        let unanswered = try decide(.failure(Answer.unreachable))
        #expect(unanswered.kind == .generalError && !unanswered.endsFlow)

        var machine = try resendingCode()
        guard case .codeRequired(let sent) = try result(machine.challengeAnswered(.success(Answer.code("T9")), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected codeRequired") }
        #expect(sent.next == Continuation("T9", Answer.first))
    }

    // MARK: Code

    @Test func aRightCodeAsksForTheNewPassword() throws {
        var machine = try verifyingCode()
        guard
            case .passwordRequired(let next) = try result(
                machine.codeAnswered(.success(.init(continuationToken: "T2")), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected passwordRequired") }
        #expect(next == Continuation("T2", Answer.first) && machine.state == .done)
    }

    @Test func aWrongCodeKeepsTheStateAndOtherRefusalsEndIt() throws {
        func decide(_ outcome: NativeAuthOutcome<ContinuationTokenResponse>) throws -> FlowFailure {
            var machine = try verifyingCode()
            return try failure(machine.codeAnswered(outcome, correlationId: Answer.first))
        }
        let wrong = try decide(.apiError(Answer.error(.invalidGrant, .invalidOOBValue, description: nil)))
        #expect(wrong.kind == .invalidCode && !wrong.endsFlow && wrong.details.message == NativeAuthErrorMessage.invalidCode)
        let otherGrant = try decide(.apiError(Answer.error(.invalidGrant, description: nil)))
        #expect(
            otherGrant.kind == .generalError && otherGrant.endsFlow && otherGrant.details.message == NativeAuthErrorMessage.generalError
        )
        let redirect = try decide(.redirect(reason: nil))
        #expect(redirect.kind == .browserRequired && redirect.endsFlow)
        let unanswered = try decide(.failure(Answer.unreachable))
        #expect(unanswered.kind == .generalError && !unanswered.endsFlow)
    }

    // MARK: Password and polling

    @Test func anAcceptedPasswordIsPolledAtOnceThenAtTheIntervalUntilItSucceeds() throws {
        var machine = try submittingPassword()
        let first = try call(machine.passwordAnswered(.success(Answer.submitted("P", interval: 2)), correlationId: Answer.first))
        let polling = ResetPasswordMachine.Polling(next: Continuation("P", Answer.first), interval: 2)
        #expect(first == .poll(polling.next, delay: nil))
        #expect(machine.state == .polling(polling, retriesLeft: ResetPasswordMachine.maxPollRetries))
        let again = try call(machine.pollAnswered(.success(Answer.polled("in_progress")), correlationId: Answer.second))
        #expect(again == .poll(polling.next, delay: 2), "every poll keeps the submit answer's id")
        #expect(machine.state == .waiting(polling, retriesLeft: ResetPasswordMachine.maxPollRetries - 1, lastAnswer: Answer.second))
        machine.waited()
        #expect(machine.state == .polling(polling, retriesLeft: ResetPasswordMachine.maxPollRetries - 1))
        guard
            case .completed("S", Answer.second) = try result(
                machine.pollAnswered(.success(Answer.polled("succeeded", token: "S")), correlationId: Answer.second))
        else { throw UnexpectedOutcome("expected completed with the token") }
    }

    @Test func aPolicyRefusalAtSubmitKeepsTheStateAndOtherRefusalsEndIt() throws {
        func decide(_ outcome: NativeAuthOutcome<ResetPasswordSubmitResponse>) throws -> FlowFailure {
            var machine = try submittingPassword()
            return try failure(machine.passwordAnswered(outcome, correlationId: Answer.first))
        }
        let weak = try decide(.apiError(Answer.error(.invalidGrant, .passwordTooWeak, description: nil)))
        #expect(weak.kind == .invalidPassword && !weak.endsFlow && weak.continuationToken == nil)
        #expect(weak.details.message == NativeAuthErrorMessage.invalidPassword)
        let refused = try decide(.apiError(Answer.error(.expiredToken)))
        #expect(refused.kind == .generalError && refused.endsFlow)
        let redirect = try decide(.redirect(reason: nil))
        #expect(redirect.kind == .browserRequired && redirect.endsFlow)
        let unanswered = try decide(.failure(Answer.unreachable))
        #expect(unanswered.kind == .generalError && !unanswered.endsFlow)
    }

    @Test func aPasswordRefusedWhilePollingKeepsTheStateWithThePollToken() throws {
        var machine = try polling()
        let late = try failure(machine.pollAnswered(.apiError(Answer.error(.invalidGrant, .passwordBanned)), correlationId: Answer.second))
        #expect(late.kind == .invalidPassword && !late.endsFlow && late.continuationToken == "P")
    }

    @Test func everyOtherPollFailureEndsTheFlow() throws {
        func decide(_ outcome: NativeAuthOutcome<ResetPasswordPollResponse>) throws -> FlowFailure {
            var machine = try polling()
            return try failure(machine.pollAnswered(outcome, correlationId: Answer.second))
        }
        let failed = try decide(.success(Answer.polled("failed")))
        #expect(failed.kind == .generalError && failed.endsFlow && failed.details.message == "The password reset failed on the server")
        let refused = try decide(.apiError(Answer.error(.expiredToken)))
        #expect(refused.kind == .generalError && refused.endsFlow && refused.continuationToken == nil)
        let redirect = try decide(.redirect(reason: nil))
        #expect(redirect.kind == .browserRequired && redirect.endsFlow)
        let unanswered = try decide(.failure(Answer.unreachable))
        #expect(unanswered.kind == .generalError && unanswered.endsFlow)
    }

    @Test func pollingGivesUpAfterSixChecks() throws {
        var machine = try polling()
        for _ in 0..<ResetPasswordMachine.maxPollRetries {
            _ = try call(machine.pollAnswered(.success(Answer.polled("in_progress")), correlationId: Answer.second))
            machine.waited()
        }
        let gaveUp = try failure(machine.pollAnswered(.success(Answer.polled("not_started")), correlationId: Answer.second))
        #expect(gaveUp.kind == .generalError && gaveUp.endsFlow)
        #expect(gaveUp.details.message == "The password reset did not complete after 6 checks")
    }

    @Test func aCancelledWaitEndsTheFlowWithTheLastAnswersCorrelationId() throws {
        var machine = try polling()
        _ = try call(machine.pollAnswered(.success(Answer.polled("in_progress")), correlationId: Answer.second))
        let cancelled = try failure(machine.waitCancelled())
        #expect(cancelled.kind == .generalError && cancelled.endsFlow && cancelled.details.correlationId == Answer.second)
        #expect(cancelled.details.message == "The password reset was cancelled while waiting for the server")
        #expect(machine.state == .done)
    }
}
