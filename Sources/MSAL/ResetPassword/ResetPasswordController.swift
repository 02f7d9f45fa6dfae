import Foundation

/// Drives self-service password reset (spec §10.9); one `async` function per public step.
package struct ResetPasswordController: Sendable {
    package let client: NativeAuthClient
    package let signIn: SignInController

    /// Polls after the first that may answer `in_progress` before the reset is given up (MSAL: 5).
    package static let maxPollRetries = 5

    private var environment: NativeAuthEnvironment { client.environment }

    package struct StartRequest: Sendable {
        var username: String
        var correlationId: UUID
    }

    package func start(_ request: StartRequest) async throws(ResetPasswordStartError) -> ResetPasswordStartResult {
        var correlationId = request.correlationId
        environment.logger.info("Password reset started for \(pii: request.username) correlation \(correlationId.uuidString)")
        guard !request.username.isEmpty else {
            throw ResetPasswordStartError(
                type: .invalidUsername,
                MSALNativeAuthErrorDetails(
                    message: MSALNativeAuthErrorMessage.invalidUsername, correlationId: correlationId))
        }
        let started = await client.call(
            .resetPasswordStart,
            [
                ("username", request.username), ("challenge_type", environment.challengeTypes.wireValue),
                ("capabilities", environment.capabilities.wireValue),
            ], correlationId: correlationId, expecting: ContinuationTokenResponse.self)
        correlationId = started.correlationId
        let token: String
        switch started.outcome {
        case .success(let body): token = body.continuationToken
        case .redirect(let reason):
            throw ResetPasswordStartError(
                type: .browserRequired, MSALNativeAuthErrorDetails(redirectReason: reason, correlationId: correlationId))
        case .apiError(let error):
            throw ResetPasswordStartError.fromStart(error, correlationId: correlationId)
        case .failure(let failure):
            throw ResetPasswordStartError(type: .generalError, MSALNativeAuthErrorDetails(failure, correlationId: correlationId))
        }
        switch await challenge(token, username: request.username, correlationId: correlationId) {
        case .success(let (state, sentTo, channel, length)):
            return .codeRequired(newState: state, sentTo: sentTo, channelTargetType: channel, codeLength: length)
        case .failure(let failure):
            throw ResetPasswordStartError(type: failure.type == .browserRequired ? .browserRequired : .generalError, failure.details)
        }
    }

    typealias CodeSent = (ResetPasswordCodeRequiredState, String, MSALNativeAuthChannelType, Int)

    /// `/resetpassword/v1.0/challenge`: must answer with a code (a password challenge is an error here).
    func challenge(_ token: String, username: String, correlationId: UUID) async -> Result<CodeSent, GenericFailure> {
        let answer = await client.call(
            .resetPasswordChallenge,
            [
                ("continuation_token", token), ("challenge_type", environment.challengeTypes.wireValue),
            ], correlationId: correlationId, expecting: ChallengeResponse.self)
        let id = answer.correlationId
        switch answer.outcome {
        case .success(.oob(let next, let label, let channel, let length, _)):
            let state = ResetPasswordCodeRequiredState(controller: self, username: username, continuationToken: next, correlationId: id)
            return .success((state, label, MSALNativeAuthChannelType(value: channel), length))
        case .success(.password):
            return .failure(
                GenericFailure(
                    type: .generalError,
                    details: MSALNativeAuthErrorDetails(
                        message: "The server asked for a password instead of sending a code", correlationId: id)))
        case .redirect(let reason):
            return .failure(
                GenericFailure(type: .browserRequired, details: MSALNativeAuthErrorDetails(redirectReason: reason, correlationId: id)))
        case .apiError(let error):
            return .failure(
                GenericFailure(
                    type: .generalError,
                    details: MSALNativeAuthErrorDetails(
                        error, correlationId: id, fallback: MSALNativeAuthErrorMessage.generalError)))
        case .failure(let failure):
            return .failure(
                GenericFailure(type: .generalError, details: MSALNativeAuthErrorDetails(failure, correlationId: id), isNetworkFailure: true)
            )
        }
    }

    package func resendCode(on state: ResetPasswordCodeRequiredState) async throws(ResendCodeError) -> ResetPasswordResendCodeResult {
        switch await challenge(state.continuationToken, username: state.username, correlationId: state.correlationId) {
        case .success(let (next, sentTo, channel, length)):
            return .codeRequired(newState: next, sentTo: sentTo, channelTargetType: channel, codeLength: length)
        case .failure(let failure):
            // MSAL ends the flow on any answered resend failure (public-api §8.7).
            if !failure.isNetworkFailure { state.lifecycle.end() }
            throw ResendCodeError(type: failure.type, failure.details)
        }
    }

    package func submitCode(_ code: String, on state: ResetPasswordCodeRequiredState) async throws(VerifyCodeError)
        -> ResetPasswordVerifyCodeResult
    {
        guard !code.isEmpty else {
            throw VerifyCodeError(
                type: .invalidCode,
                MSALNativeAuthErrorDetails(
                    message: MSALNativeAuthErrorMessage.invalidCode,
                    correlationId: state.correlationId))
        }
        let answer = await client.call(
            .resetPasswordContinue,
            [
                ("continuation_token", state.continuationToken), ("grant_type", "oob"), ("oob", code),
            ], correlationId: state.correlationId, expecting: ContinuationTokenResponse.self)
        let id = answer.correlationId
        switch answer.outcome {
        case .success(let body):
            return .passwordRequired(
                newState: ResetPasswordRequiredState(
                    controller: self, username: state.username, continuationToken: body.continuationToken, correlationId: id))
        case .apiError(let error) where error.error == .invalidGrant && error.suberror == .invalidOOBValue:
            throw VerifyCodeError(
                type: .invalidCode, MSALNativeAuthErrorDetails(error, correlationId: id, fallback: MSALNativeAuthErrorMessage.invalidCode))
        case .apiError(let error):
            state.lifecycle.end()
            throw VerifyCodeError(
                type: .generalError, MSALNativeAuthErrorDetails(error, correlationId: id, fallback: MSALNativeAuthErrorMessage.generalError)
            )
        case .redirect(let reason):
            state.lifecycle.end()
            throw VerifyCodeError(type: .browserRequired, MSALNativeAuthErrorDetails(redirectReason: reason, correlationId: id))
        case .failure(let failure):
            throw VerifyCodeError(type: .generalError, MSALNativeAuthErrorDetails(failure, correlationId: id))
        }
    }

    package func submitPassword(_ password: String, on state: ResetPasswordRequiredState) async throws(PasswordRequiredError)
        -> ResetPasswordRequiredResult
    {
        guard !password.isEmpty else {
            throw PasswordRequiredError(
                type: .invalidPassword,
                MSALNativeAuthErrorDetails(
                    message: MSALNativeAuthErrorMessage.invalidPassword, correlationId: state.correlationId))
        }
        let submitted = await client.call(
            .resetPasswordSubmit,
            [
                ("continuation_token", state.continuationToken), ("new_password", password),
            ], correlationId: state.correlationId, expecting: ResetPasswordSubmitResponse.self)
        let id = submitted.correlationId
        let pollToken: String
        let interval: Int
        switch submitted.outcome {
        case .success(let body):
            (pollToken, interval) = (body.continuationToken, body.pollInterval)
        case .apiError(let error) where error.error == .invalidGrant && error.suberror?.isPasswordPolicyFailure == true:
            throw PasswordRequiredError(
                type: .invalidPassword,
                MSALNativeAuthErrorDetails(
                    error, correlationId: id, fallback: MSALNativeAuthErrorMessage.invalidPassword))
        case .apiError(let error):
            state.lifecycle.end()
            throw PasswordRequiredError(
                type: .generalError, MSALNativeAuthErrorDetails(error, correlationId: id, fallback: MSALNativeAuthErrorMessage.generalError)
            )
        case .redirect(let reason):
            state.lifecycle.end()
            throw PasswordRequiredError(type: .browserRequired, MSALNativeAuthErrorDetails(redirectReason: reason, correlationId: id))
        case .failure(let failure):
            throw PasswordRequiredError(type: .generalError, MSALNativeAuthErrorDetails(failure, correlationId: id))
        }
        return try await poll(pollToken, interval: interval, state: state, correlationId: id)
    }

    /// Polls `poll_completion` with the submit token: at once, then every `interval` seconds, at
    /// most `maxPollRetries` more times (spec §5.3).
    private func poll(_ token: String, interval: Int, state: ResetPasswordRequiredState, correlationId: UUID)
        async throws(PasswordRequiredError)
        -> ResetPasswordRequiredResult
    {
        var retriesLeft = Self.maxPollRetries
        while true {
            let answer = await client.call(
                .resetPasswordPollCompletion, [("continuation_token", token)], correlationId: correlationId,
                expecting: ResetPasswordPollResponse.self)
            let id = answer.correlationId
            switch answer.outcome {
            case .success(let body) where body.status == .succeeded:
                return .completed(
                    SignInAfterResetPasswordState(
                        controller: signIn, username: state.username, continuationToken: body.continuationToken, correlationId: id))
            case .success(let body) where body.status == .failed:
                state.lifecycle.end()
                throw PasswordRequiredError(
                    type: .generalError,
                    MSALNativeAuthErrorDetails(
                        message: "The password reset failed on the server", correlationId: id))
            case .success:
                guard retriesLeft > 0 else {
                    state.lifecycle.end()
                    throw PasswordRequiredError(
                        type: .generalError,
                        MSALNativeAuthErrorDetails(
                            message: "The password reset did not complete after \(Self.maxPollRetries + 1) checks", correlationId: id))
                }
                retriesLeft -= 1
                environment.logger.info("Password reset in progress; checking again in \(interval) s")
                do {
                    try await environment.clock.sleep(seconds: Double(interval))
                } catch {
                    state.lifecycle.end()
                    throw PasswordRequiredError(
                        type: .generalError,
                        MSALNativeAuthErrorDetails(
                            message: "The password reset was cancelled while waiting for the server", correlationId: id))
                }
            case .apiError(let error) where error.error == .invalidGrant && error.suberror?.isPasswordPolicyFailure == true:
                // The password was refused late: a new password goes to /submit with the poll token (as MSAL does).
                state.replaceContinuationToken(with: token)
                throw PasswordRequiredError(
                    type: .invalidPassword,
                    MSALNativeAuthErrorDetails(
                        error, correlationId: id, fallback: MSALNativeAuthErrorMessage.invalidPassword))
            case .apiError(let error):
                state.lifecycle.end()
                throw PasswordRequiredError(
                    type: .generalError,
                    MSALNativeAuthErrorDetails(error, correlationId: id, fallback: MSALNativeAuthErrorMessage.generalError))
            case .redirect(let reason):
                state.lifecycle.end()
                throw PasswordRequiredError(type: .browserRequired, MSALNativeAuthErrorDetails(redirectReason: reason, correlationId: id))
            case .failure(let failure):
                state.lifecycle.end()
                throw PasswordRequiredError(type: .generalError, MSALNativeAuthErrorDetails(failure, correlationId: id))
            }
        }
    }
}

extension ResetPasswordStartError {
    /// `/resetpassword/v1.0/start` errors (public-api §8.7).
    static func fromStart(_ error: NativeAuthAPIError, correlationId: UUID) -> ResetPasswordStartError {
        if error.error == .userNotFound {
            return ResetPasswordStartError(
                type: .userNotFound,
                MSALNativeAuthErrorDetails(
                    error, correlationId: correlationId, fallback: MSALNativeAuthErrorMessage.userNotFound))
        }
        if error.error == .invalidRequest, error.firstCode == NativeAuthServerCode.userDoesNotHavePassword {
            return ResetPasswordStartError(
                type: .userDoesNotHavePassword,
                MSALNativeAuthErrorDetails(
                    error, correlationId: correlationId, fallback: MSALNativeAuthErrorMessage.userDoesNotHavePassword))
        }
        return ResetPasswordStartError(
            type: .generalError,
            MSALNativeAuthErrorDetails(
                error, correlationId: correlationId, fallback: MSALNativeAuthErrorMessage.generalError))
    }
}
