import Foundation

/// Every rule of the steps after a first factor in one value: the second factor
/// (docs/protocol.md#multifactor-authentication, docs/error-mapping.md#mfa-states) and the
/// registration of a strong-auth method (docs/protocol.md#strong-auth-registration,
/// docs/error-mapping.md#registration-states). Which answer leads to which next state or request,
/// which to which error, and which error ends the flow of the state that sent the request.
///
/// It sends nothing; the strong-auth steps of `SignInController` run it as `SignInMachine` is run.
package struct StrongAuthMachine: Sendable {
    package enum State: Sendable, Equatable {
        /// `requestChallenge(authMethod:)`: waiting for `/oauth2/v2.0/challenge` with the method's id.
        case requestingMFAChallenge
        /// `MFARequiredState.submitChallenge`: waiting for the token endpoint (`mfa_oob`).
        case redeemingMFACode
        /// `challengeAuthMethod`: waiting for `/register/v1.0/challenge` with the contact.
        case challengingContact
        /// Waiting for `/register/v1.0/continue`.
        case continuingRegistration
        /// The method is registered; waiting for the token endpoint. Every failure from here ends
        /// the flow.
        case redeemingRegistration
        /// The step has its result or its error.
        case done
    }

    /// Which public step the machine runs: it decides what a `/register/v1.0/continue` refusal means.
    package enum Step: Sendable, Equatable {
        case requestMFAChallenge
        case submitMFAChallenge
        /// `challengeAuthMethod`: a pre-verified contact is registered at once.
        case challengeAuthMethod
        /// `RegisterStrongAuthVerificationRequiredState.submitChallenge`.
        case submitRegistrationChallenge
    }

    /// What `/register/v1.0/continue` is sent with.
    package enum RegistrationGrant: Sendable, Equatable {
        /// A contact the server knows as verified (`grant_type=continuation_token`).
        case preverified
        /// The code sent to the contact (`grant_type=oob`).
        case oob(code: String)
    }

    /// The requests a strong-auth step may send after its first.
    package enum Call: Sendable {
        /// `/register/v1.0/continue` with this token.
        case continueRegistration(RegistrationGrant, continuationToken: String, correlationId: UUID)
        /// The token endpoint with this grant.
        case redeem(TokenGrant, correlationId: UUID)
    }

    package private(set) var state: State
    package let step: Step
    private let context: SignInContinuationContext

    private init(_ state: State, step: Step, context: SignInContinuationContext) {
        self.state = state
        self.step = step
        self.context = context
    }

    // MARK: Steps

    package static func requestMFAChallenge(on state: MFABaseState) -> StrongAuthMachine {
        StrongAuthMachine(.requestingMFAChallenge, step: .requestMFAChallenge, context: state.context)
    }

    /// `submitChallenge` on `state`, and the `mfa_oob` grant to redeem.
    package static func submitMFAChallenge(_ code: String, on state: MFARequiredState) -> (StrongAuthMachine, TokenGrant) {
        let grant = TokenGrant(
            kind: .mfaOOB(code: code), continuationToken: state.continuationToken, scopes: state.context.scopes,
            claims: state.context.claims)
        return (StrongAuthMachine(.redeemingMFACode, step: .submitMFAChallenge, context: state.context), grant)
    }

    package static func challengeAuthMethod(on state: RegisterStrongAuthBaseState) -> StrongAuthMachine {
        StrongAuthMachine(.challengingContact, step: .challengeAuthMethod, context: state.context)
    }

    /// `submitChallenge` on `state`, and the `/register/v1.0/continue` request with the code.
    package static func submitRegistrationChallenge(_ code: String, on state: RegisterStrongAuthVerificationRequiredState)
        -> (StrongAuthMachine, Call)
    {
        (
            StrongAuthMachine(.continuingRegistration, step: .submitRegistrationChallenge, context: state.context),
            .continueRegistration(.oob(code: code), continuationToken: state.continuationToken, correlationId: state.correlationId)
        )
    }

    // MARK: Checks before anything is sent

    /// An empty code: `invalidChallenge`, before anything is sent.
    package static func checkChallenge(_ code: String, correlationId: UUID) -> FlowFailure? {
        code.isEmpty
            ? FlowFailure(
                .invalidChallenge, NativeAuthErrorDetails(message: NativeAuthErrorMessage.invalidChallenge, correlationId: correlationId))
            : nil
    }

    /// The contact to register, trimmed; an empty one is `invalidInput`, before anything is sent.
    package static func checkContact(_ contact: String, correlationId: UUID) -> Result<String, FlowFailure> {
        let trimmed = contact.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            return .failure(
                FlowFailure(
                    .invalidInput, NativeAuthErrorDetails(message: NativeAuthErrorMessage.invalidInput, correlationId: correlationId)))
        }
        return .success(trimmed)
    }

    // MARK: MFA

    /// `/oauth2/v2.0/challenge` with the method's id answered. A refusal (`authMethodBlocked` for a
    /// blocked method), a redirect or no answer keeps the state; a password prompt ends the flow.
    package mutating func mfaChallengeAnswered(_ outcome: NativeAuthOutcome<ChallengeResponse>, correlationId id: UUID)
        -> FlowAction<MFARequestChallengeResult, Never>
    {
        expect(.requestingMFAChallenge)
        switch outcome {
        case .success(.oob(let token, let label, let channel, let codeLength, _)):
            let next = MFARequiredState(context: context, continuationToken: token, correlationId: id)
            return .succeed(
                .verificationRequired(
                    newState: next, sentTo: label, channelTargetType: MSALNativeAuthChannelType(value: channel), codeLength: codeLength))
        case .success(.password):
            return .fail(
                .ending(
                    .generalError,
                    NativeAuthErrorDetails(message: "The server asked for a password instead of sending a code", correlationId: id)))
        case .redirect(let reason):
            return .fail(.retry(.browserRequired, NativeAuthErrorDetails(redirectReason: reason, correlationId: id)))
        case .apiError(let error):
            let details = NativeAuthErrorDetails(error, correlationId: id, fallback: NativeAuthErrorMessage.generalError)
            return .fail(.retry(error.isProviderBlocked ? .authMethodBlocked : .generalError, details))
        case .failure(let failure):
            return .fail(.retry(.generalError, NativeAuthErrorDetails(failure, correlationId: id)))
        }
    }

    /// The token endpoint answered the second factor. A wrong code is `invalidChallenge`; another
    /// second factor after this one ends the flow (nothing a client can do); any other failure
    /// keeps the state.
    package mutating func mfaRedeemed(_ result: Result<MSALNativeAuthUserAccountResult, TokenRedemptionFailure>, correlationId id: UUID)
        -> FlowAction<MFASubmitChallengeResult, Never>
    {
        expect(.redeemingMFACode)
        switch result {
        case .success(let account):
            return .succeed(.completed(account))
        case .failure(.invalidCode(var details)):
            if details.message == NativeAuthErrorMessage.generalError { details.message = NativeAuthErrorMessage.invalidChallenge }
            return .fail(.retry(.invalidChallenge, details))
        case .failure(.browserRequired(let details)):
            return .fail(.retry(.browserRequired, details))
        case .failure(.mfaRequired(_, let details)), .failure(.registrationRequired(_, let details)):
            return .fail(.ending(.generalError, details))
        case .failure(let failure):
            return .fail(.retry(.generalError, failure.details))
        }
    }

    // MARK: Strong-auth registration

    /// `/register/v1.0/challenge` answered. A code goes to the contact; a pre-verified contact is
    /// registered at once; a redirect ends the flow; a refused contact (`invalidInput`, or
    /// `verificationContactBlocked`) or no answer keeps the state.
    package mutating func registerChallengeAnswered(_ outcome: NativeAuthOutcome<RegisterChallengeResponse>, correlationId id: UUID)
        -> FlowAction<RegisterStrongAuthChallengeResult, Call>
    {
        expect(.challengingContact)
        switch outcome {
        case .success(.oob(let token, let target, let channel, let codeLength)):
            let next = RegisterStrongAuthVerificationRequiredState(context: context, continuationToken: token, correlationId: id)
            return .succeed(
                .verificationRequired(
                    MSALNativeAuthRegisterStrongAuthVerificationRequiredResult(
                        newState: next, sentTo: target, channelTargetType: MSALNativeAuthChannelType(value: channel), codeLength: codeLength
                    )))
        case .success(.preverified(let token)):
            // No code: the contact is known as verified; register it and sign in at once.
            state = .continuingRegistration
            return .call(.continueRegistration(.preverified, continuationToken: token, correlationId: id))
        case .redirect(let reason):
            return .fail(.ending(.browserRequired, NativeAuthErrorDetails(redirectReason: reason, correlationId: id)))
        case .apiError(let error):
            let details = NativeAuthErrorDetails(error, correlationId: id, fallback: NativeAuthErrorMessage.generalError)
            if error.error == .invalidRequest, error.errorCodes.contains(NativeAuthServerCode.invalidVerificationContact) {
                var invalid = details
                if invalid.message == NativeAuthErrorMessage.generalError { invalid.message = NativeAuthErrorMessage.invalidInput }
                return .fail(.retry(.invalidInput, invalid))
            }
            return .fail(.retry(error.isProviderBlocked ? .verificationContactBlocked : .generalError, details))
        case .failure(let failure):
            return .fail(.retry(.generalError, NativeAuthErrorDetails(failure, correlationId: id)))
        }
    }

    /// `/register/v1.0/continue` answered: its token signs the user in (the token call sends no
    /// username, and the scopes the sign-in asked for). After a pre-verified contact every failure
    /// ends the flow; after a code a wrong code is `invalidChallenge`, a redirect ends the flow, and
    /// any other refusal or no answer keeps the state.
    package mutating func registrationContinued(_ outcome: NativeAuthOutcome<ContinuationTokenResponse>, correlationId id: UUID)
        -> FlowAction<MSALNativeAuthUserAccountResult, Call>
    {
        expect(.continuingRegistration)
        // After a pre-verified contact the challenge state's flow has moved on at the server.
        let preverified = step == .challengeAuthMethod
        switch outcome {
        case .success(let body):
            state = .redeemingRegistration
            let grant = TokenGrant(
                kind: .continuationToken(username: nil), continuationToken: body.continuationToken, scopes: context.scopes,
                claims: context.claims)
            return .call(.redeem(grant, correlationId: id))
        case .redirect(let reason):
            return .fail(
                .ending(preverified ? .generalError : .browserRequired, NativeAuthErrorDetails(redirectReason: reason, correlationId: id)))
        case .apiError(let error):
            let details = NativeAuthErrorDetails(error, correlationId: id, fallback: NativeAuthErrorMessage.generalError)
            if preverified { return .fail(.ending(.generalError, details)) }
            if error.error == .invalidGrant, error.suberror == .invalidOOBValue {
                var invalid = details
                if invalid.message == NativeAuthErrorMessage.generalError { invalid.message = NativeAuthErrorMessage.invalidChallenge }
                return .fail(.retry(.invalidChallenge, invalid))
            }
            return .fail(.retry(.generalError, details))
        case .failure(let failure):
            let details = NativeAuthErrorDetails(failure, correlationId: id)
            return .fail(preverified ? .ending(.generalError, details) : .retry(.generalError, details))
        }
    }

    /// The token endpoint answered after the method was registered: any failure ends the flow
    /// (docs/error-mapping.md#registration-states).
    package mutating func registrationRedeemed(
        _ result: Result<MSALNativeAuthUserAccountResult, TokenRedemptionFailure>, correlationId id: UUID
    ) -> FlowAction<MSALNativeAuthUserAccountResult, Never> {
        expect(.redeemingRegistration)
        switch result {
        case .success(let account): return .succeed(account)
        case .failure(let failure): return .fail(.ending(.generalError, failure.details))
        }
    }

    private mutating func expect(_ expected: State) {
        precondition(state == expected, "StrongAuthMachine got an answer for \(expected) while \(state)")
        state = .done
    }
}

extension NativeAuthAPIError {
    /// `access_denied` + `provider_blocked_by_rep`: the service will not send codes to that method or contact.
    var isProviderBlocked: Bool { error == .accessDenied && suberror == .providerBlockedByRep }
}
