import Foundation

/// Runs the sign-in flow (docs/protocol.md#password-sign-in, #code-sign-in): one `async` function
/// per public step, each sending the requests its `SignInMachine` asks for and doing what the
/// machine decides (SignInMachine.swift has the rules). The delegate API is an adapter over these.
package struct SignInController: Sendable {
    package let client: NativeAuthClient

    var logger: MSALLoggerConfig { client.environment.logger }

    // MARK: Start

    package struct StartRequest: Sendable {
        var username: String
        var password: String?
        var scopes: [String]
        var claims: String?
        var correlationId: UUID
    }

    package func start(_ request: StartRequest) async throws(SignInStartError) -> SignInStartResult {
        logger.info("Sign-in started for \(pii: request.username) correlation \(request.correlationId.uuidString)")
        if let failure = SignInMachine.checkStart(request) { throw SignInStartError(failure) }
        var machine = SignInMachine.start(request, controller: self)
        let environment = client.environment
        let initiate = await client.call(
            .signInInitiate,
            [
                ("username", request.username),
                ("challenge_type", environment.challengeTypes.wireValue),
                ("capabilities", environment.capabilities.wireValue),
            ], correlationId: request.correlationId, expecting: ContinuationTokenResponse.self)
        var action = machine.initiateAnswered(initiate.outcome, correlationId: initiate.correlationId)
        while true {
            switch action {
            case .succeed(let result): return result
            case .fail(let failure): throw SignInStartError(failure)
            case .call(.challenge(let token, let correlationId)):
                let answer = await challenge(token, correlationId: correlationId)
                action = machine.startChallengeAnswered(answer.outcome, correlationId: answer.correlationId)
            case .call(.redeem(let grant, let correlationId)):
                switch await finish(&machine, redeeming: grant, correlationId: correlationId) {
                case .success(let step): return SignInStartResult(step)
                case .failure(let failure): throw SignInStartError(failure)
                }
            }
        }
    }

    // MARK: Code

    package func submitCode(_ code: String, on state: SignInCodeRequiredState) async throws(VerifyCodeError) -> SignInVerifyCodeResult {
        if let failure = LocalCheck.code(code, correlationId: state.correlationId) { throw VerifyCodeError(failure) }
        var (machine, grant) = SignInMachine.submitCode(code, on: state)
        switch await finish(&machine, redeeming: grant, correlationId: state.correlationId) {
        case .success(let step): return step
        case .failure(let failure): throw VerifyCodeError(failure.recorded(on: state.lifecycle))
        }
    }

    package func resendCode(on state: SignInCodeRequiredState) async throws(ResendCodeError) -> SignInResendCodeResult {
        var machine = SignInMachine.resendCode(on: state)
        let answer = await challenge(state.continuationToken, correlationId: state.correlationId)
        switch machine.resendAnswered(answer.outcome, correlationId: answer.correlationId) {
        case .succeed(let result): return result
        case .fail(let failure): throw ResendCodeError(failure.recorded(on: state.lifecycle))
        }
    }

    // MARK: Password

    package func submitPassword(_ password: String, on state: SignInPasswordRequiredState) async throws(PasswordRequiredError)
        -> SignInPasswordRequiredResult
    {
        if let failure = LocalCheck.password(password, correlationId: state.correlationId) { throw PasswordRequiredError(failure) }
        var (machine, grant) = SignInMachine.submitPassword(password, on: state)
        switch await finish(&machine, redeeming: grant, correlationId: state.correlationId) {
        case .success(let step): return step
        case .failure(let failure): throw PasswordRequiredError(failure.recorded(on: state.lifecycle))
        }
    }

    // MARK: Redeeming, and what follows it

    /// Redeems `grant` and, when the tenant wants a second factor, sends the introspect request the
    /// machine asks for (docs/protocol.md#multifactor-authentication, #strong-auth-registration).
    func finish(_ machine: inout SignInMachine, redeeming grant: TokenGrant, correlationId: UUID) async
        -> Result<SignInStepResult, FlowFailure>
    {
        let redeemed = await client.redeem(grant, correlationId: correlationId)
        let answer: (outcome: NativeAuthOutcome<IntrospectResponse>, correlationId: UUID)
        switch machine.redeemed(redeemed.result, correlationId: redeemed.correlationId) {
        case .succeed(let step): return .success(step)
        case .fail(let failure): return .failure(failure)
        case .call(.mfa(let token, let id)):
            logger.info("The sign-in needs a second factor; asking for the user's methods")
            answer = await client.call(
                .signInIntrospect, [("continuation_token", token)], correlationId: id, expecting: IntrospectResponse.self)
        case .call(.registration(let token, let id)):
            logger.info("The sign-in needs a strong-auth method registered; asking which kinds")
            answer = await client.call(
                .registerIntrospect, [("continuation_token", token)], correlationId: id, expecting: IntrospectResponse.self)
        }
        switch machine.introspected(answer.outcome, correlationId: answer.correlationId) {
        case .succeed(let step): return .success(step)
        case .fail(let failure): return .failure(failure)
        }
    }

    // MARK: Requests

    private func challenge(_ token: String, correlationId: UUID) async -> (
        outcome: NativeAuthOutcome<ChallengeResponse>, correlationId: UUID
    ) {
        await client.call(
            .signInChallenge,
            [
                ("continuation_token", token),
                ("challenge_type", client.environment.challengeTypes.wireValue),
            ], correlationId: correlationId, expecting: ChallengeResponse.self)
    }
}
