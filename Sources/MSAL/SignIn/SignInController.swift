import Foundation

/// Drives the sign-in flow (docs/protocol.md#password-sign-in, #code-sign-in): each public step is one `async` function here that
/// returns its result or throws its typed error. The delegate API is an adapter over these.
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
        var correlationId = request.correlationId
        logger.info("Sign-in started for \(pii: request.username) correlation \(correlationId.uuidString)")
        guard !request.username.isEmpty else {
            throw SignInStartError(
                type: .invalidUsername,
                NativeAuthErrorDetails(
                    message: NativeAuthErrorMessage.invalidUsername, correlationId: correlationId))
        }
        if let password = request.password, password.isEmpty {
            throw SignInStartError(
                type: .invalidCredentials,
                NativeAuthErrorDetails(
                    message: NativeAuthErrorMessage.invalidCredentials, correlationId: correlationId))
        }

        let environment = client.environment
        let initiate = await client.call(
            .signInInitiate,
            [
                ("username", request.username),
                ("challenge_type", environment.challengeTypes.wireValue),
                ("capabilities", environment.capabilities.wireValue),
            ], correlationId: correlationId, expecting: ContinuationTokenResponse.self)
        correlationId = initiate.correlationId
        let initiateToken: String
        switch initiate.outcome {
        case .success(let body): initiateToken = body.continuationToken
        case .redirect(let reason): throw .browserRequired(reason, correlationId: correlationId)
        case .apiError(let error): throw .fromInitiate(error, correlationId: correlationId)
        case .failure(let failure): throw .general(failure, correlationId: correlationId)
        }

        let challenge = await client.call(
            .signInChallenge,
            [
                ("continuation_token", initiateToken),
                ("challenge_type", environment.challengeTypes.wireValue),
            ], correlationId: correlationId, expecting: ChallengeResponse.self)
        correlationId = challenge.correlationId
        switch challenge.outcome {
        case .success(.oob(let token, let label, let channel, let codeLength, _)):
            // A code-only account gets a code even when the app supplied a password (docs/protocol.md#sign-in-endpoints).
            let state = SignInCodeRequiredState(
                controller: self, continuationToken: token, correlationId: correlationId,
                scopes: request.scopes, claims: request.claims)
            return .codeRequired(
                newState: state, sentTo: label, channelTargetType: MSALNativeAuthChannelType(value: channel), codeLength: codeLength)
        case .success(.password(let token)):
            guard let password = request.password else {
                return .passwordRequired(
                    newState: SignInPasswordRequiredState(
                        controller: self, continuationToken: token, correlationId: correlationId,
                        username: request.username, scopes: request.scopes, claims: request.claims))
            }
            let grant = TokenGrant(
                kind: .password(username: request.username, password: password), continuationToken: token,
                scopes: request.scopes, claims: request.claims)
            switch await finish(grant, correlationId: correlationId, lifecycle: nil) {
            case .success(let step): return SignInStartResult(step)
            case .failure(let failure): throw .fromToken(failure)
            }
        case .redirect(let reason):
            throw .browserRequired(reason, correlationId: correlationId)
        case .apiError(let error):
            throw .general(error, correlationId: correlationId)
        case .failure(let failure):
            throw .general(failure, correlationId: correlationId)
        }
    }

    // MARK: Code

    package func submitCode(_ code: String, on state: SignInCodeRequiredState) async throws(VerifyCodeError) -> SignInVerifyCodeResult {
        guard !code.isEmpty else {
            throw VerifyCodeError(
                type: .invalidCode,
                NativeAuthErrorDetails(
                    message: NativeAuthErrorMessage.invalidCode, correlationId: state.correlationId))
        }
        let grant = TokenGrant(
            kind: .oob(code: code), continuationToken: state.continuationToken, scopes: state.scopes, claims: state.claims)
        switch await finish(grant, correlationId: state.correlationId, lifecycle: state.lifecycle) {
        case .success(let step): return step
        // A refused credential keeps the state usable (docs/error-mapping.md#sign-in-states); `finish` has used it up
        // when the server moved on to a second factor whose methods could not be read.
        case .failure(let failure): throw .fromSignInToken(failure)
        }
    }

    package func resendCode(on state: SignInCodeRequiredState) async throws(ResendCodeError) -> SignInResendCodeResult {
        let challenge = await client.call(
            .signInChallenge,
            [
                ("continuation_token", state.continuationToken),
                ("challenge_type", client.environment.challengeTypes.wireValue),
            ], correlationId: state.correlationId, expecting: ChallengeResponse.self)
        let correlationId = challenge.correlationId
        switch challenge.outcome {
        case .success(.oob(let token, let label, let channel, let codeLength, _)):
            let next = SignInCodeRequiredState(
                controller: self, continuationToken: token, correlationId: correlationId, scopes: state.scopes, claims: state.claims)
            return .codeRequired(
                newState: next, sentTo: label, channelTargetType: MSALNativeAuthChannelType(value: channel), codeLength: codeLength)
        case .success(.password):
            state.lifecycle.end()
            throw .general(
                NativeAuthErrorDetails(
                    message: "The server asked for a password instead of sending a new code", correlationId: correlationId))
        case .redirect(let reason):
            throw .browserRequired(reason, correlationId: correlationId)
        case .apiError(let error):
            throw .general(
                NativeAuthErrorDetails(error, correlationId: correlationId, fallback: NativeAuthErrorMessage.generalError))
        case .failure(let failure):
            throw .general(NativeAuthErrorDetails(failure, correlationId: correlationId))
        }
    }

    // MARK: Password

    package func submitPassword(_ password: String, on state: SignInPasswordRequiredState) async throws(PasswordRequiredError)
        -> SignInPasswordRequiredResult
    {
        guard !password.isEmpty else {
            throw PasswordRequiredError(
                type: .invalidPassword,
                NativeAuthErrorDetails(
                    message: NativeAuthErrorMessage.invalidPassword, correlationId: state.correlationId))
        }
        let grant = TokenGrant(
            kind: .password(username: state.username, password: password), continuationToken: state.continuationToken,
            scopes: state.scopes, claims: state.claims)
        switch await finish(grant, correlationId: state.correlationId, lifecycle: state.lifecycle) {
        case .success(let step): return step
        // A refused credential keeps the state usable (docs/error-mapping.md#sign-in-states); `finish` has used it up
        // when the server moved on to a second factor whose methods could not be read.
        case .failure(let failure): throw .fromSignInToken(failure)
        }
    }
}
