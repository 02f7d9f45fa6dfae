import Foundation

/// The second half of a sign-in: redeeming a credential and, when the tenant asks for it, the
/// second factor (docs/protocol.md#multifactor-authentication) or the registration of a strong-auth method
/// (docs/protocol.md#strong-auth-registration). Every step
/// that can end a sign-in goes through `finish`, so MFA and registration work the same after a
/// password, a code, a sign-up or a password reset.
extension SignInController {
    // MARK: Redeeming, and what follows it

    /// Redeems `grant`; on `mfa_required` or `registration_required` asks the matching introspect
    /// endpoint for the methods and returns the state that continues there.
    ///
    /// `lifecycle` is the state that sent the grant. When the server moved the flow on (a second
    /// factor wanted) and the step that follows fails, that state's flow is over: the server has
    /// spent its token. After any other failure the user may try again on it.
    package func finish(_ grant: TokenGrant, correlationId: UUID, lifecycle: StateLifecycle?) async
        -> Result<SignInStepResult, TokenRedemptionFailure>
    {
        let redeemed = await client.redeem(grant, correlationId: correlationId)
        let context = SignInContinuationContext(controller: self, scopes: grant.scopes, claims: grant.claims)
        switch redeemed.result {
        case .success(let result):
            return .success(.completed(result))
        case .failure(.mfaRequired(let token, _)):
            logger.info("The sign-in needs a second factor; asking for the user's methods")
            let next = await introspect(.signInIntrospect, token, correlationId: redeemed.correlationId) { methods, next, id in
                .awaitingMFA(authMethods: methods, newState: AwaitingMFAState(context: context, continuationToken: next, correlationId: id))
            }
            return next.endingFlow(of: lifecycle)
        case .failure(.registrationRequired(let token, _)):
            logger.info("The sign-in needs a strong-auth method registered; asking which kinds")
            let next = await introspect(.registerIntrospect, token, correlationId: redeemed.correlationId) { methods, next, id in
                .strongAuthMethodRegistration(
                    authMethods: methods, newState: RegisterStrongAuthState(context: context, continuationToken: next, correlationId: id))
            }
            return next.endingFlow(of: lifecycle)
        case .failure(let failure):
            return .failure(failure)
        }
    }

    private func introspect(
        _ endpoint: NativeAuthEndpoint, _ continuationToken: String, correlationId: UUID,
        next: ([MSALAuthMethod], String, UUID) -> SignInStepResult
    ) async -> Result<SignInStepResult, TokenRedemptionFailure> {
        let (outcome, correlationId) = await client.call(
            endpoint, [("continuation_token", continuationToken)], correlationId: correlationId, expecting: IntrospectResponse.self)
        switch outcome {
        case .success(let body):
            let methods = body.methods.map {
                MSALAuthMethod(
                    id: $0.id, challengeType: $0.challengeType, channelTargetType: MSALNativeAuthChannelType(value: $0.channel),
                    loginHint: $0.loginHint)
            }
            return .success(next(methods, body.continuationToken, correlationId))
        case .redirect(let reason):
            return .failure(.browserRequired(NativeAuthErrorDetails(redirectReason: reason, correlationId: correlationId)))
        case .apiError(let error):
            return .failure(
                .general(NativeAuthErrorDetails(error, correlationId: correlationId, fallback: NativeAuthErrorMessage.generalError))
            )
        case .failure(let failure):
            return .failure(.general(NativeAuthErrorDetails(failure, correlationId: correlationId)))
        }
    }

    // MARK: MFA (docs/error-mapping.md#mfa-states)

    package func requestMFAChallenge(_ authMethod: MSALAuthMethod, on state: MFABaseState) async throws(MFARequestChallengeError)
        -> MFARequestChallengeResult
    {
        let (outcome, correlationId) = await client.call(
            .signInChallenge,
            [
                ("continuation_token", state.continuationToken),
                ("challenge_type", client.environment.challengeTypes.wireValue),
                ("id", authMethod.id),
            ], correlationId: state.correlationId, expecting: ChallengeResponse.self)
        switch outcome {
        case .success(.oob(let token, let label, let channel, let codeLength, _)):
            let next = MFARequiredState(context: state.context, continuationToken: token, correlationId: correlationId)
            return .verificationRequired(
                newState: next, sentTo: label, channelTargetType: MSALNativeAuthChannelType(value: channel), codeLength: codeLength)
        case .success(.password):
            state.lifecycle.end()
            throw MFARequestChallengeError(
                type: .generalError,
                NativeAuthErrorDetails(
                    message: "The server asked for a password instead of sending a code", correlationId: correlationId))
        case .redirect(let reason):
            throw MFARequestChallengeError(
                type: .browserRequired, NativeAuthErrorDetails(redirectReason: reason, correlationId: correlationId))
        case .apiError(let error):
            let details = NativeAuthErrorDetails(error, correlationId: correlationId, fallback: NativeAuthErrorMessage.generalError)
            throw MFARequestChallengeError(type: error.isProviderBlocked ? .authMethodBlocked : .generalError, details)
        case .failure(let failure):
            throw MFARequestChallengeError(type: .generalError, NativeAuthErrorDetails(failure, correlationId: correlationId))
        }
    }

