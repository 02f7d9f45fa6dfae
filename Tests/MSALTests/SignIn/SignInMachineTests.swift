import Foundation
import MSAL
import TestSupport
import Testing

@testable import MSAL

/// `SignInMachine` on its own: answers in, decisions out, nothing sent and no SDK around it.
@Suite struct SignInMachineTests {
    private let scopes = ["User.Read", "openid", "profile", "offline_access"]
    private let token = Continuation("T0", Fixture.correlation)

    private func machine() -> SignInMachine {
        SignInMachine(scopes: scopes, claims: #"{"c":1}"#)
    }
    /// A start machine that has had `/initiate` answered and waits for the challenge.
    private func challenging(password: String? = nil) throws -> SignInMachine {
        var machine = machine()
        _ = try call(machine.start(username: Fixture.username, password: password, correlationId: Fixture.correlation))
        _ = try call(machine.initiateAnswered(.success(ContinuationTokenResponse(continuationToken: "T0")), correlationId: Answer.first))
        return machine
    }
    /// A machine of `step` waiting for the token endpoint.
    private func redeeming(_ step: SignInMachine.Step) throws -> SignInMachine {
        var machine = machine()
        switch step {
        case .start:
            machine = try challenging(password: Fixture.password)
            _ = try call(machine.challengeAnswered(.success(Answer.password("T1")), correlationId: Answer.second))
        case .submitCode: _ = try call(machine.submitCode(Fixture.code, on: token))
        case .submitPassword: _ = try call(machine.submitPassword(Fixture.password, username: Fixture.username, on: token))
        case .afterPreviousFlow:
            _ = try call(
                machine.signInAfterPreviousFlow(
                    username: Fixture.username, continuationToken: "T-after", correlationId: Fixture.correlation))
        }
        #expect(machine.state == .redeeming(step))
        return machine
    }
    /// A machine of `step` whose credential was right and that waits for the introspect answer.
    private func introspecting(mfa: Bool, _ step: SignInMachine.Step = .submitPassword) throws -> SignInMachine {
        var machine = try redeeming(step)
        let failure: TokenRedemptionFailure =
            mfa ? .mfaRequired(continuationToken: "Tm", Answer.details) : .registrationRequired(continuationToken: "Tr", Answer.details)
        _ = try call(machine.redeemed(.failure(failure), correlationId: Answer.first))
        return machine
    }

    // MARK: Checks before anything is sent

    @Test func theStartRefusesAnEmptyUsernameAndAnEmptyPasswordBeforeSending() throws {
        var noUsername = machine()
        let username = try failure(noUsername.start(username: "", password: nil, correlationId: Fixture.correlation))
        #expect(username.kind == .invalidUsername && username.details.message == NativeAuthErrorMessage.invalidUsername)
        #expect(noUsername.state == .done)
        var emptyPassword = machine()
        let password = try failure(emptyPassword.start(username: Fixture.username, password: "", correlationId: Fixture.correlation))
        #expect(password.kind == .invalidCredentials && password.details.message == NativeAuthErrorMessage.invalidCredentials)
        for supplied in [nil, Fixture.password] {
            var machine = machine()
            let first = try call(machine.start(username: Fixture.username, password: supplied, correlationId: Fixture.correlation))
            guard case .initiate(Fixture.username, let id) = first else { throw UnexpectedOutcome("expected /initiate for the username") }
            #expect(id == Fixture.correlation && machine.state == .initiating(username: Fixture.username, password: supplied))
        }
    }

    /// A controller error names the machine's state (`expect`, the events' guards): never the
    /// credential the state carries.
    @Test func aStateNamesItselfWithoutItsUsernameOrPassword() {
        let states: [SignInMachine.State] = [
            .initiating(username: Fixture.username, password: Fixture.password),
            .challenging(username: Fixture.username, password: Fixture.password),
        ]
        #expect(states.map { "\($0)" } == ["initiating", "challenging"])
    }

    @Test func anEmptyCodeOrPasswordIsRefusedBeforeSending() throws {
        var code = machine()
        let emptyCode = try failure(code.submitCode("", on: token))
        #expect(emptyCode.kind == .invalidCode && emptyCode.details.message == NativeAuthErrorMessage.invalidCode && !emptyCode.endsFlow)
        var password = machine()
        let emptyPassword = try failure(password.submitPassword("", username: Fixture.username, on: token))
        #expect(emptyPassword.kind == .invalidPassword && emptyPassword.details.message == NativeAuthErrorMessage.invalidPassword)
        #expect(code.state == .done && password.state == .done)
    }

    // MARK: Start

    @Test func anInitiateTokenLeadsToTheChallengeWithTheEchoedCorrelationId() throws {
        var machine = machine()
        _ = try call(machine.start(username: Fixture.username, password: nil, correlationId: Fixture.correlation))
        guard
            case .challenge(let next) = try call(
                machine.initiateAnswered(.success(ContinuationTokenResponse(continuationToken: "T0")), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected the challenge") }
        #expect(next == Continuation("T0", Answer.first) && machine.state == .challenging(username: Fixture.username, password: nil))
    }

    @Test func initiateErrorsMapToTheirKinds() throws {
        func decide(_ outcome: NativeAuthOutcome<ContinuationTokenResponse>) throws -> FlowFailure {
            var machine = machine()
            _ = try call(machine.start(username: Fixture.username, password: nil, correlationId: Fixture.correlation))
            let failure = try failure(machine.initiateAnswered(outcome, correlationId: Answer.first))
            #expect(machine.state == .done && failure.details.correlationId == Answer.first && !failure.endsFlow)
            return failure
        }
        let notFound = try decide(.apiError(Answer.error(.userNotFound, description: nil)))
        #expect(notFound.kind == .userNotFound && notFound.details.message == NativeAuthErrorMessage.userNotFound)
        let other = try decide(.apiError(Answer.error(.invalidRequest, description: nil)))
        #expect(other.kind == .generalError && other.details.message == NativeAuthErrorMessage.generalError)
        let redirect = try decide(.redirect(reason: "use a browser"))
        #expect(redirect.kind == .browserRequired && redirect.details.message == "use a browser")
        let unanswered = try decide(.failure(Answer.unreachable))
        #expect(unanswered.kind == .generalError && unanswered.details.underlyingError is MSALNativeAuthNetworkFailure)
    }

    @Test func aCodeChallengeSendsACodeEvenWithAPassword() throws {
        for password in [nil, Fixture.password] {
            var machine = try challenging(password: password)
            guard
                case .codeRequired(let sent) = try result(
                    machine.challengeAnswered(.success(Answer.code("T1")), correlationId: Answer.second))
            else { throw UnexpectedOutcome("expected codeRequired") }
            #expect(sent == CodeSent(next: Continuation("T1", Answer.second), sentTo: "a***@co**o.com", channel: "email", codeLength: 8))
            #expect(machine.state == .done)
        }
    }

    @Test func aPasswordChallengeAsksForThePasswordOrRedeemsTheOneSupplied() throws {
        var asking = try challenging()
        guard
            case .passwordRequired(let next) = try result(
                asking.challengeAnswered(.success(Answer.password("T1")), correlationId: Answer.second))
        else { throw UnexpectedOutcome("expected passwordRequired") }
        #expect(next == Continuation("T1", Answer.second))

        var redeeming = try challenging(password: Fixture.password)
        guard
            case .redeem(let grant, let id) = try call(
                redeeming.challengeAnswered(.success(Answer.password("T1")), correlationId: Answer.second)),
            case .password(let username, let password) = grant.kind
        else { throw UnexpectedOutcome("expected a password grant") }
        #expect(username == Fixture.username && password == Fixture.password && grant.continuationToken == "T1")
        #expect(id == Answer.second && grant.scopes == scopes && grant.claims == #"{"c":1}"# && redeeming.state == .redeeming(.start))
    }

    @Test func startChallengeErrorsMapToTheirKinds() throws {
        func decide(_ outcome: NativeAuthOutcome<ChallengeResponse>) throws -> FlowFailure {
            var machine = try challenging()
            let failure = try failure(machine.challengeAnswered(outcome, correlationId: Answer.second))
            #expect(machine.state == .done)
            return failure
        }
        #expect(try decide(.redirect(reason: nil)).kind == .browserRequired)
        let refused = try decide(.apiError(Answer.error(.expiredToken, description: nil)))
        #expect(refused.kind == .generalError && refused.details.message == NativeAuthErrorMessage.generalError)
        #expect(try decide(.failure(Answer.unreachable)).kind == .generalError)
    }

    // MARK: Resend

    @Test func aResendSendsTheChallengeAndHandsBackTheNewCode() throws {
        var machine = machine()
        guard case .challenge(let sentWith) = try call(machine.resendCode(on: token)) else {
            throw UnexpectedOutcome("expected the challenge")
        }
        #expect(sentWith == token && machine.state == .resendingCode)
        guard case .codeRequired(let sent) = try result(machine.challengeAnswered(.success(Answer.code("T2")), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected codeRequired") }
        #expect(sent.next == Continuation("T2", Answer.first) && sent.codeLength == 8)
    }

    @Test func aResendThatAsksForAPasswordEndsTheFlowAndOtherFailuresKeepTheState() throws {
        func decide(_ outcome: NativeAuthOutcome<ChallengeResponse>) throws -> FlowFailure {
            var machine = machine()
            _ = try call(machine.resendCode(on: token))
            return try failure(machine.challengeAnswered(outcome, correlationId: Answer.first))
        }
        let password = try decide(.success(Answer.password()))
        #expect(password.kind == .generalError && password.endsFlow)
        #expect(password.details.message == "The server asked for a password instead of sending a new code")
        let redirect = try decide(.redirect(reason: nil))
        #expect(redirect.kind == .browserRequired && !redirect.endsFlow)
        let refused = try decide(.apiError(Answer.error(.expiredToken)))
        #expect(refused.kind == .generalError && !refused.endsFlow)
        let unanswered = try decide(.failure(Answer.unreachable))
        #expect(unanswered.kind == .generalError && !unanswered.endsFlow)
    }

    // MARK: Redeeming

    @Test func eachStepRedeemsItsGrant() throws {
        func grant(_ action: SignInMachine.Action) throws -> TokenGrant {
            guard case .redeem(let grant, let id) = try call(action) else { throw UnexpectedOutcome("expected a grant") }
            #expect(id == Fixture.correlation && grant.scopes == scopes)
            return grant
        }
        var code = machine()
        let oob = try grant(code.submitCode("1234", on: token))
        guard case .oob("1234") = oob.kind else { throw UnexpectedOutcome("expected an oob grant") }
        #expect(oob.continuationToken == "T0")
        var password = machine()
        guard case .password(Fixture.username, "pw") = try grant(password.submitPassword("pw", username: Fixture.username, on: token)).kind
        else {
            throw UnexpectedOutcome("expected a password grant")
        }
        var after = machine()
        let continuation = try grant(
            after.signInAfterPreviousFlow(username: Fixture.username, continuationToken: "T-after", correlationId: Fixture.correlation))
        guard case .continuationToken(Fixture.username) = continuation.kind else {
            throw UnexpectedOutcome("expected a continuation-token grant")
        }
        #expect(continuation.continuationToken == "T-after")
    }

    @Test func aSignInAfterAPreviousFlowWithoutATokenFailsBeforeSending() throws {
        var machine = machine()
        let failure = try failure(
            machine.signInAfterPreviousFlow(username: Fixture.username, continuationToken: nil, correlationId: Fixture.correlation))
        #expect(failure.kind == .generalError && failure.details.correlationId == Fixture.correlation && machine.state == .done)
        #expect(failure.details.message == "Sign In is not available at this point, please use the standalone sign in methods")
    }

    @Test func tokensCompleteEveryStep() throws {
        for step in [SignInMachine.Step.start, .submitCode, .submitPassword, .afterPreviousFlow] {
            var machine = try redeeming(step)
            guard case .completed(let account) = try result(machine.redeemed(.success(try Answer.signedIn()), correlationId: Answer.first))
            else { throw UnexpectedOutcome("expected completed") }
            #expect(account.account.username == Fixture.username && machine.state == .done)
        }
    }

    @Test func aSecondFactorGoesOnAtTheMatchingIntrospectEndpoint() throws {
        for step in [SignInMachine.Step.start, .submitCode, .submitPassword, .afterPreviousFlow] {
            var mfa = try redeeming(step)
            guard
                case .introspect(true, let toMFA) = try call(
                    mfa.redeemed(.failure(.mfaRequired(continuationToken: "Tm", Answer.details)), correlationId: Answer.first))
            else { throw UnexpectedOutcome("expected the MFA introspect") }
            #expect(toMFA == Continuation("Tm", Answer.first) && mfa.state == .introspecting(mfa: true))
            var registration = try redeeming(step)
            guard
                case .introspect(false, let toRegistration) = try call(
                    registration.redeemed(
                        .failure(.registrationRequired(continuationToken: "Tr", Answer.details)), correlationId: Answer.first))
            else { throw UnexpectedOutcome("expected the registration introspect") }
            #expect(toRegistration == Continuation("Tr", Answer.first) && registration.state == .introspecting(mfa: false))
        }
    }

    /// Each step's kind for each refused redemption (docs/error-mapping.md#sign-in-start, #sign-in-states); none ends the flow.
    @Test func refusedRedemptionsMapToEachStepsKindsAndKeepTheState() throws {
        func kind(_ refusal: TokenRedemptionFailure, _ step: SignInMachine.Step) throws -> NativeAuthErrorKind {
            var machine = try redeeming(step)
            let decided = try failure(machine.redeemed(.failure(refusal), correlationId: Answer.first))
            #expect(!decided.endsFlow && machine.state == .done)
            return decided.kind
        }
        let details = Answer.details
        let table: [(TokenRedemptionFailure, [SignInMachine.Step: NativeAuthErrorKind])] = [
            (
                .browserRequired(details),
                [
                    .start: .browserRequired, .submitCode: .browserRequired, .submitPassword: .browserRequired,
                    .afterPreviousFlow: .browserRequired,
                ]
            ),
            (
                .invalidCredentials(details),
                [
                    .start: .invalidCredentials, .submitCode: .generalError, .submitPassword: .invalidPassword,
                    .afterPreviousFlow: .generalError,
                ]
            ),
            (
                .userNotFound(details),
                [
                    .start: .userNotFound, .submitCode: .generalError, .submitPassword: .generalError,
                    .afterPreviousFlow: .generalError,
                ]
            ),
            (
                .invalidCode(details),
                [
                    .start: .generalError, .submitCode: .invalidCode, .submitPassword: .generalError,
                    .afterPreviousFlow: .generalError,
                ]
            ),
            (
                .general(details),
                [
                    .start: .generalError, .submitCode: .generalError, .submitPassword: .generalError,
                    .afterPreviousFlow: .generalError,
                ]
            ),
        ]
        for (failure, kinds) in table {
            for (step, expected) in kinds {
                #expect(try kind(failure, step) == expected, "\(failure) in \(step)")
            }
        }
    }

    @Test func aWrongPasswordReadsInvalidPasswordAndAWrongCodeKeepsTheServersText() throws {
        var password = try redeeming(.submitPassword)
        let wrongPassword = try failure(password.redeemed(.failure(.invalidCredentials(Answer.details)), correlationId: Answer.first))
        #expect(wrongPassword.details.message == NativeAuthErrorMessage.invalidPassword)
        var start = try redeeming(.start)
        let wrongAtStart = try failure(start.redeemed(.failure(.invalidCredentials(Answer.details)), correlationId: Answer.first))
        #expect(wrongAtStart.details.message == "refused")

        var described = try redeeming(.submitCode)
        let withText = try failure(described.redeemed(.failure(.invalidCode(Answer.details)), correlationId: Answer.first))
        #expect(withText.details.message == "refused")
        var bare = try redeeming(.submitCode)
        let fallback = NativeAuthErrorDetails(message: NativeAuthErrorMessage.generalError, correlationId: Answer.first)
        let withoutText = try failure(bare.redeemed(.failure(.invalidCode(fallback)), correlationId: Answer.first))
        #expect(withoutText.details.message == NativeAuthErrorMessage.invalidCode)
    }

    // MARK: Introspecting

    @Test func theIntrospectAnswerHandsBackTheMethodsAndTheSecondFactorsToken() throws {
        var mfa = try introspecting(mfa: true)
        guard
            case .awaitingMFA(let methods, let next) = try result(
                mfa.introspected(.success(try Answer.introspected()), correlationId: Answer.second))
        else { throw UnexpectedOutcome("expected awaitingMFA") }
        #expect(
            methods.map(\.id) == ["m-email"] && methods.first?.loginHint == "a***@co**o.com"
                && methods.first?.channelTargetType.isEmailType == true)
        #expect(next == Continuation("Ti", Answer.second) && mfa.state == .done)

        var registration = try introspecting(mfa: false)
        guard
            case .registrationRequired(let kinds, let registered) = try result(
                registration.introspected(.success(try Answer.introspected()), correlationId: Answer.second))
        else { throw UnexpectedOutcome("expected registrationRequired") }
        #expect(kinds.map(\.challengeType) == ["oob"] && registered == Continuation("Ti", Answer.second))
    }

    @Test func everyIntrospectFailureEndsTheFlow() throws {
        for mfa in [true, false] {
            func decide(_ outcome: NativeAuthOutcome<IntrospectResponse>) throws -> FlowFailure {
                var machine = try introspecting(mfa: mfa)
                return try failure(machine.introspected(outcome, correlationId: Answer.second))
            }
            let redirect = try decide(.redirect(reason: nil))
            #expect(redirect.kind == .browserRequired && redirect.endsFlow)
            #expect(redirect.details.message == NativeAuthErrorMessage.browserRequired)
            let refused = try decide(.apiError(Answer.error(.expiredToken, description: nil)))
            #expect(refused.kind == .generalError && refused.endsFlow && refused.details.message == NativeAuthErrorMessage.generalError)
            let unanswered = try decide(.failure(Answer.unreachable))
            #expect(unanswered.kind == .generalError && unanswered.endsFlow && unanswered.details.correlationId == Answer.second)
        }
    }
}

extension Answer {
    /// The details a refused redemption carries, with the server's text `refused`.
    static let details = NativeAuthErrorDetails(message: "refused", correlationId: first)

    /// A token answer as `NativeAuthClient.redeem` turns it into an account result.
    static func signedIn() throws -> MSALNativeAuthUserAccountResult {
        let body = try JSONSerialization.data(withJSONObject: Fixture.tokenBody())
        return try MSALNativeAuthUserAccountResult.make(
            from: TokenResponse(json: body), requestedScopes: ["openid", "profile", "offline_access"],
            authority: URL(string: "https://contoso.ciamlogin.com/contoso.onmicrosoft.com")!, now: Date(timeIntervalSince1970: 0),
            correlationId: first)
    }

    /// An introspect answer with one email method and the token `Ti`.
    static func introspected() throws -> IntrospectResponse {
        try IntrospectResponse(
            json: Data(
                #"{"continuation_token":"Ti","methods":[{"id":"m-email","challenge_type":"oob","challenge_channel":"email","login_hint":"a***@co**o.com"}]}"#
                    .utf8))
    }
}
