import Foundation

/// Every rule of the three native auth V2 journeys, sign-in, sign-up and password reset, in one
/// value (docs/usage.md#native-auth-v2-experimental, docs/decisions.md#native-auth-v2): which answer
/// leads to which request or outcome, and which refusal to which error.
///
/// Like `SignInMachine`, it sends nothing and knows no public state: `V2FlowController` starts a
/// machine for one call of one step, sends what it asks for and feeds each reply to the event method
/// named after the request (`entered`, `interacted`, `resumed`, `redeemed`). The sign-in's rules:
/// - the entry's `sign_in` link is followed with the username;
/// - a first-factor `challenge` with exactly one supported method (`password`, `email`) is
///   challenged at once; several surface as a selection; a second-factor `challenge` (`email`,
///   `sms`) is always a selection;
/// - a password given up front is sent only when the one first factor is a password;
/// - one `riskverify` hop is taken silently; a second in a row, or one after an email challenge,
///   is an error;
/// - `state: continue` resumes, then redeems the code; the tokens end the sign-in.
///
/// The sign-up and the password reset run on the same steps (its `scenario`; their own rules are in
/// V2FlowMachine+SignUpReset.swift): there `state: continue` ends in a sign-in-after outcome. Its one
/// side effect is a warning to `logger` for each method it drops (docs/architecture.md#native-auth-v2).
package struct V2FlowMachine: FlowMachine {
    /// Why the user is choosing or verifying a method; it decides which state a `verify` answer
    /// makes and which error a wrong code is.
    package enum Purpose: Sendable, Equatable {
        case firstFactor
        case mfa
        case recovery
        case existingAccount
        /// Just-in-time registration of a strong-auth method.
        case registration

        /// A second factor or a registration: a wrong code is `invalidChallenge` (and `invalidCode`).
        var isStrongAuth: Bool { self == .mfa || self == .registration }
    }

    /// The public step that sent the request being answered: it decides the error kinds.
    package enum Step: Sendable, Equatable {
        /// `signInV2`'s entry (`authorize-challenge`), which carries no username.
        case entry
        /// `signInV2`: `sign_in`, and the automatic challenge after it.
        case start
        case selectMethod(Purpose)
        case submitCode(Purpose)
        case submitPassword
        case resend(Purpose)
        /// Sign-up: `submitAttributes` (autofilled, or the app's attributes or password).
        case submitAttributes
        /// Reset: `update` with the new password, and the polls after it.
        case submitNewPassword
        /// Inline recovery: the password method's `recover` link.
        case recover
        /// A sign-in-after state's resume.
        case signInAfter
    }

    package enum State: Sendable, Equatable {
        case idle
        /// Waiting for the entry (`authorize-challenge` without a token).
        case entering(password: String?)
        /// Waiting for the answer to an href (V2FlowMachine+Interaction.swift).
        case interacting(Step, Interaction)
        /// Waiting for the resume's code.
        case resuming(Step)
        /// Waiting for the token endpoint.
        case redeeming
        case done
    }

    /// The requests of the V2 sign-in.
    package enum Call: Sendable {
        case enter(correlationId: UUID)
        case interact(URL, V2Body, Continuation)
        /// The resume, to the `continue` link (nil: the fixed endpoint).
        case resume(URL?, Continuation)
        case redeem(code: String, correlationId: UUID)
        /// A reset's `poll` link, after `delay` seconds.
        case poll(URL, Continuation, delay: Double)
    }

    /// How a step ends, in plain values: the controller makes the public states from them.
    package enum Outcome: Sendable {
        case completed(MSALNativeAuthUserAccountResult)
        case codeRequired(V2Verification, Continuation)
        case passwordRequired(V2Verification, Continuation)
        case selectionRequired(Purpose, [V2Method], Continuation)
        case mfaVerificationRequired(V2Verification, Continuation)
        case registrationRequired([V2Method], Continuation)
        case registrationVerificationRequired(V2Verification, Continuation)
        /// Sign-up: attributes the app must give (`prefill` goes along with them).
        case attributesRequired([V2AttributeDescriptor], V2AttributeForm, Continuation)
        /// Sign-up: the `password` attribute is asked for.
        case signUpPasswordRequired(V2AttributeForm, Continuation)
        /// Reset: the `update` answer.
        case newPasswordRequired(V2Verification, Continuation)
        /// Sign-up or reset: `state: continue`; the app resumes through a sign-in-after state.
        case signInAfter(URL?, Continuation)
    }

    package typealias Action = FlowAction<Outcome, Call>

    package var state = State.idle
    package static let idle = State.idle
    package static let done = State.done
    package let username: String
    package let scopes: [String]
    package let claims: String?
    package let scenario: MSALNativeAuthFlowScenario
    /// Sign-up: the app's attribute values (and a password given up front), offered when asked for.
    package let attributes: [String: V2AttributeValue]
    /// Where a method dropped for its context is reported (nil: nowhere).
    package let logger: MSALLoggerConfig?

    /// A machine for one step of a sign-in of `username` asking for `scopes` (OIDC defaults included) and `claims`;
    /// of a sign-up or reset when `scenario` says so.
    package init(
        username: String, scopes: [String], claims: String?, scenario: MSALNativeAuthFlowScenario = .signIn,
        attributes: [String: V2AttributeValue] = [:], logger: MSALLoggerConfig? = nil
    ) {
        self.username = username
        self.scopes = scopes
        self.claims = claims
        self.scenario = scenario
        self.attributes = attributes
        self.logger = logger
    }

    static let firstFactorTypes: Set<String> = ["password", "email"]
    static let recoveryTypes: Set<String> = ["email", "sms"]
    static let strongAuthTypes: Set<String> = ["email", "sms"]

    /// The methods of `methods` that `purpose` supports, server order kept; each other one is
    /// dropped with a warning naming its type and id only (never its hint, a masked contact).
    func supported(_ methods: [V2Method], for purpose: Purpose) -> [V2Method] {
        let types: Set<String>
        switch purpose {
        case .firstFactor, .existingAccount: types = Self.firstFactorTypes
        case .recovery: types = Self.recoveryTypes
        case .mfa, .registration: types = Self.strongAuthTypes
        }
        return methods.filter { method in
            if types.contains(method.type) { return true }
            let type = String(method.type.prefix(40))
            let id = String(method.id.prefix(64))
            logger?.warning("Skipped a V2 authentication method of type '\(type)' (id \(id)), not supported for \(purpose)")
            return false
        }
    }

    // MARK: Steps

    /// `signInV2`: an empty username is refused before anything is sent; an empty up-front password counts as none.
    package mutating func start(password: String?, correlationId id: UUID) -> Action {
        let password = password.flatMap { $0.isEmpty ? nil : $0 }
        return begin(.enter(correlationId: id), awaiting: .entering(password: password), unless: .ifEmpty(username, .invalidUsername, id))
    }

    /// A selection state's `selectAuthMethod`: `method` is nil when the app's choice is not among
    /// the state's methods. Registration sends `contact`, or nothing when the method already has a
    /// destination; with neither it is `invalidInput` before anything is sent.
    package mutating func select(_ method: V2Method?, contact: String?, purpose: Purpose, on continuation: Continuation) -> Action {
        let id = continuation.correlationId
        guard let method else {
            return refuse(Self.general("The method is not one of this state's authMethods", id))
        }
        let waiting = State.interacting(.selectMethod(purpose), interaction(purpose, challenged: method.type))
        guard purpose == .registration else {
            return begin(.interact(method.link, .tokenOnly, continuation), awaiting: waiting)
        }
        let target = contact.flatMap { $0.isEmpty ? nil : $0 }
        let missing = target == nil && method.hint == nil ? FlowFailure.ifEmpty("", .invalidInput, id) : nil
        return begin(.interact(method.link, .target(target), continuation), awaiting: waiting, unless: missing)
    }

    /// `submitCode` / `submitChallenge`: an empty code is refused before anything is sent.
    package mutating func submitCode(_ code: String, verification: V2Verification, purpose: Purpose, on continuation: Continuation)
        -> Action
    {
        let check = FlowFailure.ifEmpty(code, purpose.isStrongAuth ? .invalidChallenge : .invalidCode, continuation.correlationId)
        let body: V2Body = purpose == .registration ? .activation(code) : .otp(code)
        let waiting = State.interacting(.submitCode(purpose), interaction(purpose, challenged: verification.type))
        return begin(.interact(verification.submit, body, continuation), awaiting: waiting, unless: check)
    }

    /// `submitPassword`: an empty password is refused before anything is sent.
    package mutating func submitPassword(_ password: String, verification: V2Verification, on continuation: Continuation) -> Action {
        let check = FlowFailure.ifEmpty(password, .invalidPassword, continuation.correlationId)
        let waiting = State.interacting(.submitPassword, interaction(.firstFactor, challenged: "password"))
        return begin(.interact(verification.submit, .password(password), continuation), awaiting: waiting, unless: check)
    }

    /// `resendCode` / `resendChallenge`: posts the answer's `resend` link; without one, a general error.
    package mutating func resend(_ verification: V2Verification, purpose: Purpose, on continuation: Continuation) -> Action {
        let id = continuation.correlationId
        guard let link = verification.resend else {
            return refuse(Self.general("The service offered no way to resend the code", id))
        }
        let waiting = State.interacting(.resend(purpose), interaction(purpose, challenged: verification.type))
        return begin(.interact(link, .tokenOnly, continuation), awaiting: waiting)
    }

    /// Refuses a step before anything is sent.
    mutating func refuse(_ failure: FlowFailure) -> Action {
        expect(Self.idle)
        return fail(failure)
    }

    // MARK: Answers

    /// The entry answered: follow `sign_in` with the username.
    package mutating func entered(_ reply: V2Reply, correlationId id: UUID) -> Action {
        guard case .entering(let password) = state else { preconditionFailure("V2FlowMachine got the entry while \(state)") }
        guard case .answer(.entryInvitation(let token, let journeys)) = reply else { return fail(Self.failure(reply, in: .entry, id)) }
        let journey = scenario == .signUp ? "sign_up" : scenario == .passwordReset ? "reset_password" : "sign_in"
        switch journeys.links[journey] {
        case nil:
            return fail(Self.general("The service did not offer the \(journey) journey", id))
        case .failure(let refusal):
            return fail(Self.general(refusal.message, id))
        case .success(let url):
            var start = interaction(scenario == .passwordReset ? .recovery : .firstFactor)
            if case .signIn = start.journey { start.journey = .signIn(password: password, autoChallenged: false) }
            let body: V2Body = scenario == .signUp ? .startSignUp(username: username) : .startSignIn(username: username)
            return send(.interact(url, body, Continuation(token, id)), awaiting: .interacting(.start, start))
        }
    }

    /// An href answered (docs/protocol.md#how-the-sdk-reads-an-answer, after the error and
    /// browser checks the decoder made).
    package mutating func interacted(_ reply: V2Reply, correlationId id: UUID) -> Action {
        guard case .interacting(let step, var context) = state else { preconditionFailure("V2FlowMachine got an answer while \(state)") }
        guard case .answer(let answer) = reply else { return fail(Self.failure(reply, in: step, id)) }
        switch answer {
        case .resume(let token, let link):
            if scenario != .signIn, step != .signInAfter { return succeed(.signInAfter(link, Continuation(token, id))) }
            return send(.resume(link, Continuation(token, id)), awaiting: .resuming(step))
        case .challenge(.multiFactor, let methods, let token):
            let usable = supported(methods, for: .mfa)
            guard !usable.isEmpty else { return fail(Self.general("The service offered no supported second-factor method", id)) }
            return succeed(.selectionRequired(.mfa, usable, Continuation(token, id)))
        case .challenge(.singleFactor, let methods, let token):
            let purpose: Purpose = context.purpose == .recovery ? .recovery : scenario == .signUp ? .existingAccount : .firstFactor
            let usable = supported(methods, for: purpose)
            guard !usable.isEmpty else { return fail(Self.general("The service offered no supported method", id)) }
            guard usable.count == 1, let only = usable.first else {
                return succeed(.selectionRequired(purpose, usable, Continuation(token, id)))
            }
            var challenged = interaction(purpose, challenged: only.type)
            if case .signIn(let password, _) = context.journey {
                challenged.journey = .signIn(password: only.type == "password" ? password : nil, autoChallenged: true)
            }
            return send(.interact(only.link, .tokenOnly, Continuation(token, id)), awaiting: .interacting(step, challenged))
        case .verify(let verification, let token):
            let next = Continuation(token, id)
            if verification.isPassword {
                guard case .signIn(let password?, autoChallenged: true) = context.journey else {
                    return succeed(.passwordRequired(verification, next))
                }
                context.journey = .signIn(password: nil, autoChallenged: true)
                return send(.interact(verification.submit, .password(password), next), awaiting: .interacting(.submitPassword, context))
            }
            switch context.purpose {
            case .mfa: return succeed(.mfaVerificationRequired(verification, next))
            case .registration: return succeed(.registrationVerificationRequired(verification, next))
            case .firstFactor, .recovery, .existingAccount: return succeed(.codeRequired(verification, next))
            }
        case .riskVerify(let link, let token):
            if context.riskHopped { return fail(Self.general("The service asked for a second risk verification in a row", id)) }
            if context.challengedType == "email" {
                return fail(Self.general("The service asked for a risk verification after an email challenge", id))
            }
            context.riskHopped = true
            return send(.interact(link, .tokenOnly, Continuation(token, id)), awaiting: .interacting(step, context))
        case .register(let methods, let token):
            let usable = supported(methods, for: .registration)
            guard !usable.isEmpty else { return fail(Self.general("The service offered no supported method to register", id)) }
            return succeed(.registrationRequired(usable, Continuation(token, id)))
        case .activate(let verification, let token):
            return succeed(.registrationVerificationRequired(verification, Continuation(token, id)))
        case .collectAttributes(let descriptors, let submit, let token):
            return collected(descriptors, submit: submit, Continuation(token, id), step: step, context: context)
        case .update(let verification, let token):
            return succeed(.newPasswordRequired(verification, Continuation(token, id)))
        case .poll(let link, let interval, let token):
            return polled(link, intervalMilliseconds: interval, Continuation(token, id), step: step, context: context)
        case .browserRequired, .error, .invalid, .entryInvitation, .code:
            return fail(Self.failure(reply, in: step, id))
        }
    }

    /// The resume answered: redeem its code.
    package mutating func resumed(_ reply: V2Reply, correlationId id: UUID) -> Action {
        guard case .resuming(let step) = state else { preconditionFailure("V2FlowMachine got a resume answer while \(state)") }
        guard case .answer(.code(let code)) = reply else { return fail(Self.failure(reply, in: step, id)) }
        return send(.redeem(code: code, correlationId: id), awaiting: .redeeming)
    }

    /// The token endpoint answered: tokens end the sign-in; a refusal is browser-required or general
    /// (an MFA demand never comes from here in V2).
    package mutating func redeemed(_ result: Result<MSALNativeAuthUserAccountResult, TokenRedemptionFailure>, correlationId id: UUID)
        -> Action
    {
        guard case .redeeming = state else { preconditionFailure("V2FlowMachine got a token answer while \(state)") }
        switch result {
        case .success(let account):
            return succeed(.completed(account))
        case .failure(let failure):
            let browser: Bool
            if case .browserRequired = failure {
                browser = true
            } else {
                browser = failure.details.serverSuberror == "web_redirect_required"
            }
            return fail(.refusal(browser ? .browserRequired : .generalError, failure.details))
        }
    }

    // MARK: Failures

    static func general(_ message: String, _ id: UUID) -> FlowFailure {
        .refusal(.generalError, NativeAuthErrorDetails(message: message, correlationId: id))
    }

    /// The failure a reply that ends `step` means.
    static func failure(_ reply: V2Reply, in step: Step, _ id: UUID) -> FlowFailure {
        switch reply {
        case .failure(let failure):
            return .refusal(.generalError, NativeAuthErrorDetails(failure, correlationId: id))
        case .answer(.browserRequired(let message)):
            return .refusal(.browserRequired, NativeAuthErrorDetails(redirectReason: message, correlationId: id))
        case .answer(.error(let error)):
            let kind = V2ErrorMapping.kind(of: error, in: step)
            return .refusal(kind, V2ErrorMapping.details(of: error, kind: kind, id))
        case .answer(.invalid(let reason)):
            return general(reason, id)
        case .answer:
            return general("The server's answer does not fit this step", id)
        }
    }
}
