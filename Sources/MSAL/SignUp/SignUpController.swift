import Foundation

/// Runs the sign-up flow: one `async` function per public step, each sending the requests its
/// `SignUpMachine` asks for and doing what the machine decides (SignUpMachine.swift has the rules).
package struct SignUpController: Sendable {
    package let client: NativeAuthClient
    package let signIn: SignInController

    private var environment: NativeAuthEnvironment { client.environment }

    package struct StartRequest: Sendable {
        var username: String
        var password: String?
        /// The attributes as JSON, or why they could not be made JSON.
        var attributes: Result<String?, SetupError>
        var correlationId: UUID
    }

    // MARK: Start

    package func start(_ request: StartRequest) async throws(SignUpStartError) -> SignUpStartResult {
        environment.logger.info("Sign-up started for \(pii: request.username) correlation \(request.correlationId.uuidString)")
        let attributes: String?
        switch SignUpMachine.checkStart(request) {
        case .success(let json): attributes = json
        case .failure(let failure): throw SignUpStartError(failure)
        }
        var machine = SignUpMachine.start(username: request.username, correlationId: request.correlationId, controller: self)
        let started = await client.call(
            .signUpStart,
            [
                ("username", request.username), ("password", request.password), ("attributes", attributes),
                ("challenge_type", environment.challengeTypes.wireValue), ("capabilities", environment.capabilities.wireValue),
            ], correlationId: request.correlationId, expecting: ContinuationTokenResponse.self)
        switch machine.startAnswered(started.outcome, correlationId: started.correlationId) {
        case .succeed(let result): return result
        case .fail(let failure): throw SignUpStartError(failure)
        case .call(.challenge(let token, let correlationId)):
            let answer = await challenge(token, correlationId: correlationId)
            switch machine.startChallengeAnswered(answer.outcome, correlationId: answer.correlationId) {
            case .succeed(let result): return result
            case .fail(let failure): throw SignUpStartError(failure)
            }
        }
    }

    // MARK: Steps

    package func submitCode(_ code: String, on state: SignUpCodeRequiredState) async throws(VerifyCodeError) -> SignUpVerifyCodeResult {
        if let failure = LocalCheck.code(code, correlationId: state.correlationId) { throw VerifyCodeError(failure) }
        var machine = SignUpMachine.submitCode(on: state)
        let answer = await continueSignUp([("grant_type", "oob"), ("oob", code)], on: state.continuationToken, state.correlationId)
        switch machine.codeAnswered(answer.outcome, correlationId: answer.correlationId) {
        case .succeed(let result): return result
        case .fail(let failure): throw VerifyCodeError(failure.recorded(on: state.lifecycle))
        case .call(.challenge(let token, let correlationId)):
            let challenged = await challenge(token, correlationId: correlationId)
            switch machine.passwordChallengeAnswered(challenged.outcome, correlationId: challenged.correlationId) {
            case .succeed(let result): return result
            case .fail(let failure): throw VerifyCodeError(failure.recorded(on: state.lifecycle))
            }
        }
    }

    package func resendCode(on state: SignUpCodeRequiredState) async throws(ResendCodeError) -> SignUpResendCodeResult {
        var machine = SignUpMachine.resendCode(on: state)
        let answer = await challenge(state.continuationToken, correlationId: state.correlationId)
        switch machine.resendAnswered(answer.outcome, correlationId: answer.correlationId) {
        case .succeed(let result): return result
        case .fail(let failure): throw ResendCodeError(failure.recorded(on: state.lifecycle))
        }
    }

    package func submitPassword(_ password: String, on state: SignUpPasswordRequiredState) async throws(PasswordRequiredError)
        -> SignUpPasswordRequiredResult
    {
        if let failure = LocalCheck.password(password, correlationId: state.correlationId) { throw PasswordRequiredError(failure) }
        var machine = SignUpMachine.submitPassword(on: state)
        let answer = await continueSignUp(
            [("grant_type", "password"), ("password", password)], on: state.continuationToken, state.correlationId)
        switch machine.passwordAnswered(answer.outcome, correlationId: answer.correlationId) {
        case .succeed(let result): return result
        case .fail(let failure): throw PasswordRequiredError(failure.recorded(on: state.lifecycle))
        }
    }

    package func submitAttributes(_ attributes: Result<String?, SetupError>, on state: SignUpAttributesRequiredState)
        async throws(AttributesRequiredError) -> SignUpAttributesRequiredResult
    {
        let json: String
        switch SignUpMachine.checkAttributes(attributes, correlationId: state.correlationId) {
        case .success(let value): json = value
        case .failure(let failure): throw AttributesRequiredError(failure)
        }
        var machine = SignUpMachine.submitAttributes(on: state)
        let answer = await continueSignUp(
            [("grant_type", "attributes"), ("attributes", json)], on: state.continuationToken, state.correlationId)
        switch machine.attributesAnswered(answer.outcome, correlationId: answer.correlationId) {
        case .succeed(let result): return result
        case .fail(let failure): throw AttributesRequiredError(failure.recorded(on: state.lifecycle))
        }
    }

    // MARK: Requests

    private func challenge(_ token: String, correlationId: UUID) async -> (
        outcome: NativeAuthOutcome<ChallengeResponse>, correlationId: UUID
    ) {
        await client.call(
            .signUpChallenge,
            [
                ("continuation_token", token), ("challenge_type", environment.challengeTypes.wireValue),
            ], correlationId: correlationId, expecting: ChallengeResponse.self)
    }

    private func continueSignUp(_ grant: [(String, String?)], on token: String, _ correlationId: UUID) async
        -> (outcome: NativeAuthOutcome<SignUpCompletedResponse>, correlationId: UUID)
    {
        await client.call(
            .signUpContinue, [("continuation_token", token)] + grant, correlationId: correlationId,
            expecting: SignUpCompletedResponse.self, honoursRedirect: false)
    }
}
