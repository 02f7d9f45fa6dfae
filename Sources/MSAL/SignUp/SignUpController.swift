import Foundation

/// Drives the sign-up flow (spec §10.3–§10.5); one `async` function per public step.
package struct SignUpController: Sendable {
    package let client: NativeAuthClient
    package let signIn: SignInController

    private var environment: NativeAuthEnvironment { client.environment }

    package struct StartRequest: Sendable {
        var username: String
        var password: String?
        /// The attributes as JSON, or why they could not be made JSON.
        var attributes: Result<String?, MSALSetupError>
        var correlationId: UUID
    }

    // MARK: Start

    package func start(_ request: StartRequest) async throws(SignUpStartError) -> SignUpStartResult {
        var correlationId = request.correlationId
        environment.logger.info("Sign-up started for \(pii: request.username) correlation \(correlationId.uuidString)")
        guard !request.username.isEmpty else {
            throw SignUpStartError(
                type: .invalidUsername,
                MSALNativeAuthErrorDetails(
                    message: MSALNativeAuthErrorMessage.invalidUsername, correlationId: correlationId))
        }
        if let password = request.password, password.isEmpty {
            throw SignUpStartError(
                type: .invalidPassword,
                MSALNativeAuthErrorDetails(
                    message: MSALNativeAuthErrorMessage.invalidPassword, correlationId: correlationId))
        }
        let attributes: String?
        switch request.attributes {
        case .success(let json): attributes = json
        case .failure(let error):
            throw SignUpStartError(type: .generalError, MSALNativeAuthErrorDetails(message: error.message, correlationId: correlationId))
        }

        let started = await client.call(
            .signUpStart,
            [
                ("username", request.username), ("password", request.password), ("attributes", attributes),
                ("challenge_type", environment.challengeTypes.wireValue), ("capabilities", environment.capabilities.wireValue),
            ], correlationId: correlationId, expecting: ContinuationTokenResponse.self)
        correlationId = started.correlationId
        let token: String
        switch started.outcome {
        case .success(let body): token = body.continuationToken
        case .redirect(let reason):
            throw SignUpStartError(type: .browserRequired, MSALNativeAuthErrorDetails(redirectReason: reason, correlationId: correlationId))
        case .apiError(let error):
            if error.error == .invalidGrant, error.suberror == .attributeValidationFailed, !error.invalidAttributes.isEmpty {
                return .attributesInvalid(attributeNames: error.invalidAttributes)
            }
            throw SignUpStartError.fromStart(error, correlationId: correlationId)
        case .failure(let failure):
            throw SignUpStartError(type: .generalError, MSALNativeAuthErrorDetails(failure, correlationId: correlationId))
        }

        switch await challenge(token, username: request.username, correlationId: correlationId) {
        case .code(let state, let sentTo, let channel, let length):
            return .codeRequired(newState: state, sentTo: sentTo, channelTargetType: channel, codeLength: length)
        case .password:
            throw SignUpStartError(
                type: .generalError,
                MSALNativeAuthErrorDetails(
                    message: "The server did not send a verification code", correlationId: correlationId))
        case .redirect(let details):
            throw SignUpStartError(type: .browserRequired, details)
        case .error(let details), .networkFailure(let details):
            throw SignUpStartError(type: .generalError, details)
        }
    }

    // MARK: Challenge

    enum ChallengeOutcome {
        case code(SignUpCodeRequiredState, sentTo: String, channel: MSALNativeAuthChannelType, codeLength: Int)
        case password(SignUpPasswordRequiredState)
        case redirect(MSALNativeAuthErrorDetails)
        /// A server error answer (the previous token still stands).
        case error(MSALNativeAuthErrorDetails)
        /// No usable answer (transport failure, unexpected status, undecodable body): the previous
        /// token still stands as far as the client knows.
        case networkFailure(MSALNativeAuthErrorDetails)
    }

    func challenge(_ token: String, username: String, correlationId: UUID) async -> ChallengeOutcome {
        let answer = await client.call(
            .signUpChallenge,
            [
                ("continuation_token", token), ("challenge_type", environment.challengeTypes.wireValue),
            ], correlationId: correlationId, expecting: ChallengeResponse.self)
        let id = answer.correlationId
        switch answer.outcome {
        case .success(.oob(let next, let label, let channel, let length, _)):
            return .code(
                SignUpCodeRequiredState(controller: self, username: username, continuationToken: next, correlationId: id),
                sentTo: label, channel: MSALNativeAuthChannelType(value: channel), codeLength: length)
        case .success(.password(let next)):
            return .password(SignUpPasswordRequiredState(controller: self, username: username, continuationToken: next, correlationId: id))
        case .redirect(let reason):
            return .redirect(MSALNativeAuthErrorDetails(redirectReason: reason, correlationId: id))
        case .apiError(let error):
            return .error(MSALNativeAuthErrorDetails(error, correlationId: id, fallback: MSALNativeAuthErrorMessage.generalError))
        case .failure(let failure):
            return .networkFailure(MSALNativeAuthErrorDetails(failure, correlationId: id))
        }
    }

    // MARK: Continue

    /// What `/signup/v1.0/continue` said, before each step maps it.
    enum ContinueOutcome {
        case completed(SignInAfterSignUpState)
        case attributesRequired([MSALNativeAuthRequiredAttribute], SignUpAttributesRequiredState)
        case credentialRequired(token: String, correlationId: UUID)
        case apiError(NativeAuthAPIError, correlationId: UUID)
        case failure(MSALNativeAuthNetworkFailure, correlationId: UUID)
    }

    func continueSignUp(_ fields: [(String, String?)], token: String, username: String, correlationId: UUID) async -> ContinueOutcome {
        let answer = await client.call(
            .signUpContinue, [("continuation_token", token)] + fields, correlationId: correlationId,
            expecting: SignUpCompletedResponse.self, honoursRedirect: false)
        let id = answer.correlationId
        switch answer.outcome {
        case .success(let body):
            return .completed(
                SignInAfterSignUpState(controller: signIn, username: username, continuationToken: body.continuationToken, correlationId: id)
            )
        case .redirect:
            // Not produced with honoursRedirect: false; a redirect body at continue counts as completion.
            return .completed(SignInAfterSignUpState(controller: signIn, username: username, continuationToken: nil, correlationId: id))
        case .apiError(let error):
            if error.error == .attributesRequired, let next = error.continuationToken, !error.requiredAttributes.isEmpty {
                let state = SignUpAttributesRequiredState(controller: self, username: username, continuationToken: next, correlationId: id)
                return .attributesRequired(error.requiredAttributes.map(MSALNativeAuthRequiredAttribute.init), state)
            }
            if error.error == .credentialRequired, let next = error.continuationToken {
                return .credentialRequired(token: next, correlationId: id)
            }
            return .apiError(error, correlationId: id)
        case .failure(let failure):
            return .failure(failure, correlationId: id)
        }
    }

    // MARK: Steps

    package func submitCode(_ code: String, on state: SignUpCodeRequiredState) async throws(VerifyCodeError) -> SignUpVerifyCodeResult {
        guard !code.isEmpty else {
            throw VerifyCodeError(
                type: .invalidCode,
                MSALNativeAuthErrorDetails(
                    message: MSALNativeAuthErrorMessage.invalidCode,
                    correlationId: state.correlationId))
        }
        let outcome = await continueSignUp(
            [("grant_type", "oob"), ("oob", code)], token: state.continuationToken,
            username: state.username, correlationId: state.correlationId)
        switch outcome {
        case .completed(let next):
            return .completed(next)
        case .attributesRequired(let attributes, let next):
            return .attributesRequired(attributes: attributes, newState: next)
        case .credentialRequired(let token, let id):
            // The code was accepted and the server moved on: a failure from here ends the flow.
            do throws(VerifyCodeError) {
                switch await challenge(token, username: state.username, correlationId: id) {
                case .password(let next): return .passwordRequired(newState: next)
                case .redirect(let details): throw VerifyCodeError(type: .browserRequired, details)
                case .error(let details), .networkFailure(let details): throw VerifyCodeError(type: .generalError, details)
                case .code(let next, _, _, _):
                    throw VerifyCodeError(
                        type: .generalError,
                        MSALNativeAuthErrorDetails(
                            message: "The server asked for another code instead of a password", correlationId: next.correlationId))
                }
            } catch {
                state.lifecycle.end()
                throw error
            }
        case .apiError(let error, let id):
            let details = MSALNativeAuthErrorDetails(error, correlationId: id, fallback: MSALNativeAuthErrorMessage.invalidCode)
            if error.error == .invalidGrant, let suberror = error.suberror, suberror == .invalidOOBValue || suberror.isPasswordPolicyFailure
            {
                throw VerifyCodeError(type: .invalidCode, details)
            }
            state.lifecycle.end()
            throw VerifyCodeError(type: .generalError, details)
        case .failure(let failure, let id):
            // Nothing reached the server's decision: the code may be tried again.
            throw VerifyCodeError(type: .generalError, MSALNativeAuthErrorDetails(failure, correlationId: id))
        }
    }

    package func resendCode(on state: SignUpCodeRequiredState) async throws(ResendCodeError) -> SignUpResendCodeResult {
        switch await challenge(state.continuationToken, username: state.username, correlationId: state.correlationId) {
        case .code(let next, let sentTo, let channel, let length):
            return .codeRequired(newState: next, sentTo: sentTo, channelTargetType: channel, codeLength: length)
        case .error(let details), .networkFailure(let details):
            throw ResendCodeError.general(details)
        case .redirect(let details):
            state.lifecycle.end()
            throw ResendCodeError(type: .browserRequired, details)
        case .password(let next):
            state.lifecycle.end()
            throw ResendCodeError.general(
                MSALNativeAuthErrorDetails(
                    message: "The server asked for a password instead of sending a new code", correlationId: next.correlationId))
        }
    }

    package func submitPassword(_ password: String, on state: SignUpPasswordRequiredState) async throws(PasswordRequiredError)
        -> SignUpPasswordRequiredResult
    {
        guard !password.isEmpty else {
            throw PasswordRequiredError(
                type: .invalidPassword,
                MSALNativeAuthErrorDetails(
                    message: MSALNativeAuthErrorMessage.invalidPassword, correlationId: state.correlationId))
        }
        let outcome = await continueSignUp(
            [("grant_type", "password"), ("password", password)], token: state.continuationToken,
            username: state.username, correlationId: state.correlationId)
        switch outcome {
        case .completed(let next):
            return .completed(next)
        case .attributesRequired(let attributes, let next):
            return .attributesRequired(attributes: attributes, newState: next)
        case .apiError(let error, let id):
            let details = MSALNativeAuthErrorDetails(error, correlationId: id, fallback: MSALNativeAuthErrorMessage.invalidPassword)
            if error.error == .invalidGrant, error.suberror?.isPasswordPolicyFailure == true {
                throw PasswordRequiredError(type: .invalidPassword, details)
            }
            if error.error == .invalidGrant, error.suberror == .invalidOOBValue {
                throw PasswordRequiredError(type: .generalError, details)
            }
            state.lifecycle.end()
            throw PasswordRequiredError(type: .generalError, details)
        case .credentialRequired(_, let id):
            state.lifecycle.end()
            throw PasswordRequiredError(
                type: .generalError,
                MSALNativeAuthErrorDetails(
                    message: "The server asked for a credential again", correlationId: id))
        case .failure(let failure, let id):
            throw PasswordRequiredError(type: .generalError, MSALNativeAuthErrorDetails(failure, correlationId: id))
        }
    }

    package func submitAttributes(_ attributes: Result<String?, MSALSetupError>, on state: SignUpAttributesRequiredState)
        async throws(AttributesRequiredError) -> SignUpAttributesRequiredResult
    {
        let json: String
        switch attributes {
        case .success(let value?): json = value
        case .success(nil): json = "{}"
        case .failure(let error):
            throw AttributesRequiredError(
                type: .generalError, MSALNativeAuthErrorDetails(message: error.message, correlationId: state.correlationId))
        }
        let outcome = await continueSignUp(
            [("grant_type", "attributes"), ("attributes", json)], token: state.continuationToken,
            username: state.username, correlationId: state.correlationId)
        switch outcome {
        case .completed(let next):
            return .completed(next)
        case .attributesRequired(let required, let next):
            return .attributesRequired(attributes: required, newState: next)
        case .apiError(let error, let id):
            if error.error == .invalidGrant, error.suberror == .attributeValidationFailed, !error.invalidAttributes.isEmpty {
                // The same token accepts corrected values.
                return .attributesInvalid(attributeNames: error.invalidAttributes, newState: state)
            }
            state.lifecycle.end()
            throw AttributesRequiredError(
                type: .generalError, MSALNativeAuthErrorDetails(error, correlationId: id, fallback: MSALNativeAuthErrorMessage.generalError)
            )
        case .credentialRequired(_, let id):
            state.lifecycle.end()
            throw AttributesRequiredError(
                type: .generalError, MSALNativeAuthErrorDetails(message: "The server asked for a credential again", correlationId: id))
        case .failure(let failure, let id):
            throw AttributesRequiredError(type: .generalError, MSALNativeAuthErrorDetails(failure, correlationId: id))
        }
    }
}

