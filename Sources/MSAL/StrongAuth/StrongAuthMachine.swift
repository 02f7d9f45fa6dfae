import Foundation

/// Every rule of the steps after a first factor in one value: the second factor
/// (docs/protocol.md#multifactor-authentication, docs/error-mapping.md#mfa-states) and the
/// registration of a strong-auth method (docs/protocol.md#strong-auth-registration,
/// docs/error-mapping.md#registration-states). What is checked before a request, which answer leads
/// to which request or outcome, which to which error, and which error ends the flow of the state
/// that sent the request.
///
/// It sends nothing and knows no public state; the strong-auth steps of `SignInController` run it
/// as `SignInMachine` is run.
package struct StrongAuthMachine: FlowMachine {
    package enum State: Sendable, Equatable {
        /// A step is about to begin.
        case idle
        /// `requestChallenge(authMethod:)`: waiting for `/oauth2/v2.0/challenge` with the method's id.
        case requestingMFAChallenge
        /// `MFARequiredState.submitChallenge`: waiting for the token endpoint (`mfa_oob`).
        case redeemingMFACode
        /// `challengeAuthMethod`: waiting for `/register/v1.0/challenge` with the contact.
        case challengingContact
        /// Waiting for `/register/v1.0/continue`, with a pre-verified contact (every failure then
        /// ends the flow, which has moved on at the server) or with a code.
        case continuingRegistration(preverified: Bool)
        /// The method is registered; waiting for the token endpoint. Every failure from here ends
        /// the flow.
        case redeemingRegistration
        /// The step has its result or its error.
        case done
    }

    /// What `/register/v1.0/continue` is sent with.
    package enum RegistrationGrant: Sendable, Equatable {
        /// A contact the server knows as verified (`grant_type=continuation_token`).
        case preverified
        /// The code sent to the contact (`grant_type=oob`).
        case oob(code: String)
    }

    /// The contact to register and how to reach it.
    package struct Contact: Sendable, Equatable {
        /// The contact, trimmed.
        package var target: String
        package var challengeType: String
        package var channel: String
    }

    /// The requests of the strong-auth steps.
    package enum Call: Sendable {
        /// `/oauth2/v2.0/challenge` with the MFA method's id.
        case mfaChallenge(methodId: String, Continuation)
        /// The token endpoint with this grant.
        case redeem(TokenGrant, correlationId: UUID)
        /// `/register/v1.0/challenge` for this contact.
        case registerChallenge(Contact, Continuation)
        /// `/register/v1.0/continue`.
        case continueRegistration(RegistrationGrant, Continuation)
    }

    /// How a strong-auth step ends, in plain values.
    package enum Outcome: Sendable {
        /// A code was sent to the method or the contact.
        case codeRequired(CodeSent)
        /// The user is signed in.
        case completed(MSALNativeAuthUserAccountResult)
    }

    package typealias Action = FlowAction<Outcome, Call>

    package var state = State.idle
    package static let idle = State.idle
    package static let done = State.done
    private let scopes: [String]
    private let claims: String?

    /// A machine for one step after the first factor of a sign-in that asks for `scopes` and `claims`.
    package init(scopes: [String], claims: String?) {
        self.scopes = scopes
        self.claims = claims
    }

    // MARK: Steps

    /// `requestChallenge(authMethod:)` on an MFA state.
    package mutating func requestMFAChallenge(methodId: String, on continuation: Continuation) -> Action {
        begin(.mfaChallenge(methodId: methodId, continuation), awaiting: .requestingMFAChallenge)
    }

    /// `MFARequiredState.submitChallenge`: an empty code is refused before anything is sent.
    package mutating func submitMFAChallenge(_ code: String, on continuation: Continuation) -> Action {
        let grant = TokenGrant(kind: .mfaOOB(code: code), continuationToken: continuation.token, scopes: scopes, claims: claims)
        let check = FlowFailure.ifEmpty(code, .invalidChallenge, continuation.correlationId)
        return begin(.redeem(grant, correlationId: continuation.correlationId), awaiting: .redeemingMFACode, unless: check)
    }

    /// `challengeAuthMethod` on a registration state: the contact is trimmed, and an empty one is
    /// refused before anything is sent.
    package mutating func challengeAuthMethod(_ contact: Contact, on continuation: Continuation) -> Action {
        var contact = contact
        contact.target = contact.target.trimmingCharacters(in: .whitespacesAndNewlines)
        let check = FlowFailure.ifEmpty(contact.target, .invalidInput, continuation.correlationId)
        return begin(.registerChallenge(contact, continuation), awaiting: .challengingContact, unless: check)
    }

    /// `RegisterStrongAuthVerificationRequiredState.submitChallenge`: an empty code is refused
    /// before anything is sent.
    package mutating func submitRegistrationChallenge(_ code: String, on continuation: Continuation) -> Action {
        let check = FlowFailure.ifEmpty(code, .invalidChallenge, continuation.correlationId)
        return begin(
            .continueRegistration(.oob(code: code), continuation), awaiting: .continuingRegistration(preverified: false), unless: check)
    }

    // MARK: MFA

    /// `/oauth2/v2.0/challenge` with the method's id answered. A refusal (`authMethodBlocked` for a
    /// blocked method), a redirect or no answer keeps the state; a password prompt ends the flow.
    package mutating func mfaChallengeAnswered(_ answer: NativeAuthOutcome<ChallengeResponse>, correlationId id: UUID) -> Action {
        expect(.requestingMFAChallenge)
        switch answer {
        case .success(let challenge):
            if let sent = challenge.codeSent(id) { return succeed(.codeRequired(sent)) }
            let message = "The server asked for a password instead of sending a code"
            return fail(.endingFlow(.generalError, NativeAuthErrorDetails(message: message, correlationId: id)))
        case .apiError(let error) where error.isProviderBlocked:
            return fail(.keepingState(.authMethodBlocked, error, id, fallback: NativeAuthErrorMessage.generalError))
        default:
            return fail(.keepingState(answer, id))
        }
    }

    /// The token endpoint answered.
    ///
    /// After the second factor: a wrong code is `invalidChallenge`; another second factor after
    /// this one ends the flow (nothing a client can do); any other failure keeps the state. After a
    /// registration: any failure ends the flow (docs/error-mapping.md#registration-states).
    package mutating func redeemed(_ result: Result<MSALNativeAuthUserAccountResult, TokenRedemptionFailure>, correlationId id: UUID)
        -> Action
    {
        switch (state, result) {
        case (.redeemingMFACode, .success(let account)), (.redeemingRegistration, .success(let account)):
            return succeed(.completed(account))
        case (.redeemingMFACode, .failure(.invalidCode(var details))):
            if details.message == NativeAuthErrorMessage.generalError { details.message = NativeAuthErrorMessage.invalidChallenge }
            return fail(.keepingState(.invalidChallenge, details))
        case (.redeemingMFACode, .failure(.browserRequired(let details))):
            return fail(.keepingState(.browserRequired, details))
        case (.redeemingMFACode, .failure(.mfaRequired(_, let details))),
            (.redeemingMFACode, .failure(.registrationRequired(_, let details))):
            return fail(.endingFlow(.generalError, details))
        case (.redeemingMFACode, .failure(let failure)):
            return fail(.keepingState(.generalError, failure.details))
        case (.redeemingRegistration, .failure(let failure)):
            return fail(.endingFlow(.generalError, failure.details))
        default:
            preconditionFailure("StrongAuthMachine got a token answer while \(state)")
        }
    }

    // MARK: Strong-auth registration

    /// `/register/v1.0/challenge` answered. A code goes to the contact; a pre-verified contact is
    /// registered at once; a redirect ends the flow; a refused contact (`invalidInput`, or
    /// `verificationContactBlocked`) or no answer keeps the state.
    package mutating func registerChallengeAnswered(_ answer: NativeAuthOutcome<RegisterChallengeResponse>, correlationId id: UUID)
        -> Action
    {
        expect(.challengingContact)
        switch answer {
        case .success(.oob(let token, let target, let channel, let codeLength)):
            return succeed(.codeRequired(CodeSent(next: Continuation(token, id), sentTo: target, channel: channel, codeLength: codeLength)))
        case .success(.preverified(let token)):
            // No code: the contact is known as verified; register it and sign in at once.
            return send(.continueRegistration(.preverified, Continuation(token, id)), awaiting: .continuingRegistration(preverified: true))
        case .redirect:
            return fail(.endingFlow(answer, id))
        case .apiError(let error)
        where error.error == .invalidRequest && error.errorCodes.contains(NativeAuthServerCode.invalidVerificationContact):
            return fail(.keepingState(.invalidInput, error, id))
        case .apiError(let error) where error.isProviderBlocked:
            return fail(.keepingState(.verificationContactBlocked, error, id, fallback: NativeAuthErrorMessage.generalError))
        default:
            return fail(.keepingState(answer, id))
        }
    }

    /// `/register/v1.0/continue` answered: its token signs the user in (the token call sends no
    /// username, and the scopes the sign-in asked for). After a pre-verified contact every failure
    /// ends the flow (a redirect as a general error); after a code a wrong code is
    /// `invalidChallenge`, a redirect ends the flow, and any other refusal or no answer keeps the state.
    package mutating func registrationContinued(_ answer: NativeAuthOutcome<ContinuationTokenResponse>, correlationId id: UUID) -> Action {
        guard case .continuingRegistration(let preverified) = state else {
            preconditionFailure("StrongAuthMachine got a /register/v1.0/continue answer while \(state)")
        }
        switch answer {
        case .success(let body):
            let grant = TokenGrant(
                kind: .continuationToken(username: nil), continuationToken: body.continuationToken, scopes: scopes, claims: claims)
            return send(.redeem(grant, correlationId: id), awaiting: .redeemingRegistration)
        case .redirect(let reason) where preverified:
            return fail(.endingFlow(.generalError, NativeAuthErrorDetails(redirectReason: reason, correlationId: id)))
        case _ where preverified, .redirect:
            return fail(.endingFlow(answer, id))
        case .apiError(let error) where error.error == .invalidGrant && error.suberror == .invalidOOBValue:
            return fail(.keepingState(.invalidChallenge, error, id))
        default:
            return fail(.keepingState(answer, id))
        }
    }
}

extension NativeAuthAPIError {
    /// `access_denied` + `provider_blocked_by_rep`: the service will not send codes to that method or contact.
    var isProviderBlocked: Bool { error == .accessDenied && suberror == .providerBlockedByRep }
}