    package func submitMFAChallenge(_ code: String, on state: MFARequiredState) async throws(MFASubmitChallengeError)
        -> MFASubmitChallengeResult
    {
        guard !code.isEmpty else {
            throw MFASubmitChallengeError(
                type: .invalidChallenge,
                NativeAuthErrorDetails(message: NativeAuthErrorMessage.invalidChallenge, correlationId: state.correlationId))
        }
        let grant = TokenGrant(
            kind: .mfaOOB(code: code), continuationToken: state.continuationToken, scopes: state.context.scopes,
            claims: state.context.claims)
        let redeemed = await client.redeem(grant, correlationId: state.correlationId)
        switch redeemed.result {
        case .success(let result):
            return .completed(result)
        case .failure(.invalidCode(var details)):
            if details.message == NativeAuthErrorMessage.generalError { details.message = NativeAuthErrorMessage.invalidChallenge }
            throw MFASubmitChallengeError(type: .invalidChallenge, details)
        case .failure(.browserRequired(let details)):
            throw MFASubmitChallengeError(type: .browserRequired, details)
        case .failure(.mfaRequired(_, let details)), .failure(.registrationRequired(_, let details)):
            // A second factor after the second factor: nothing a client can do (docs/error-mapping.md#mfa-states).
            state.lifecycle.end()
            throw MFASubmitChallengeError(type: .generalError, details)
        case .failure(let failure):
            throw MFASubmitChallengeError(type: .generalError, failure.details)
        }
    }

    // MARK: Strong-auth registration (docs/error-mapping.md#registration-states)

    package func challengeAuthMethod(_ parameters: MSALNativeAuthChallengeAuthMethodParameters, on state: RegisterStrongAuthBaseState)
        async throws(RegisterStrongAuthChallengeError) -> RegisterStrongAuthChallengeResult
    {
        let correlationId = state.correlationId
        let contact = parameters.verificationContact.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !contact.isEmpty else {
            throw RegisterStrongAuthChallengeError(
                type: .invalidInput,
                NativeAuthErrorDetails(message: NativeAuthErrorMessage.invalidInput, correlationId: correlationId))
        }
        logger.info("Registering a strong-auth method (\(parameters.authMethod.channelTargetType.value)) for \(pii: contact)")
        let (outcome, answeredId) = await client.call(
            .registerChallenge,
            [
                ("continuation_token", state.continuationToken),
                ("challenge_type", parameters.authMethod.challengeType),
                ("challenge_target", contact),
                ("challenge_channel", parameters.authMethod.channelTargetType.value),
            ], correlationId: correlationId, expecting: RegisterChallengeResponse.self)
        switch outcome {
        case .success(.oob(let token, let target, let channel, let codeLength)):
            let next = RegisterStrongAuthVerificationRequiredState(
                context: state.context, continuationToken: token, correlationId: answeredId)
            return .verificationRequired(
                MSALNativeAuthRegisterStrongAuthVerificationRequiredResult(
                    newState: next, sentTo: target, channelTargetType: MSALNativeAuthChannelType(value: channel), codeLength: codeLength))
        case .success(.preverified(let token)):
            // No code: the contact is known as verified; register it and sign in at once.
            switch await completeRegistration(
                grant: [("grant_type", "continuation_token")], token, context: state.context, correlationId: answeredId)
            {
            case .success(let result): return .completed(result)
            case .failure(let failure):
                state.lifecycle.end()
                throw RegisterStrongAuthChallengeError(type: .generalError, failure.details)
            }
        case .redirect(let reason):
            state.lifecycle.end()
            throw RegisterStrongAuthChallengeError(
                type: .browserRequired, NativeAuthErrorDetails(redirectReason: reason, correlationId: answeredId))
        case .apiError(let error):
            let details = NativeAuthErrorDetails(error, correlationId: answeredId, fallback: NativeAuthErrorMessage.generalError)
            if error.error == .invalidRequest, error.errorCodes.contains(NativeAuthServerCode.invalidVerificationContact) {
                var invalid = details
                if invalid.message == NativeAuthErrorMessage.generalError { invalid.message = NativeAuthErrorMessage.invalidInput }
                throw RegisterStrongAuthChallengeError(type: .invalidInput, invalid)
            }
            throw RegisterStrongAuthChallengeError(type: error.isProviderBlocked ? .verificationContactBlocked : .generalError, details)
        case .failure(let failure):
            throw RegisterStrongAuthChallengeError(type: .generalError, NativeAuthErrorDetails(failure, correlationId: answeredId))
        }
    }