extension SignUpStartError {
    /// `/signup/v1.0/start` errors (public-api §8.1).
    static func fromStart(_ error: NativeAuthAPIError, correlationId: UUID) -> SignUpStartError {
        let fallback = MSALNativeAuthErrorMessage.generalError
        if error.error == .invalidGrant, error.suberror?.isPasswordPolicyFailure == true {
            return SignUpStartError(
                type: .invalidPassword,
                MSALNativeAuthErrorDetails(
                    error, correlationId: correlationId,
                    fallback: MSALNativeAuthErrorMessage.invalidPassword))
        }
        if error.error == .userAlreadyExists {
            return SignUpStartError(
                type: .userAlreadyExists,
                MSALNativeAuthErrorDetails(
                    error, correlationId: correlationId,
                    fallback: MSALNativeAuthErrorMessage.userAlreadyExists))
        }
        if error.error == .invalidRequest, error.firstCode == NativeAuthServerCode.invalidParameter,
            error.errorDescription?.contains("username parameter is empty or not valid") == true
        {
            return SignUpStartError(
                type: .invalidUsername,
                MSALNativeAuthErrorDetails(
                    error, correlationId: correlationId,
                    fallback: MSALNativeAuthErrorMessage.invalidUsername))
        }
        return SignUpStartError(type: .generalError, MSALNativeAuthErrorDetails(error, correlationId: correlationId, fallback: fallback))
    }
}
