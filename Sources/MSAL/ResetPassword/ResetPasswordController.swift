import Foundation

/// Runs self-service password reset: one `async` function per public step, each sending the
/// requests its `ResetPasswordMachine` asks for and making the public states from the machine's
/// outcome (ResetPasswordMachine.swift has the rules).
package struct ResetPasswordController: Sendable {
    package let client: NativeAuthClient
    package let signIn: SignInController

    private var environment: NativeAuthEnvironment { client.environment }

    package struct StartRequest: Sendable {
        var username: String
        var correlationId: UUID
    }

    package func start(_ request: StartRequest) async throws(ResetPasswordStartError) -> CodeRequiredResult<ResetPasswordCodeRequiredState>
    {
        environment.logger.info("Password reset started for \(pii: request.username) correlation \(request.correlationId.uuidString)")
        var machine = ResetPasswordMachine()
        let first = machine.start(username: request.username, correlationId: request.correlationId)
        let outcome = try await run(first, &machine, username: request.username).get(ResetPasswordStartError.init)
        return codeRequired(outcome, username: request.username)
    }

    package func resendCode(on state: ResetPasswordCodeRequiredState) async throws(ResendCodeError)
        -> CodeRequiredResult<ResetPasswordCodeRequiredState>
    {
        var machine = ResetPasswordMachine()
        let first = machine.resendCode(on: Continuation(state.continuationToken, state.correlationId))
        let outcome = try await run(first, &machine, username: state.username).get(ResendCodeError.init, ending: state.lifecycle)
        return codeRequired(outcome, username: state.username)
    }

    package func submitCode(_ code: String, on state: ResetPasswordCodeRequiredState) async throws(VerifyCodeError)
        -> ResetPasswordRequiredState
    {
        var machine = ResetPasswordMachine()
        let first = machine.submitCode(code, on: Continuation(state.continuationToken, state.correlationId))
        guard
            case .passwordRequired(let next) = try await run(first, &machine, username: state.username).get(
                VerifyCodeError.init, ending: state.lifecycle)
        else { preconditionFailure("a code ends with the password state or an error") }
        return ResetPasswordRequiredState(
            controller: self, username: state.username, continuationToken: next.token, correlationId: next.correlationId)
    }

    /// Sends the password, then polls `poll_completion` with the submit token: at once, then at the
    /// server's interval, as long as the machine asks. A password refused while polling leaves
    /// `state` with the poll token.
    package func submitPassword(_ password: String, on state: ResetPasswordRequiredState) async throws(PasswordRequiredError)
        -> SignInAfterResetPasswordState
    {
        var machine = ResetPasswordMachine()
        let first = machine.submitPassword(password, on: Continuation(state.continuationToken, state.correlationId))
        let finished = await run(first, &machine, username: state.username)
        if case .fail(let failure) = finished, let token = failure.continuationToken { state.replaceContinuationToken(with: token) }
        guard case .completed(let token, let id) = try finished.get(PasswordRequiredError.init, ending: state.lifecycle) else {
            preconditionFailure("a new password ends with the sign-in state or an error")
        }
        return SignInAfterResetPasswordState(controller: signIn, username: state.username, continuationToken: token, correlationId: id)
    }

    private func codeRequired(_ outcome: ResetPasswordMachine.Outcome, username: String) -> CodeRequiredResult<
        ResetPasswordCodeRequiredState
    > {
        guard case .codeRequired(let sent) = outcome else { preconditionFailure("a challenge ends with a code or an error") }
        return CodeRequiredResult(sent) {
            ResetPasswordCodeRequiredState(
                controller: self, username: username, continuationToken: $0.token, correlationId: $0.correlationId)
        }
    }

    // MARK: Requests

    /// Sends what `first` asks for, and every request after it, feeding each answer to `machine`;
    /// waits before a poll as long as the machine says.
    private func run(_ first: ResetPasswordMachine.Action, _ machine: inout ResetPasswordMachine, username: String) async
        -> FlowAction<ResetPasswordMachine.Outcome, Never>
    {
        await first.run { call in
            switch call {
            case .start(let correlationId):
                let (answer, id) = await client.call(
                    .resetPasswordStart,
                    [
                        ("username", username), ("challenge_type", environment.challengeTypes.wireValue),
                        ("capabilities", environment.capabilities.wireValue),
                    ], correlationId: correlationId, expecting: ContinuationTokenResponse.self)
                return machine.startAnswered(answer, correlationId: id)
            case .challenge(let next):
                let (answer, id) = await client.call(
                    .resetPasswordChallenge,
                    [("continuation_token", next.token), ("challenge_type", environment.challengeTypes.wireValue)],
                    correlationId: next.correlationId, expecting: ChallengeResponse.self)
                return machine.challengeAnswered(answer, correlationId: id)
            case .submitCode(let code, let next):
                let (answer, id) = await client.call(
                    .resetPasswordContinue, [("continuation_token", next.token), ("grant_type", "oob"), ("oob", code)],
                    correlationId: next.correlationId, expecting: ContinuationTokenResponse.self)
                return machine.codeAnswered(answer, correlationId: id)
            case .submitPassword(let password, let next):
                let (answer, id) = await client.call(
                    .resetPasswordSubmit, [("continuation_token", next.token), ("new_password", password)],
                    correlationId: next.correlationId, expecting: ResetPasswordSubmitResponse.self)
                return machine.passwordAnswered(answer, correlationId: id)
            case .poll(let next, let delay):
                if let delay {
                    environment.logger.info("Password reset in progress; checking again in \(delay) s")
                    do { try await environment.clock.sleep(seconds: Double(delay)) } catch { return machine.waitCancelled() }
                    machine.waited()
                }
                let (answer, id) = await client.call(
                    .resetPasswordPollCompletion, [("continuation_token", next.token)], correlationId: next.correlationId,
                    expecting: ResetPasswordPollResponse.self)
                return machine.pollAnswered(answer, correlationId: id)
            }
        }
    }
}