    package func submitRegistrationChallenge(_ code: String, on state: RegisterStrongAuthVerificationRequiredState)
        async throws(RegisterStrongAuthSubmitChallengeError) -> RegisterStrongAuthSubmitChallengeResult
    {
        guard !code.isEmpty else {
            throw RegisterStrongAuthSubmitChallengeError(
                type: .invalidChallenge,
                NativeAuthErrorDetails(message: NativeAuthErrorMessage.invalidChallenge, correlationId: state.correlationId))
        }
        switch await completeRegistration(
            grant: [("grant_type", "oob"), ("oob", code)], state.continuationToken, context: state.context,
            correlationId: state.correlationId)
        {
        case .success(let result):
            return .completed(result)
        case .failure(.continueRefused(let error, let details)):
            if error.error == .invalidGrant, error.suberror == .invalidOOBValue {
                var invalid = details
                if invalid.message == NativeAuthErrorMessage.generalError {
                    invalid.message = NativeAuthErrorMessage.invalidChallenge
                }
                throw RegisterStrongAuthSubmitChallengeError(type: .invalidChallenge, invalid)
            }
            throw RegisterStrongAuthSubmitChallengeError(type: .generalError, details)
        case .failure(.continueUnanswered(let details)):
            throw RegisterStrongAuthSubmitChallengeError(type: .generalError, details)
        case .failure(.continueRedirected(let details)):
            state.lifecycle.end()
            throw RegisterStrongAuthSubmitChallengeError(type: .browserRequired, details)
        case .failure(.signInFailed(let details)):
            // The method is registered but the token call failed: the flow is over (docs/error-mapping.md#registration-states).
            state.lifecycle.end()
            throw RegisterStrongAuthSubmitChallengeError(type: .generalError, details)
        }
    }

    /// Why finishing a registration did not sign the user in.
    package enum RegistrationFailure: Error {
        /// `/register/v1.0/continue` answered with an error; the state may retry.
        case continueRefused(NativeAuthAPIError, NativeAuthErrorDetails)
        /// `/register/v1.0/continue` got no usable answer; the state may retry.
        case continueUnanswered(NativeAuthErrorDetails)
        /// `/register/v1.0/continue` redirected to the browser.
        case continueRedirected(NativeAuthErrorDetails)
        /// The method was registered, but the token call after it failed.
        case signInFailed(NativeAuthErrorDetails)

        var details: NativeAuthErrorDetails {
            switch self {
            case .continueRefused(_, let d), .continueUnanswered(let d), .continueRedirected(let d), .signInFailed(let d): d
            }
        }
    }

    /// `/register/v1.0/continue` with `grant`, then the continuation-token grant that signs the user
    /// in (docs/protocol.md#strong-auth-registration steps 4-5). The token call sends no username, and the scopes the sign-in asked
    /// for (MSAL sends only the OIDC defaults here; asking for the app's scopes saves the refresh an
    /// API call would otherwise need).
    private func completeRegistration(
        grant: [(String, String?)], _ continuationToken: String, context: SignInContinuationContext, correlationId: UUID
    ) async -> Result<MSALNativeAuthUserAccountResult, RegistrationFailure> {
        let (outcome, correlationId) = await client.call(
            .registerContinue, [("continuation_token", continuationToken)] + grant, correlationId: correlationId,
            expecting: ContinuationTokenResponse.self)
        let signInToken: String
        switch outcome {
        case .success(let body): signInToken = body.continuationToken
        case .redirect(let reason):
            return .failure(.continueRedirected(NativeAuthErrorDetails(redirectReason: reason, correlationId: correlationId)))
        case .apiError(let error):
            return .failure(
                .continueRefused(
                    error,
                    NativeAuthErrorDetails(error, correlationId: correlationId, fallback: NativeAuthErrorMessage.generalError)))
        case .failure(let failure): return .failure(.continueUnanswered(NativeAuthErrorDetails(failure, correlationId: correlationId)))
        }
        let tokenGrant = TokenGrant(
            kind: .continuationToken(username: nil), continuationToken: signInToken, scopes: context.scopes, claims: context.claims)
        let redeemed = await client.redeem(tokenGrant, correlationId: correlationId)
        switch redeemed.result {
        case .success(let result): return .success(result)
        case .failure(let failure): return .failure(.signInFailed(failure.details))
        }
    }
}

extension NativeAuthAPIError {
    /// `access_denied` + `provider_blocked_by_rep`: the service will not send codes to that method or contact.
    var isProviderBlocked: Bool { error == .accessDenied && suberror == .providerBlockedByRep }
}

extension Result where Failure == TokenRedemptionFailure {
    /// This result, after recording in `lifecycle` that a failure ends the flow (the step before it
    /// had already moved the flow on at the server).
    fileprivate func endingFlow(of lifecycle: StateLifecycle?) -> Self {
        if case .failure = self { lifecycle?.end() }
        return self
    }
}
