import Foundation
import MSAL
import TestSupport
import Testing

@testable import MSAL

/// `StrongAuthMachine` on its own: answers in, decisions out, nothing sent and no SDK around it.
@Suite struct StrongAuthMachineTests {
    private let scopes = ["User.Read", "openid", "profile", "offline_access"]
    private var blocked: NativeAuthAPIError { Answer.error(.accessDenied, .providerBlockedByRep) }
    private let contact = StrongAuthMachine.Contact(target: "+15550100", challengeType: "oob", channel: "sms")

    private func machine() -> StrongAuthMachine { StrongAuthMachine(scopes: scopes, claims: nil) }
    private func requestingMFAChallenge() throws -> StrongAuthMachine {
        var machine = machine()
        _ = try call(machine.requestMFAChallenge(methodId: "m-email", on: Continuation("Ti", Fixture.correlation)))
        return machine
    }
    private func redeemingMFACode() throws -> StrongAuthMachine {
        var machine = machine()
        _ = try call(machine.submitMFAChallenge("1234", on: Continuation("Tc", Fixture.correlation)))
        return machine
    }
    private func challengingContact() throws -> StrongAuthMachine {
        var machine = machine()
        _ = try call(machine.challengeAuthMethod(contact, on: Continuation("Tj", Fixture.correlation)))
        return machine
    }
    /// A `challengeAuthMethod` machine whose contact was pre-verified, waiting for `/register/v1.0/continue`.
    private func continuingPreverified() throws -> StrongAuthMachine {
        var machine = try challengingContact()
        _ = try call(machine.registerChallengeAnswered(.success(.preverified(continuationToken: "Tp")), correlationId: Answer.first))
        return machine
    }
    private func continuingWithCode() throws -> StrongAuthMachine {
        var machine = machine()
        _ = try call(machine.submitRegistrationChallenge("1234", on: Continuation("Tk", Fixture.correlation)))
        return machine
    }
    /// A machine whose method is registered, waiting for the token endpoint.
    private func redeemingRegistration(preverified: Bool) throws -> StrongAuthMachine {
        var machine = preverified ? try continuingPreverified() : try continuingWithCode()
        _ = try call(
            machine.registrationContinued(.success(ContinuationTokenResponse(continuationToken: "Ts")), correlationId: Answer.second))
        return machine
    }

    // MARK: Checks before anything is sent

