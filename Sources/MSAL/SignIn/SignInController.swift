import Foundation

/// Runs the sign-in flow (docs/protocol.md#password-sign-in, #code-sign-in): one `async` function
/// per public step, each sending the requests its `SignInMachine` asks for and making the public
/// states from the machine's outcome (SignInMachine.swift has the rules). The delegate API is an
/// adapter over these; the steps after a first factor are in SignInController+StrongAuth.swift.
package struct SignInController: Sendable {
    package let client: NativeAuthClient

    var logger: MSALLoggerConfig { client.environment.logger }

    package struct StartRequest: Sendable {
        var username: String
        var password: String?
        var scopes: [String]
        var claims: String?
        var correlationId: UUID
    }

    package func start(_ request: StartRequest) async throws(SignInStartError) -> SignInStartResult {
        logger.info("Sign-in started for \(pii: request.username) correlation \(request.correlationId.uuidString)")
        var machine = SignInMachine(scopes: request.scopes, claims: request.claims)
        let first = machine.start(username: request.username, password: request.password, correlationId: request.correlationId)
        let outcome = try await first.run { await perform($0, &machine) }.get(SignInStartError.init)
        let context = SignInContinuationContext(controller: self, scopes: request.scopes, claims: request.claims)
        switch outcome {
        case .codeRequired(let sent):
            let result = CodeRequiredResult(sent) { SignInCodeRequiredState(context, $0) }
            return .codeRequired(
                newState: result.newState, sentTo: result.sentTo, channelTargetType: result.channelTargetType, codeLength: result.codeLength
            )
        case .passwordRequired(let next):
            return .passwordRequired(
                newState: SignInPasswordRequiredState(
                    controller: self, continuationToken: next.token, correlationId: next.correlationId, username: request.username,
                    scopes: request.scopes, claims: request.claims))
        case .completed, .awaitingMFA, .registrationRequired:
            return SignInStartResult(SignInStepResult(outcome, context))
        }
    }

    package func submitCode(_ code: String, on state: SignInCodeRequiredState) async throws(VerifyCodeError) -> SignInStepResult {
        var machine = SignInMachine(scopes: state.scopes, claims: state.claims)
        let first = machine.submitCode(code, on: state.continuation)
        let outcome = try await first.run { await perform($0, &machine) }.get(VerifyCodeError.init, ending: state.lifecycle)
        return SignInStepResult(outcome, state.context)
    }

    package func resendCode(on state: SignInCodeRequiredState) async throws(ResendCodeError) -> CodeRequiredResult<SignInCodeRequiredState>
    {
        var machine = SignInMachine(scopes: state.scopes, claims: state.claims)
        let first = machine.resendCode(on: state.continuation)
        let outcome = try await first.run { await perform($0, &machine) }.get(ResendCodeError.init, ending: state.lifecycle)
        guard case .codeRequired(let sent) = outcome else { preconditionFailure("a resend ends with a code or an error") }
        return CodeRequiredResult(sent) { SignInCodeRequiredState(state.context, $0) }
    }

    package func submitPassword(_ password: String, on state: SignInPasswordRequiredState) async throws(PasswordRequiredError)
        -> SignInStepResult
    {
        var machine = SignInMachine(scopes: state.scopes, claims: state.claims)
        let first = machine.submitPassword(
            password, username: state.username, on: Continuation(state.continuationToken, state.correlationId))
        let outcome = try await first.run { await perform($0, &machine) }.get(PasswordRequiredError.init, ending: state.lifecycle)
        return SignInStepResult(outcome, SignInContinuationContext(controller: self, scopes: state.scopes, claims: state.claims))
    }

    /// Signs in with the continuation token that ends a sign-up or a password reset
    /// (docs/protocol.md#sign-in-after-sign-up-or-reset). The token is single-use; a second call
    /// sends it again and the service answers, as in MSAL.
    package func signInAfterPreviousFlow(
        username: String, continuationToken: String?, parameters scopes: [String]?, claims: String?, correlationId: UUID
    ) async -> Result<SignInStepResult, GenericFailure> {
        let scopes = Scopes.withDefaults(scopes)
        var machine = SignInMachine(scopes: scopes, claims: claims)
        let first = machine.signInAfterPreviousFlow(username: username, continuationToken: continuationToken, correlationId: correlationId)
        let context = SignInContinuationContext(controller: self, scopes: scopes, claims: claims)
        do throws(GenericFailure) {
            return .success(SignInStepResult(try await first.run { await perform($0, &machine) }.get(GenericFailure.init), context))
        } catch {
            return .failure(error)
        }
    }

    // MARK: Requests

    /// Sends `call` and feeds the answer to `machine`.
    func perform(_ call: SignInMachine.Call, _ machine: inout SignInMachine) async -> SignInMachine.Action {
        switch call {
        case .initiate(let username, let correlationId):
            let environment = client.environment
            let (answer, id) = await client.call(
                .signInInitiate,
                [
                    ("username", username), ("challenge_type", environment.challengeTypes.wireValue),
                    ("capabilities", environment.capabilities.wireValue),
                ], correlationId: correlationId, expecting: ContinuationTokenResponse.self)
            return machine.initiateAnswered(answer, correlationId: id)
        case .challenge(let next):
            let (answer, id) = await client.call(
                .signInChallenge,
                [("continuation_token", next.token), ("challenge_type", client.environment.challengeTypes.wireValue)],
                correlationId: next.correlationId, expecting: ChallengeResponse.self)
            return machine.challengeAnswered(answer, correlationId: id)
        case .redeem(let grant, let correlationId):
            let (result, id) = await client.redeem(grant, correlationId: correlationId)
            return machine.redeemed(result, correlationId: id)
        case .introspect(let mfa, let next):
            logger.info(
                mfa
                    ? "The sign-in needs a second factor; asking for the user's methods"
                    : "The sign-in needs a strong-auth method registered; asking which kinds")
            let (answer, id) = await client.call(
                mfa ? .signInIntrospect : .registerIntrospect, [("continuation_token", next.token)], correlationId: next.correlationId,
                expecting: IntrospectResponse.self)
            return machine.introspected(answer, correlationId: id)
        }
    }
}

extension SignInCodeRequiredState {
    /// A code state of the sign-in `context` describes, for `next`.
    convenience init(_ context: SignInContinuationContext, _ next: Continuation) {
        self.init(
            controller: context.controller, continuationToken: next.token, correlationId: next.correlationId, scopes: context.scopes,
            claims: context.claims)
    }

    var continuation: Continuation { Continuation(continuationToken, correlationId) }
    var context: SignInContinuationContext { SignInContinuationContext(controller: controller, scopes: scopes, claims: claims) }
}

extension SignInStepResult {
    /// The public result of a redemption's `outcome`, with the states made for the sign-in `context` describes.
    init(_ outcome: SignInMachine.Outcome, _ context: SignInContinuationContext) {
        var context = context
        switch outcome {
        case .completed(let account):
            self = .completed(account)
        case .awaitingMFA(let methods, let next):
            context.authMethods = methods
            let state = AwaitingMFAState(context: context, continuationToken: next.token, correlationId: next.correlationId)
            self = .awaitingMFA(authMethods: methods, newState: state)
        case .registrationRequired(let methods, let next):
            context.authMethods = methods
            let state = RegisterStrongAuthState(context: context, continuationToken: next.token, correlationId: next.correlationId)
            self = .strongAuthMethodRegistration(authMethods: methods, newState: state)
        case .codeRequired, .passwordRequired:
            preconditionFailure("only the start of a sign-in asks for a code or a password")
        }
    }
}
