import Foundation
import MSAL
import Testing

@testable import MSAL

/// `StrongAuthMachine` on its own: answers in, decisions out, nothing sent.
@Suite struct StrongAuthMachineTests {
    let offline: OfflineControllers
    init() throws { offline = try OfflineControllers() }

    private let scopes = ["User.Read", "openid", "profile", "offline_access"]
    private var context: SignInContinuationContext { SignInContinuationContext(controller: offline.signIn, scopes: scopes, claims: nil) }
    private var awaitingMFA: AwaitingMFAState {
        AwaitingMFAState(context: context, continuationToken: "Ti", correlationId: Fixture.correlation)
    }
    private var mfaRequired: MFARequiredState {
        MFARequiredState(context: context, continuationToken: "Tc", correlationId: Fixture.correlation)
    }
    private var registerState: RegisterStrongAuthState {
        RegisterStrongAuthState(context: context, continuationToken: "Tj", correlationId: Fixture.correlation)
    }
    private var verificationState: RegisterStrongAuthVerificationRequiredState {
        RegisterStrongAuthVerificationRequiredState(context: context, continuationToken: "Tk", correlationId: Fixture.correlation)
    }
    private var blocked: NativeAuthAPIError { Answer.error(.accessDenied, .providerBlockedByRep) }

    /// A `challengeAuthMethod` machine whose contact was pre-verified, waiting for `/register/v1.0/continue`.
    private func continuingPreverified() throws -> StrongAuthMachine {
        var machine = StrongAuthMachine.challengeAuthMethod(on: registerState)
        _ = try call(machine.registerChallengeAnswered(.success(.preverified(continuationToken: "Tp")), correlationId: Answer.first))
        return machine
    }
    private func continuingWithCode() -> StrongAuthMachine {
        StrongAuthMachine.submitRegistrationChallenge("1234", on: verificationState).0
    }
    /// A machine of the registration `step` whose method is registered, waiting for the token endpoint.
    private func redeemingRegistration(preverified: Bool) throws -> StrongAuthMachine {
        var machine = preverified ? try continuingPreverified() : continuingWithCode()
        _ = try call(
            machine.registrationContinued(.success(ContinuationTokenResponse(continuationToken: "Ts")), correlationId: Answer.second))
        return machine
    }

    // MARK: Local checks

    @Test func anEmptyCodeIsAnInvalidChallengeAndAnEmptyContactAnInvalidInput() throws {
        let code = StrongAuthMachine.checkChallenge("", correlationId: Fixture.correlation)
        #expect(code?.kind == .invalidChallenge && code?.details.message == NativeAuthErrorMessage.invalidChallenge)
        #expect(StrongAuthMachine.checkChallenge("1234", correlationId: Fixture.correlation) == nil)
        guard case .failure(let contact) = StrongAuthMachine.checkContact(" \n", correlationId: Fixture.correlation) else {
            throw UnexpectedOutcome("expected a failure")
        }
        #expect(contact.kind == .invalidInput && contact.details.message == NativeAuthErrorMessage.invalidInput)
        #expect(try StrongAuthMachine.checkContact("  +15550100 ", correlationId: Fixture.correlation).get() == "+15550100")
    }

    // MARK: MFA challenge

    @Test func anMFAChallengeHandsBackTheStateThatTakesTheCode() throws {
        var machine = StrongAuthMachine.requestMFAChallenge(on: awaitingMFA)
        guard
            case .verificationRequired(let state, let sentTo, let channel, let length) = try result(
                machine.mfaChallengeAnswered(.success(Answer.code("Tc2")), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected verificationRequired") }
        #expect(state.continuationToken == "Tc2" && state.correlationId == Answer.first && state.context.scopes == scopes)
        #expect(sentTo == "a***@co**o.com" && channel.isEmailType && length == 8 && offline.requests == 0)
    }

    @Test func anMFAChallengeThatAsksForAPasswordEndsTheFlowAndOtherFailuresKeepTheState() throws {
        func decide(_ outcome: NativeAuthOutcome<ChallengeResponse>) throws -> FlowFailure {
            var machine = StrongAuthMachine.requestMFAChallenge(on: awaitingMFA)
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
        var (machine, grant) = StrongAuthMachine.submitMFAChallenge("1234", on: mfaRequired)
        guard case .mfaOOB("1234") = grant.kind else { throw UnexpectedOutcome("expected an mfa_oob grant") }
        #expect(grant.continuationToken == "Tc" && grant.scopes == scopes)
        guard case .completed(let account) = try result(machine.mfaRedeemed(.success(try Answer.signedIn()), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected completed") }
        #expect(account.account.username == Fixture.username)
    }

    @Test func aSecondFactorAfterTheSecondFactorEndsTheFlowAndOtherRefusalsKeepTheState() throws {
        func decide(_ refusal: TokenRedemptionFailure) throws -> FlowFailure {
            var machine = StrongAuthMachine.submitMFAChallenge("1234", on: mfaRequired).0
            return try failure(machine.mfaRedeemed(.failure(refusal), correlationId: Answer.first))
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
        var code = StrongAuthMachine.challengeAuthMethod(on: registerState)
        let answer = RegisterChallengeResponse.oob(continuationToken: "Tk2", target: "+15550100", channel: "sms", codeLength: 8)
        guard
            case .verificationRequired(let sent) = try result(code.registerChallengeAnswered(.success(answer), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected verificationRequired") }
        #expect(sent.newState.continuationToken == "Tk2" && sent.newState.correlationId == Answer.first && sent.sentTo == "+15550100")
        #expect(sent.codeLength == 8 && sent.channelTargetType.value == "sms")

        var preverified = StrongAuthMachine.challengeAuthMethod(on: registerState)
        guard
            case .continueRegistration(.preverified, "Tp", Answer.first) = try call(
                preverified.registerChallengeAnswered(.success(.preverified(continuationToken: "Tp")), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected /register/v1.0/continue") }
        #expect(preverified.state == .continuingRegistration)
    }

    @Test func registrationChallengeErrorsMapToTheirKinds() throws {
        func decide(_ outcome: NativeAuthOutcome<RegisterChallengeResponse>) throws -> FlowFailure {
            var machine = StrongAuthMachine.challengeAuthMethod(on: registerState)
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
            var machine = preverified ? try continuingPreverified() : continuingWithCode()
            guard
                case .redeem(let grant, let id) = try call(
                    machine.registrationContinued(
                        .success(ContinuationTokenResponse(continuationToken: "Ts")), correlationId: Answer.second)),
                case .continuationToken(nil) = grant.kind
            else { throw UnexpectedOutcome("expected a continuation-token grant without a username") }
            #expect(grant.continuationToken == "Ts" && grant.scopes == scopes && id == Answer.second)
            let account = try result(machine.registrationRedeemed(.success(try Answer.signedIn()), correlationId: Answer.second))
            #expect(account.account.username == Fixture.username && machine.state == .done)
        }
        guard
            case .continueRegistration(.oob("1234"), "Tk", Fixture.correlation) = StrongAuthMachine.submitRegistrationChallenge(
                "1234", on: verificationState
            ).1
        else { throw UnexpectedOutcome("expected /register/v1.0/continue with the code") }
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
            var machine = continuingWithCode()
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
                let decided = try failure(machine.registrationRedeemed(.failure(refusal), correlationId: Answer.second))
                #expect(decided.kind == .generalError && decided.endsFlow && decided.details.message == "refused")
            }
        }
    }
}