    @Test func anEmptyCodeIsAnInvalidChallengeAndAnEmptyContactAnInvalidInput() throws {
        let token = Continuation("Tc", Fixture.correlation)
        for submit in [
            { (m: inout StrongAuthMachine) in m.submitMFAChallenge("", on: token) }, { $0.submitRegistrationChallenge("", on: token) },
        ] {
            var machine = machine()
            let code = try failure(submit(&machine))
            #expect(
                code.kind == .invalidChallenge && code.details.message == NativeAuthErrorMessage.invalidChallenge && machine.state == .done)
        }
        var empty = machine()
        let blank = StrongAuthMachine.Contact(target: " \n", challengeType: "oob", channel: "sms")
        let contactFailure = try failure(empty.challengeAuthMethod(blank, on: token))
        #expect(contactFailure.kind == .invalidInput && contactFailure.details.message == NativeAuthErrorMessage.invalidInput)
        var trimmed = machine()
        let padded = StrongAuthMachine.Contact(target: "  +15550100 ", challengeType: "oob", channel: "sms")
        guard case .registerChallenge(let sent, let next) = try call(trimmed.challengeAuthMethod(padded, on: token)) else {
            throw UnexpectedOutcome("expected /register/v1.0/challenge")
        }
        #expect(sent == contact && next == token && trimmed.state == .challengingContact)
    }

    // MARK: MFA challenge

    @Test func anMFAChallengeHandsBackTheStateThatTakesTheCode() throws {
        var machine = machine()
        guard
            case .mfaChallenge("m-email", let token) = try call(
                machine.requestMFAChallenge(methodId: "m-email", on: Continuation("Ti", Fixture.correlation)))
        else { throw UnexpectedOutcome("expected the challenge with the method's id") }
        #expect(token == Continuation("Ti", Fixture.correlation) && machine.state == .requestingMFAChallenge)
        guard
            case .codeRequired(let sent) = try result(
                machine.mfaChallengeAnswered(.success(Answer.code("Tc2")), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected codeRequired") }
        #expect(sent == CodeSent(next: Continuation("Tc2", Answer.first), sentTo: "a***@co**o.com", channel: "email", codeLength: 8))
    }

    @Test func anMFAChallengeThatAsksForAPasswordEndsTheFlowAndOtherFailuresKeepTheState() throws {
        func decide(_ outcome: NativeAuthOutcome<ChallengeResponse>) throws -> FlowFailure {
            var machine = try requestingMFAChallenge()
            return try failure(machine.mfaChallengeAnswered(outcome, correlationId: Answer.first))
        }
        let password = try decide(.success(Answer.password()))
        #expect(password.kind == .generalError && password.endsFlow)
        #expect(password.details.message == "The server asked for a password instead of sending a code")
        let redirect = try decide(.redirect(reason: nil))
        #expect(redirect.kind == .browserRequired && !redirect.endsFlow)
        let blockedMethod = try decide(.apiError(blocked))
        #expect(blockedMethod.kind == .authMethodBlocked && !blockedMethod.endsFlow)
        let refused = try decide(.apiError(Answer.error(.accessDenied)))
        #expect(refused.kind == .generalError && !refused.endsFlow)
        let unanswered = try decide(.failure(Answer.unreachable))
        #expect(unanswered.kind == .generalError && !unanswered.endsFlow)
    }

    // MARK: MFA submit

    @Test func anMFACodeIsRedeemedWithTheMFAGrant() throws {
        var machine = machine()
        guard
            case .redeem(let grant, Fixture.correlation) = try call(
                machine.submitMFAChallenge("1234", on: Continuation("Tc", Fixture.correlation))),
            case .mfaOOB("1234") = grant.kind
        else { throw UnexpectedOutcome("expected an mfa_oob grant") }
        #expect(grant.continuationToken == "Tc" && grant.scopes == scopes && machine.state == .redeemingMFACode)
        guard case .completed(let account) = try result(machine.redeemed(.success(try Answer.signedIn()), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected completed") }
        #expect(account.account.username == Fixture.username)
    }

    @Test func aSecondFactorAfterTheSecondFactorEndsTheFlowAndOtherRefusalsKeepTheState() throws {
        func decide(_ refusal: TokenRedemptionFailure) throws -> FlowFailure {
            var machine = try redeemingMFACode()
            return try failure(machine.redeemed(.failure(refusal), correlationId: Answer.first))
        }
        let wrong = try decide(.invalidCode(Answer.details))
        #expect(wrong.kind == .invalidChallenge && !wrong.endsFlow && wrong.details.message == "refused")
        let bare = try decide(
            .invalidCode(NativeAuthErrorDetails(message: NativeAuthErrorMessage.generalError, correlationId: Answer.first)))
        #expect(bare.details.message == NativeAuthErrorMessage.invalidChallenge)
        let redirect = try decide(.browserRequired(Answer.details))
        #expect(redirect.kind == .browserRequired && !redirect.endsFlow)
        let mfaAgain = try decide(.mfaRequired(continuationToken: "Tm", Answer.details))
        #expect(mfaAgain.kind == .generalError && mfaAgain.endsFlow)
        let registration = try decide(.registrationRequired(continuationToken: "Tr", Answer.details))
        #expect(registration.kind == .generalError && registration.endsFlow)
        for other in [TokenRedemptionFailure.invalidCredentials(Answer.details), .userNotFound(Answer.details), .general(Answer.details)] {
            let decided = try decide(other)
            #expect(decided.kind == .generalError && !decided.endsFlow)
        }
    }

    // MARK: Registration challenge

    @Test func aRegistrationChallengeSendsACodeOrRegistersAPreverifiedContact() throws {
        var code = try challengingContact()
        let answer = RegisterChallengeResponse.oob(continuationToken: "Tk2", target: "+15550100", channel: "sms", codeLength: 8)
        guard case .codeRequired(let sent) = try result(code.registerChallengeAnswered(.success(answer), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected codeRequired") }
        #expect(sent == CodeSent(next: Continuation("Tk2", Answer.first), sentTo: "+15550100", channel: "sms", codeLength: 8))

        var preverified = try challengingContact()
        guard
            case .continueRegistration(.preverified, let next) = try call(
                preverified.registerChallengeAnswered(.success(.preverified(continuationToken: "Tp")), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected /register/v1.0/continue") }
        #expect(next == Continuation("Tp", Answer.first) && preverified.state == .continuingRegistration(preverified: true))
    }

    @Test func registrationChallengeErrorsMapToTheirKinds() throws {
        func decide(_ outcome: NativeAuthOutcome<RegisterChallengeResponse>) throws -> FlowFailure {
            var machine = try challengingContact()
            return try failure(machine.registerChallengeAnswered(outcome, correlationId: Answer.first))
        }
        let redirect = try decide(.redirect(reason: nil))
        #expect(redirect.kind == .browserRequired && redirect.endsFlow)
        let invalid = try decide(.apiError(Answer.error(.invalidRequest, codes: [901001], description: nil)))
        #expect(invalid.kind == .invalidInput && !invalid.endsFlow && invalid.details.message == NativeAuthErrorMessage.invalidInput)
        let described = try decide(.apiError(Answer.error(.invalidRequest, codes: [901001], description: "bad phone")))
        #expect(described.kind == .invalidInput && described.details.message == "bad phone")
        let blockedContact = try decide(.apiError(blocked))
        #expect(blockedContact.kind == .verificationContactBlocked && !blockedContact.endsFlow)
        let refused = try decide(.apiError(Answer.error(.invalidRequest, codes: [90100])))
        #expect(refused.kind == .generalError && !refused.endsFlow)
        let unanswered = try decide(.failure(Answer.unreachable))
        #expect(unanswered.kind == .generalError && !unanswered.endsFlow)
    }

    // MARK: Registration continue and sign-in

    @Test func aRegisteredMethodSignsInWithTheContinuationTokenGrant() throws {
        for preverified in [true, false] {
            var machine = preverified ? try continuingPreverified() : try continuingWithCode()
            guard
                case .redeem(let grant, let id) = try call(
                    machine.registrationContinued(
                        .success(ContinuationTokenResponse(continuationToken: "Ts")), correlationId: Answer.second)),
                case .continuationToken(nil) = grant.kind
            else { throw UnexpectedOutcome("expected a continuation-token grant without a username") }
            #expect(grant.continuationToken == "Ts" && grant.scopes == scopes && id == Answer.second)
            guard case .completed(let account) = try result(machine.redeemed(.success(try Answer.signedIn()), correlationId: Answer.second))
            else { throw UnexpectedOutcome("expected completed") }
            #expect(account.account.username == Fixture.username && machine.state == .done)
        }
        var code = machine()
        guard
            case .continueRegistration(.oob("1234"), let token) = try call(
                code.submitRegistrationChallenge("1234", on: Continuation("Tk", Fixture.correlation)))
        else { throw UnexpectedOutcome("expected /register/v1.0/continue with the code") }
        #expect(token == Continuation("Tk", Fixture.correlation) && code.state == .continuingRegistration(preverified: false))
    }

    @Test func afterAPreverifiedContactEveryContinueFailureEndsTheFlowAsAGeneralError() throws {
        let outcomes: [NativeAuthOutcome<ContinuationTokenResponse>] = [
            .redirect(reason: nil), .apiError(Answer.error(.invalidGrant, .invalidOOBValue)), .apiError(Answer.error(.expiredToken)),
            .failure(Answer.unreachable),
        ]
        for outcome in outcomes {
            var machine = try continuingPreverified()
            let decided = try failure(machine.registrationContinued(outcome, correlationId: Answer.second))
            #expect(decided.kind == .generalError && decided.endsFlow, "\(outcome)")
        }
    }

    @Test func afterACodeAWrongCodeIsAnInvalidChallengeAndARedirectEndsTheFlow() throws {
        func decide(_ outcome: NativeAuthOutcome<ContinuationTokenResponse>) throws -> FlowFailure {
            var machine = try continuingWithCode()
            return try failure(machine.registrationContinued(outcome, correlationId: Answer.second))
        }
        let wrong = try decide(.apiError(Answer.error(.invalidGrant, .invalidOOBValue, description: nil)))
        #expect(wrong.kind == .invalidChallenge && !wrong.endsFlow && wrong.details.message == NativeAuthErrorMessage.invalidChallenge)
        let redirect = try decide(.redirect(reason: nil))
        #expect(redirect.kind == .browserRequired && redirect.endsFlow)
        let refused = try decide(.apiError(Answer.error(.expiredToken)))
        #expect(refused.kind == .generalError && !refused.endsFlow)
        let unanswered = try decide(.failure(Answer.unreachable))
        #expect(unanswered.kind == .generalError && !unanswered.endsFlow)
    }

    @Test func aFailedSignInAfterTheRegistrationEndsTheFlow() throws {
        for preverified in [true, false] {
            for refusal in [TokenRedemptionFailure.browserRequired(Answer.details), .invalidCode(Answer.details), .general(Answer.details)]
            {
                var machine = try redeemingRegistration(preverified: preverified)
                let decided = try failure(machine.redeemed(.failure(refusal), correlationId: Answer.second))
                #expect(decided.kind == .generalError && decided.endsFlow && decided.details.message == "refused")
            }
        }
    }
}
