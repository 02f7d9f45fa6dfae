import Foundation
import MSAL
import Testing

@testable import MSAL

/// `SignInMachine` on its own: answers in, decisions out, nothing sent.
@Suite struct SignInMachineTests {
    let offline: OfflineControllers
    init() throws { offline = try OfflineControllers() }

    private let scopes = ["User.Read", "openid", "profile", "offline_access"]

    private func request(username: String = Fixture.username, password: String? = nil) -> SignInController.StartRequest {
        SignInController.StartRequest(
            username: username, password: password, scopes: scopes, claims: #"{"c":1}"#, correlationId: Fixture.correlation)
    }
    private var codeState: SignInCodeRequiredState {
        SignInCodeRequiredState(
            controller: offline.signIn, continuationToken: "T0", correlationId: Fixture.correlation, scopes: scopes, claims: nil)
    }
    private var passwordState: SignInPasswordRequiredState {
        SignInPasswordRequiredState(
            controller: offline.signIn, continuationToken: "T0", correlationId: Fixture.correlation, username: Fixture.username,
            scopes: scopes, claims: nil)
    }
    /// A start machine that has had `/initiate` answered and waits for the challenge.
    private func challenging(password: String? = nil) throws -> SignInMachine {
        var machine = SignInMachine.start(request(password: password), controller: offline.signIn)
        _ = try call(machine.initiateAnswered(.success(ContinuationTokenResponse(continuationToken: "T0")), correlationId: Answer.first))
        return machine
    }
    /// A machine of `step` waiting for the token endpoint.
    private func redeeming(_ step: SignInMachine.Step) throws -> SignInMachine {
        switch step {
        case .start:
            var machine = try challenging(password: Fixture.password)
            _ = try call(machine.startChallengeAnswered(.success(Answer.password("T1")), correlationId: Answer.second))
            return machine
        case .submitCode: return SignInMachine.submitCode(Fixture.code, on: codeState).0
        case .submitPassword: return SignInMachine.submitPassword(Fixture.password, on: passwordState).0
        case .afterPreviousFlow:
            return try SignInMachine.afterPreviousFlow(
                username: Fixture.username, continuationToken: "T-after", scopes: nil, claims: nil, correlationId: Fixture.correlation,
                controller: offline.signIn
            ).get().0
        }
    }
    /// A machine of `step` whose credential was right and that waits for the introspect answer.
    private func introspecting(mfa: Bool, _ step: SignInMachine.Step = .submitPassword) throws -> SignInMachine {
        var machine = try redeeming(step)
        let failure: TokenRedemptionFailure =
            mfa ? .mfaRequired(continuationToken: "Tm", Answer.details) : .registrationRequired(continuationToken: "Tr", Answer.details)
        _ = try call(machine.redeemed(.failure(failure), correlationId: Answer.first))
        return machine
    }

    // MARK: Local checks

    @Test func theStartChecksRefuseAnEmptyUsernameAndAnEmptyPassword() {
        let username = SignInMachine.checkStart(request(username: ""))
        #expect(username?.kind == .invalidUsername && username?.details.message == NativeAuthErrorMessage.invalidUsername)
        let password = SignInMachine.checkStart(request(password: ""))
        #expect(password?.kind == .invalidCredentials && password?.details.message == NativeAuthErrorMessage.invalidCredentials)
        #expect(SignInMachine.checkStart(request()) == nil)
        #expect(SignInMachine.checkStart(request(password: Fixture.password)) == nil)
    }

    // MARK: Start

    @Test func anInitiateTokenLeadsToTheChallengeWithTheEchoedCorrelationId() throws {
        var machine = SignInMachine.start(request(), controller: offline.signIn)
        guard
            case .challenge(let token, let id) = try call(
                machine.initiateAnswered(.success(ContinuationTokenResponse(continuationToken: "T0")), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected the challenge") }
        #expect(token == "T0" && id == Answer.first && machine.state == .challenging)
    }

    @Test func initiateErrorsMapToTheirKinds() throws {
        func decide(_ outcome: NativeAuthOutcome<ContinuationTokenResponse>) throws -> FlowFailure {
            var machine = SignInMachine.start(request(), controller: offline.signIn)
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

    @Test func aCodeChallengeHandsBackTheCodeStateEvenWithAPassword() throws {
        for password in [nil, Fixture.password] {
            var machine = try challenging(password: password)
            guard
                case .codeRequired(let state, let sentTo, let channel, let length) = try result(
                    machine.startChallengeAnswered(.success(Answer.code("T1")), correlationId: Answer.second))
            else { throw UnexpectedOutcome("expected codeRequired") }
            #expect(state.continuationToken == "T1" && state.correlationId == Answer.second && state.scopes == scopes)
            #expect(state.claims == #"{"c":1}"#)
            #expect(sentTo == "a***@co**o.com" && channel.isEmailType && length == 8)
        }
        #expect(offline.requests == 0)
    }

    @Test func aPasswordChallengeAsksForThePasswordOrRedeemsTheOneSupplied() throws {
        var asking = try challenging()
        guard
            case .passwordRequired(let state) = try result(
                asking.startChallengeAnswered(.success(Answer.password("T1")), correlationId: Answer.second))
        else { throw UnexpectedOutcome("expected passwordRequired") }
        #expect(state.continuationToken == "T1" && state.username == Fixture.username && state.correlationId == Answer.second)

        var redeeming = try challenging(password: Fixture.password)
        guard
            case .redeem(let grant, let id) = try call(
                redeeming.startChallengeAnswered(.success(Answer.password("T1")), correlationId: Answer.second)),
            case .password(let username, let password) = grant.kind
        else { throw UnexpectedOutcome("expected a password grant") }
        #expect(username == Fixture.username && password == Fixture.password && grant.continuationToken == "T1")
        #expect(id == Answer.second && grant.scopes == scopes && redeeming.state == .redeeming)
    }

    @Test func startChallengeErrorsMapToTheirKinds() throws {
        func decide(_ outcome: NativeAuthOutcome<ChallengeResponse>) throws -> FlowFailure {
            var machine = try challenging()
            return try failure(machine.startChallengeAnswered(outcome, correlationId: Answer.second))
        }
        #expect(try decide(.redirect(reason: nil)).kind == .browserRequired)
        let refused = try decide(.apiError(Answer.error(.expiredToken, description: nil)))
        #expect(refused.kind == .generalError && refused.details.message == NativeAuthErrorMessage.generalError)
        #expect(try decide(.failure(Answer.unreachable)).kind == .generalError)
    }

    // MARK: Resend

    @Test func aResentCodeHandsBackANewCodeState() throws {
        var machine = SignInMachine.resendCode(on: codeState)
        guard
            case .codeRequired(let state, _, _, let length) = try result(
                machine.resendAnswered(.success(Answer.code("T2")), correlationId: Answer.first))
        else { throw UnexpectedOutcome("expected codeRequired") }
        #expect(state.continuationToken == "T2" && state.correlationId == Answer.first && state.scopes == scopes && length == 8)
    }

    @Test func aResendThatAsksForAPasswordEndsTheFlowAndOtherFailuresKeepTheState() throws {
        func decide(_ outcome: NativeAuthOutcome<ChallengeResponse>) throws -> FlowFailure {
            var machine = SignInMachine.resendCode(on: codeState)
            return try failure(machine.resendAnswered(outcome, correlationId: Answer.first))
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
        let code = SignInMachine.submitCode("1234", on: codeState).1
        guard case .oob("1234") = code.kind else { throw UnexpectedOutcome("expected an oob grant") }
        #expect(code.continuationToken == "T0" && code.scopes == scopes)
        let password = SignInMachine.submitPassword("pw", on: passwordState).1
        guard case .password(Fixture.username, "pw") = password.kind else { throw UnexpectedOutcome("expected a password grant") }
        let after = try SignInMachine.afterPreviousFlow(
            username: Fixture.username, continuationToken: "T-after", scopes: ["User.Read"], claims: nil,
            correlationId: Fixture.correlation, controller: offline.signIn
        ).get().1
        guard case .continuationToken(Fixture.username) = after.kind else {
            throw UnexpectedOutcome("expected a continuation-token grant")
        }
        #expect(after.continuationToken == "T-after" && after.scopes == Scopes.withDefaults(["User.Read"]))
    }

    @Test func aSignInAfterAPreviousFlowWithoutATokenFailsBeforeSending() throws {
        guard
            case .failure(let failure) = SignInMachine.afterPreviousFlow(
                username: Fixture.username, continuationToken: nil, scopes: nil, claims: nil, correlationId: Fixture.correlation,
                controller: offline.signIn)
        else { throw UnexpectedOutcome("expected a failure") }
        #expect(failure.kind == .generalError && failure.details.correlationId == Fixture.correlation)
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
            let toMFA = try call(
                mfa.redeemed(.failure(.mfaRequired(continuationToken: "Tm", Answer.details)), correlationId: Answer.first))
            #expect(toMFA == .mfa(continuationToken: "Tm", correlationId: Answer.first) && mfa.state == .introspecting)
            var registration = try redeeming(step)
            let toRegistration = try call(
                registration.redeemed(.failure(.registrationRequired(continuationToken: "Tr", Answer.details)), correlationId: Answer.first)
            )
            #expect(toRegistration == .registration(continuationToken: "Tr", correlationId: Answer.first))
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

    @Test func theIntrospectAnswerHandsBackTheSecondFactorState() throws {
        var mfa = try introspecting(mfa: true)
        guard
            case .awaitingMFA(let methods, let state) = try result(
                mfa.introspected(.success(try Answer.introspected()), correlationId: Answer.second))
        else { throw UnexpectedOutcome("expected awaitingMFA") }
        #expect(
            methods.map(\.id) == ["m-email"] && methods.first?.loginHint == "a***@co**o.com"
                && methods.first?.channelTargetType.isEmailType == true)
        #expect(state.continuationToken == "Ti" && state.correlationId == Answer.second && state.context.scopes == scopes)

        var registration = try introspecting(mfa: false)
        guard
            case .strongAuthMethodRegistration(let kinds, let next) = try result(
                registration.introspected(.success(try Answer.introspected()), correlationId: Answer.second))
        else { throw UnexpectedOutcome("expected strongAuthMethodRegistration") }
        #expect(kinds.map(\.challengeType) == ["oob"] && next.continuationToken == "Ti" && next.correlationId == Answer.second)
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
