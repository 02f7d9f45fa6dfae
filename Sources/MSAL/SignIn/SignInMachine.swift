import Foundation

/// Every rule of the sign-in flow in one value (docs/protocol.md#password-sign-in, #code-sign-in,
/// docs/error-mapping.md#sign-in-start, #sign-in-states): what is checked before a request, which
/// answer of `/initiate`, `/challenge`, the token endpoint and the introspect endpoints leads to
/// which request or outcome, which to which error, and which error ends the flow of the state that
/// sent the request.
///
/// It sends nothing and knows no public state: `SignInController` starts a machine for one call of
/// one step, sends what it asks for, feeds each answer to the event method named after it, and makes
/// the public states from the plain outcome. Every step that redeems a credential (a password, a
/// code, the token that ends a sign-up or a password reset) goes on through `redeemed` and, when the
/// tenant wants a second factor, `introspected`, so MFA and registration start the same way after
/// each of them (docs/protocol.md#multifactor-authentication, #strong-auth-registration).
package struct SignInMachine: FlowMachine {
    package enum State: Sendable, Equatable {
        /// A step is about to begin.
        case idle
        /// `signIn(parameters:)`: waiting for `/oauth2/v2.0/initiate`, then for its challenge;
        /// `password` is the one the app supplied for `username`, redeemed as soon as the server
        /// asks for it.
        case initiating(username: String, password: String?)
        case challenging(username: String, password: String?)
        /// `resendCode`: waiting for the challenge that sends a new code.
        case resendingCode
        /// Waiting for the token endpoint to redeem the credential `step` sent.
        case redeeming(Step)
        /// The credential was right and a second factor is wanted; waiting for the MFA (`mfa`) or
        /// the registration introspect endpoint. Every failure from here ends the flow (the server
        /// has spent the token).
        case introspecting(mfa: Bool)
        /// The step has its result or its error.
        case done
    }

    /// Which public step sent the credential being redeemed: it decides which error kinds a token
    /// answer maps to.
    package enum Step: Sendable, Equatable {
        /// `signIn(parameters:)`.
        case start
        /// `SignInCodeRequiredState.submitCode`.
        case submitCode
        /// `SignInPasswordRequiredState.submitPassword`.
        case submitPassword
        /// `signIn` on `SignInAfterSignUpState` or `SignInAfterResetPasswordState`.
        case afterPreviousFlow
    }

    /// The requests of the sign-in flow.
    package enum Call: Sendable {
        /// `/oauth2/v2.0/initiate` for `username`.
        case initiate(username: String, correlationId: UUID)
        /// `/oauth2/v2.0/challenge` with this token.
        case challenge(Continuation)
        /// The token endpoint with this grant.
        case redeem(TokenGrant, correlationId: UUID)
        /// `/oauth2/v2.0/introspect` (`mfa`) or `/register/v1.0/introspect` with this token.
        case introspect(mfa: Bool, Continuation)
    }

    /// How a sign-in step ends, in plain values: the controller makes the public states from them.
    package enum Outcome: Sendable {
        /// A code was sent (the start, `resendCode`).
        case codeRequired(CodeSent)
        /// The server wants the password (the start, when the app supplied none).
        case passwordRequired(Continuation)
        /// The user is signed in.
        case completed(MSALNativeAuthUserAccountResult)
        /// A second factor is wanted: the methods, and the continuation the MFA state is made of.
        case awaitingMFA([MSALAuthMethod], Continuation)
        /// A strong-auth method must be registered first: the kinds the user may register.
        case registrationRequired([MSALAuthMethod], Continuation)
    }

    package typealias Action = FlowAction<Outcome, Call>

    package var state = State.idle
    package static let idle = State.idle
    package static let done = State.done
    private let scopes: [String]
    private let claims: String?

    /// A machine for one step of a sign-in that asks for `scopes` (the OIDC defaults included) and
    /// `claims`. The steps that send the username are given it.
    package init(scopes: [String], claims: String?) {
        self.scopes = scopes
        self.claims = claims
    }

    // MARK: Steps

    /// `signIn(parameters:)`: an empty username, or an empty password the app supplied, is refused
    /// before anything is sent.
    package mutating func start(username: String, password: String?, correlationId id: UUID) -> Action {
        let checks = [FlowFailure.ifEmpty(username, .invalidUsername, id), password.flatMap { .ifEmpty($0, .invalidCredentials, id) }]
        let call = Call.initiate(username: username, correlationId: id)
        return begin(call, awaiting: .initiating(username: username, password: password), unless: checks[0], checks[1])
    }

    /// `SignInCodeRequiredState.resendCode`.
    package mutating func resendCode(on continuation: Continuation) -> Action {
        begin(.challenge(continuation), awaiting: .resendingCode)
    }

    /// `SignInCodeRequiredState.submitCode`: an empty code is refused before anything is sent.
    package mutating func submitCode(_ code: String, on continuation: Continuation) -> Action {
        let check = FlowFailure.ifEmpty(code, .invalidCode, continuation.correlationId)
        return begin(redeeming(.oob(code: code), continuation), awaiting: .redeeming(.submitCode), unless: check)
    }

    /// `SignInPasswordRequiredState.submitPassword`: the password of `username`; an empty one is
    /// refused before anything is sent.
    package mutating func submitPassword(_ password: String, username: String, on continuation: Continuation) -> Action {
        let check = FlowFailure.ifEmpty(password, .invalidPassword, continuation.correlationId)
        let call = redeeming(.password(username: username, password: password), continuation)
        return begin(call, awaiting: .redeeming(.submitPassword), unless: check)
    }

    /// The sign-in of `username` with the token that ended a sign-up or a password reset; without
    /// a token there is nothing to redeem (docs/protocol.md#sign-in-after-sign-up-or-reset).
    package mutating func signInAfterPreviousFlow(username: String, continuationToken: String?, correlationId id: UUID) -> Action {
        let message = "Sign In is not available at this point, please use the standalone sign in methods"
        let noToken = continuationToken == nil ? FlowFailure.keepingState(.generalError, .init(message: message, correlationId: id)) : nil
        let call = redeeming(.continuationToken(username: username), Continuation(continuationToken ?? "", id))
        return begin(call, awaiting: .redeeming(.afterPreviousFlow), unless: noToken)
    }

    /// The token endpoint with a grant of `kind` for `continuation`.
    private func redeeming(_ kind: TokenGrant.Kind, _ continuation: Continuation) -> Call {
        .redeem(
            TokenGrant(kind: kind, continuationToken: continuation.token, scopes: scopes, claims: claims),
            correlationId: continuation.correlationId)
    }

    // MARK: signIn(parameters:)

    /// `/oauth2/v2.0/initiate` answered: `user_not_found` is its own kind; any other error is general.
    package mutating func initiateAnswered(_ answer: NativeAuthOutcome<ContinuationTokenResponse>, correlationId id: UUID)
        -> Action
    {
        guard case .initiating(let username, let password) = state else {
            preconditionFailure("SignInMachine got /initiate while \(state)")
        }
        switch answer {
        case .success(let body):
            return send(
                .challenge(Continuation(body.continuationToken, id)), awaiting: .challenging(username: username, password: password))
        case .apiError(let error) where error.error == .userNotFound:
            return fail(.keepingState(.userNotFound, error, id))
        default:
            return fail(.keepingState(answer, id))
        }
    }

    /// `/oauth2/v2.0/challenge` answered.
    ///
    /// After `/initiate`: a code, a password prompt (redeemed at once when the app supplied the
    /// password), or an error. After `resendCode`: a new code; a refusal, a redirect or no answer
    /// keeps the state, and a password prompt ends the flow.
    package mutating func challengeAnswered(_ answer: NativeAuthOutcome<ChallengeResponse>, correlationId id: UUID) -> Action {
        switch (state, answer) {
        case (.challenging(let username, let password), .success(let challenge)):
            // A code-only account gets a code even when the app supplied a password (docs/protocol.md#sign-in-endpoints).
            if let sent = challenge.codeSent(id) { return succeed(.codeRequired(sent)) }
            let next = Continuation(challenge.continuationToken, id)
            guard let password else { return succeed(.passwordRequired(next)) }
            return send(redeeming(.password(username: username, password: password), next), awaiting: .redeeming(.start))
        case (.resendingCode, .success(let challenge)):
            if let sent = challenge.codeSent(id) { return succeed(.codeRequired(sent)) }
            let message = "The server asked for a password instead of sending a new code"
            return fail(.endingFlow(.generalError, NativeAuthErrorDetails(message: message, correlationId: id)))
        case (.challenging, _), (.resendingCode, _):
            return fail(.keepingState(answer, id))
        default:
            preconditionFailure("SignInMachine got a challenge answer while \(state)")
        }
    }

    // MARK: Redeeming, and what follows it

    /// The token endpoint answered. Tokens end the step; `mfa_required` and
    /// `registration_required` go on at the matching introspect endpoint; any other failure keeps
    /// the state that sent the credential (docs/error-mapping.md#sign-in-states), with the kind of
    /// the step that sent it.
    package mutating func redeemed(_ result: Result<MSALNativeAuthUserAccountResult, TokenRedemptionFailure>, correlationId id: UUID)
        -> Action
    {
        guard case .redeeming(let step) = state else { preconditionFailure("SignInMachine got a token answer while \(state)") }
        switch result {
        case .success(let account):
            return succeed(.completed(account))
        case .failure(.mfaRequired(let token, _)):
            return send(.introspect(mfa: true, Continuation(token, id)), awaiting: .introspecting(mfa: true))
        case .failure(.registrationRequired(let token, _)):
            return send(.introspect(mfa: false, Continuation(token, id)), awaiting: .introspecting(mfa: false))
        case .failure(let failure):
            return fail(.keepingState(Self.kind(of: failure, in: step), Self.details(of: failure, in: step)))
        }
    }

    /// The introspect endpoint answered: the methods and the continuation that goes on with them.
    /// Every failure ends the flow of the state that sent the credential (the server has spent its
    /// token).
    package mutating func introspected(_ answer: NativeAuthOutcome<IntrospectResponse>, correlationId id: UUID) -> Action {
        guard case .introspecting(let mfa) = state else { preconditionFailure("SignInMachine got an introspect answer while \(state)") }
        guard case .success(let body) = answer else { return fail(.endingFlow(answer, id)) }
        let methods = body.methods.map {
            MSALAuthMethod(
                id: $0.id, challengeType: $0.challengeType, channelTargetType: MSALNativeAuthChannelType(value: $0.channel),
                loginHint: $0.loginHint)
        }
        let next = Continuation(body.continuationToken, id)
        return succeed(mfa ? .awaitingMFA(methods, next) : .registrationRequired(methods, next))
    }

    /// The kind a refused redemption has in `step`: a redirect is always browser-required; a wrong
    /// password or an unknown user at the start have their own kinds, a wrong password on the
    /// password state is `invalidPassword`, a wrong code on the code state `invalidCode`; anything
    /// else is general.
    private static func kind(of failure: TokenRedemptionFailure, in step: Step) -> NativeAuthErrorKind {
        switch (failure, step) {
        case (.browserRequired, _): .browserRequired
        case (.invalidCredentials, .start): .invalidCredentials
        case (.userNotFound, .start): .userNotFound
        case (.invalidCredentials, .submitPassword): .invalidPassword
        case (.invalidCode, .submitCode): .invalidCode
        default: .generalError
        }
    }

    /// The details of a refused redemption in `step`: a wrong password on the password state reads
    /// MSAL's fixed `Invalid password`; a wrong code without the server's description reads the
    /// invalid-code text.
    private static func details(of failure: TokenRedemptionFailure, in step: Step) -> NativeAuthErrorDetails {
        var details = failure.details
        switch (failure, step) {
        case (.invalidCredentials, .submitPassword):
            details.message = NativeAuthErrorMessage.invalidPassword
        case (.invalidCode, .submitCode) where details.message == NativeAuthErrorMessage.generalError:
            details.message = NativeAuthErrorMessage.invalidCode
        default: break
        }
        return details
    }
}

extension SignInMachine.State: CustomStringConvertible {
    /// The state's name, without the username and password it may carry: the message of a
    /// controller error that names the state (`expect`, the events' guards) shows no credential.
    package var description: String {
        switch self {
        case .idle: "idle"
        case .initiating: "initiating"
        case .challenging: "challenging"
        case .resendingCode: "resendingCode"
        case .redeeming(let step): "redeeming(\(step))"
        case .introspecting(let mfa): "introspecting(mfa: \(mfa))"
        case .done: "done"
        }
    }
}
