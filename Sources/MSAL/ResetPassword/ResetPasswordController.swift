import Foundation

/// Runs self-service password reset: one `async` function per public step, each sending the
/// requests its `ResetPasswordMachine` asks for and doing what the machine decides
/// (ResetPasswordMachine.swift has the rules).
package struct ResetPasswordController: Sendable {
    package let client: NativeAuthClient
    package let signIn: SignInController

    private var environment: NativeAuthEnvironment { client.environment }

    package struct StartRequest: Sendable {
        var username: String
        var correlationId: UUID
    }

    package func start(_ request: StartRequest) async throws(ResetPasswordStartError) -> ResetPasswordStartResult {
        environment.logger.info("Password reset started for \(pii: request.username) correlation \(request.correlationId.uuidString)")
        if let failure = LocalCheck.username(request.username, correlationId: request.correlationId) {
            throw ResetPasswordStartError(failure)
        }
        var machine = ResetPasswordMachine.start(username: request.username, correlationId: request.correlationId, controller: self)
        let started = await client.call(
            .resetPasswordStart,
            [
                ("username", request.username), ("challenge_type", environment.challengeTypes.wireValue),
                ("capabilities", environment.capabilities.wireValue),
            ], correlationId: request.correlationId, expecting: ContinuationTokenResponse.self)
        switch machine.startAnswered(started.outcome, correlationId: started.correlationId) {
        case .succeed(let result): return result
        case .fail(let failure): throw ResetPasswordStartError(failure)
        case .call(let next):
            let answer = await challenge(next.continuationToken, correlationId: next.correlationId)
            switch machine.startChallengeAnswered(answer.outcome, correlationId: answer.correlationId) {
            case .succeed(let result): return result
            case .fail(let failure): throw ResetPasswordStartError(failure)
            }
        }
    }

    package func resendCode(on state: ResetPasswordCodeRequiredState) async throws(ResendCodeError) -> ResetPasswordResendCodeResult {
        var machine = ResetPasswordMachine.resendCode(on: state)
        let answer = await challenge(state.continuationToken, correlationId: state.correlationId)
        switch machine.resendAnswered(answer.outcome, correlationId: answer.correlationId) {
        case .succeed(let result): return result
        case .fail(let failure): throw ResendCodeError(failure.recorded(on: state.lifecycle))
        }
    }

    package func submitCode(_ code: String, on state: ResetPasswordCodeRequiredState) async throws(VerifyCodeError)
        -> ResetPasswordVerifyCodeResult
    {
        if let failure = LocalCheck.code(code, correlationId: state.correlationId) { throw VerifyCodeError(failure) }
        var machine = ResetPasswordMachine.submitCode(on: state)
        let answer = await client.call(
            .resetPasswordContinue,
            [
                ("continuation_token", state.continuationToken), ("grant_type", "oob"), ("oob", code),
            ], correlationId: state.correlationId, expecting: ContinuationTokenResponse.self)
        switch machine.codeAnswered(answer.outcome, correlationId: answer.correlationId) {
        case .succeed(let result): return result
        case .fail(let failure): throw VerifyCodeError(failure.recorded(on: state.lifecycle))
        }
    }

    /// Sends the password, then polls `poll_completion` with the submit token: at once, then at the
    /// server's interval, as long as the machine asks.
    package func submitPassword(_ password: String, on state: ResetPasswordRequiredState) async throws(PasswordRequiredError)
        -> ResetPasswordRequiredResult
    {
        if let failure = LocalCheck.password(password, correlationId: state.correlationId) { throw PasswordRequiredError(failure) }
        var machine = ResetPasswordMachine.submitPassword(on: state)
        let submitted = await client.call(
            .resetPasswordSubmit,
            [
                ("continuation_token", state.continuationToken), ("new_password", password),
            ], correlationId: state.correlationId, expecting: ResetPasswordSubmitResponse.self)
        var action = machine.passwordAnswered(submitted.outcome, correlationId: submitted.correlationId)
        while true {
            switch action {
            case .succeed(let result):
                return result
            case .fail(let failure):
                if let token = failure.continuationToken { state.replaceContinuationToken(with: token) }
                throw PasswordRequiredError(failure.recorded(on: state.lifecycle))
            case .call(let poll):
                if let delay = poll.delay {
                    environment.logger.info("Password reset in progress; checking again in \(delay) s")
                    do {
                        try await environment.clock.sleep(seconds: Double(delay))
                    } catch {
                        throw PasswordRequiredError(machine.waitCancelled().recorded(on: state.lifecycle))
                    }
                    machine.waited()
                }
                let answer = await client.call(
                    .resetPasswordPollCompletion, [("continuation_token", poll.continuationToken)], correlationId: poll.correlationId,
                    expecting: ResetPasswordPollResponse.self)
                action = machine.pollAnswered(answer.outcome, correlationId: answer.correlationId)
            }
        }
    }

    // MARK: Requests

    private func challenge(_ token: String, correlationId: UUID) async -> (
        outcome: NativeAuthOutcome<ChallengeResponse>, correlationId: UUID
    ) {
        await client.call(
            .resetPasswordChallenge,
            [
                ("continuation_token", token), ("challenge_type", environment.challengeTypes.wireValue),
            ], correlationId: correlationId, expecting: ChallengeResponse.self)
    }
}
