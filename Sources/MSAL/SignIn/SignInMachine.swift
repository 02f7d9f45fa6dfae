import Foundation

/// Every rule of the sign-in flow in one value (docs/protocol.md#password-sign-in, #code-sign-in,
/// docs/error-mapping.md#sign-in-start, #sign-in-states): which answer of `/initiate`,
/// `/challenge`, the token endpoint and the introspect endpoints leads to which next state or
/// request, which to which error, and which error ends the flow of the state that sent the request.
///
/// It sends nothing. `SignInController` makes a machine for one call of one step, sends the
/// request, feeds the answer to the event method named after it, and does what the returned
/// `FlowAction` says. Every step that redeems a credential (a password, a code, the token that ends
/// a sign-up or a password reset) goes on through `redeemed` and, when the tenant wants a second
/// factor, `introspected`, so MFA and registration start the same way after each of them
/// (docs/protocol.md#multifactor-authentication, #strong-auth-registration).
package struct SignInMachine: Sendable {
    package enum State: Sendable, Equatable {
        /// `signIn(parameters:)`: waiting for `/oauth2/v2.0/initiate`.
        case initiating
        /// `signIn(parameters:)`: waiting for the challenge after `/initiate`.
        case challenging
        /// `resendCode`: waiting for the challenge that sends a new code.
        case resendingCode
        /// Waiting for the token endpoint to redeem the credential.
        case redeeming
        /// The credential was right and a second factor is wanted; waiting for the introspect
        /// endpoint. Every failure from here ends the flow (the server has spent the token).
        case introspecting
        /// The step has its result or its error.
        case done
    }

    /// Which public step the machine runs: it decides which error kinds a token answer maps to.
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

    /// The requests a sign-in step may send after its first.
    package enum Call: Sendable {
        /// `/oauth2/v2.0/challenge` with this token.
        case challenge(continuationToken: String, correlationId: UUID)
        /// The token endpoint with this grant.
        case redeem(TokenGrant, correlationId: UUID)
    }

    /// The request after a redemption that wants a second factor.
    package enum Introspection: Sendable, Equatable {
        /// `/oauth2/v2.0/introspect`: the methods of the second factor.
        case mfa(continuationToken: String, correlationId: UUID)
        /// `/register/v1.0/introspect`: the kinds of strong-auth method the user may register.
        case registration(continuationToken: String, correlationId: UUID)
    }

    package private(set) var state: State
    package let step: Step
    private let controller: SignInController
    private let username: String
    private let password: String?
    private let scopes: [String]
    private let claims: String?
    /// Which introspect endpoint `introspected` answers for.
    private var introspectingMFA = false

    private init(
        _ state: State, step: Step, controller: SignInController, username: String = "", password: String? = nil, scopes: [String],
        claims: String?
    ) {
        self.state = state
        self.step = step
        self.controller = controller
        self.username = username
        self.password = password
        self.scopes = scopes
        self.claims = claims
    }

    private var context: SignInContinuationContext {
        SignInContinuationContext(controller: controller, scopes: scopes, claims: claims)
    }

    // MARK: Steps

    package static func start(_ request: SignInController.StartRequest, controller: SignInController) -> SignInMachine {
        SignInMachine(
            .initiating, step: .start, controller: controller, username: request.username, password: request.password,
            scopes: request.scopes, claims: request.claims)
    }

    package static func resendCode(on state: SignInCodeRequiredState) -> SignInMachine {
        SignInMachine(.resendingCode, step: .submitCode, controller: state.controller, scopes: state.scopes, claims: state.claims)
    }

    /// `submitCode` on `state`, and the grant to redeem (with the state's correlation id).
    package static func submitCode(_ code: String, on state: SignInCodeRequiredState) -> (SignInMachine, TokenGrant) {
        let machine = SignInMachine(.redeeming, step: .submitCode, controller: state.controller, scopes: state.scopes, claims: state.claims)
        let grant = TokenGrant(
            kind: .oob(code: code), continuationToken: state.continuationToken, scopes: state.scopes, claims: state.claims)
        return (machine, grant)
    }

    /// `submitPassword` on `state`, and the grant to redeem (with the state's correlation id).
    package static func submitPassword(_ password: String, on state: SignInPasswordRequiredState) -> (SignInMachine, TokenGrant) {
        let machine = SignInMachine(
            .redeeming, step: .submitPassword, controller: state.controller, username: state.username, scopes: state.scopes,
            claims: state.claims)
        let grant = TokenGrant(
            kind: .password(username: state.username, password: password), continuationToken: state.continuationToken,
            scopes: state.scopes, claims: state.claims)
        return (machine, grant)
    }

    /// The sign-in with the token that ended a sign-up or a password reset, and the grant to redeem
    /// first; without a token there is nothing to redeem (docs/protocol.md#sign-in-after-sign-up-or-reset).
    package static func afterPreviousFlow(
        username: String, continuationToken: String?, scopes: [String]?, claims: String?, correlationId: UUID, controller: SignInController
    ) -> Result<(SignInMachine, TokenGrant), FlowFailure> {
        guard let continuationToken else {
            return .failure(
                FlowFailure(
                    .generalError,
                    NativeAuthErrorDetails(
                        message: "Sign In is not available at this point, please use the standalone sign in methods",
                        correlationId: correlationId)))
        }
        let scopes = Scopes.withDefaults(scopes)
        let machine = SignInMachine(
            .redeeming, step: .afterPreviousFlow, controller: controller, username: username, scopes: scopes, claims: claims)
        let grant = TokenGrant(
            kind: .continuationToken(username: username), continuationToken: continuationToken, scopes: scopes, claims: claims)
        return .success((machine, grant))
    }

    // MARK: Checks before anything is sent

    /// `signIn(parameters:)`: an empty username, or an empty password the app supplied.
    package static func checkStart(_ request: SignInController.StartRequest) -> FlowFailure? {
        if let failure = LocalCheck.username(request.username, correlationId: request.correlationId) { return failure }
        if let password = request.password, password.isEmpty {
            return FlowFailure(
                .invalidCredentials,
                NativeAuthErrorDetails(message: NativeAuthErrorMessage.invalidCredentials, correlationId: request.correlationId))
        }
        return nil
    }

    // MARK: signIn(parameters:)

    /// `/oauth2/v2.0/initiate` answered: `user_not_found` is its own kind; any other error is general.
    package mutating func initiateAnswered(_ outcome: NativeAuthOutcome<ContinuationTokenResponse>, correlationId id: UUID)
        -> FlowAction<SignInStartResult, Call>
    {
        expect(.initiating)
        switch outcome {
        case .success(let body):
            state = .challenging
            return .call(.challenge(continuationToken: body.continuationToken, correlationId: id))
        case .redirect(let reason):
            return .fail(FlowFailure(.browserRequired, NativeAuthErrorDetails(redirectReason: reason, correlationId: id)))
        case .apiError(let error):
            if error.error == .userNotFound {
                return .fail(
                    FlowFailure(
                        .userNotFound, NativeAuthErrorDetails(error, correlationId: id, fallback: NativeAuthErrorMessage.userNotFound)))
            }
            return .fail(
                FlowFailure(.generalError, NativeAuthErrorDetails(error, correlationId: id, fallback: NativeAuthErrorMessage.generalError)))
        case .failure(let failure):
            return .fail(FlowFailure(.generalError, NativeAuthErrorDetails(failure, correlationId: id)))
        }
    }

    /// The challenge after `/initiate` answered: a code, a password prompt (redeemed at once when
    /// the app supplied the password), or an error.
    package mutating func startChallengeAnswered(_ outcome: NativeAuthOutcome<ChallengeResponse>, correlationId id: UUID)
        -> FlowAction<SignInStartResult, Call>
    {
        expect(.challenging)
        switch outcome {
        case .success(.oob(let token, let label, let channel, let codeLength, _)):
            // A code-only account gets a code even when the app supplied a password (docs/protocol.md#sign-in-endpoints).
            let next = SignInCodeRequiredState(
                controller: controller, continuationToken: token, correlationId: id, scopes: scopes, claims: claims)
            return .succeed(
                .codeRequired(
                    newState: next, sentTo: label, channelTargetType: MSALNativeAuthChannelType(value: channel), codeLength: codeLength))
        case .success(.password(let token)):
            guard let password else {
                return .succeed(
                    .passwordRequired(
                        newState: SignInPasswordRequiredState(
                            controller: controller, continuationToken: token, correlationId: id, username: username, scopes: scopes,
                            claims: claims)))
            }
            state = .redeeming
            let grant = TokenGrant(
                kind: .password(username: username, password: password), continuationToken: token, scopes: scopes, claims: claims)
            return .call(.redeem(grant, correlationId: id))
        case .redirect(let reason):
            return .fail(FlowFailure(.browserRequired, NativeAuthErrorDetails(redirectReason: reason, correlationId: id)))
        case .apiError(let error):
            return .fail(
                FlowFailure(.generalError, NativeAuthErrorDetails(error, correlationId: id, fallback: NativeAuthErrorMessage.generalError)))
        case .failure(let failure):
            return .fail(FlowFailure(.generalError, NativeAuthErrorDetails(failure, correlationId: id)))
        }
    }

    // MARK: SignInCodeRequiredState.resendCode

    /// The challenge of `resendCode` answered. A refusal, a redirect or no answer keeps the state;
    /// a password prompt ends the flow.
    package mutating func resendAnswered(_ outcome: NativeAuthOutcome<ChallengeResponse>, correlationId id: UUID)
        -> FlowAction<SignInResendCodeResult, Never>
    {
        expect(.resendingCode)
        switch outcome {
        case .success(.oob(let token, let label, let channel, let codeLength, _)):
            let next = SignInCodeRequiredState(
                controller: controller, continuationToken: token, correlationId: id, scopes: scopes, claims: claims)
            return .succeed(
                .codeRequired(
                    newState: next, sentTo: label, channelTargetType: MSALNativeAuthChannelType(value: channel), codeLength: codeLength))
        case .success(.password):
            return .fail(
                .ending(
                    .generalError,
                    NativeAuthErrorDetails(message: "The server asked for a password instead of sending a new code", correlationId: id)))
        case .redirect(let reason):
            return .fail(.retry(.browserRequired, NativeAuthErrorDetails(redirectReason: reason, correlationId: id)))
        case .apiError(let error):
            return .fail(
                .retry(.generalError, NativeAuthErrorDetails(error, correlationId: id, fallback: NativeAuthErrorMessage.generalError)))
        case .failure(let failure):
            return .fail(.retry(.generalError, NativeAuthErrorDetails(failure, correlationId: id)))
        }
    }

    // MARK: Redeeming, and what follows it

    /// The token endpoint answered. Tokens end the step; `mfa_required` and
    /// `registration_required` go on at the matching introspect endpoint; any other failure keeps
    /// the state that sent the credential (docs/error-mapping.md#sign-in-states), with the kind of
    /// the step that sent it.
    package mutating func redeemed(_ result: Result<MSALNativeAuthUserAccountResult, TokenRedemptionFailure>, correlationId id: UUID)
        -> FlowAction<SignInStepResult, Introspection>
    {
        expect(.redeeming)
        switch result {
        case .success(let account):
            return .succeed(.completed(account))
        case .failure(.mfaRequired(let token, _)):
            state = .introspecting
            introspectingMFA = true
            return .call(.mfa(continuationToken: token, correlationId: id))
        case .failure(.registrationRequired(let token, _)):
            state = .introspecting
            introspectingMFA = false
            return .call(.registration(continuationToken: token, correlationId: id))
        case .failure(let failure):
            return .fail(.retry(Self.kind(of: failure, in: step), Self.details(of: failure, in: step)))
        }
    }

    /// The introspect endpoint answered: the methods and the state that continues with them. Every
    /// failure ends the flow of the state that sent the credential (the server has spent its token).
    package mutating func introspected(_ outcome: NativeAuthOutcome<IntrospectResponse>, correlationId id: UUID)
        -> FlowAction<SignInStepResult, Never>
    {
        expect(.introspecting)
        switch outcome {
        case .success(let body):
            let methods = body.methods.map {
                MSALAuthMethod(
                    id: $0.id, challengeType: $0.challengeType, channelTargetType: MSALNativeAuthChannelType(value: $0.channel),
                    loginHint: $0.loginHint)
            }
            var context = context
            context.authMethods = methods
            if introspectingMFA {
                return .succeed(
                    .awaitingMFA(
                        authMethods: methods,
                        newState: AwaitingMFAState(context: context, continuationToken: body.continuationToken, correlationId: id)))
            }
            return .succeed(
                .strongAuthMethodRegistration(
                    authMethods: methods,
                    newState: RegisterStrongAuthState(context: context, continuationToken: body.continuationToken, correlationId: id)))
        case .redirect(let reason):
            return .fail(.ending(.browserRequired, NativeAuthErrorDetails(redirectReason: reason, correlationId: id)))
        case .apiError(let error):
            return .fail(
                .ending(.generalError, NativeAuthErrorDetails(error, correlationId: id, fallback: NativeAuthErrorMessage.generalError)))
        case .failure(let failure):
            return .fail(.ending(.generalError, NativeAuthErrorDetails(failure, correlationId: id)))
        }
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

    private mutating func expect(_ expected: State) {
        precondition(state == expected, "SignInMachine got an answer for \(expected) while \(state)")
        state = .done
    }
}
