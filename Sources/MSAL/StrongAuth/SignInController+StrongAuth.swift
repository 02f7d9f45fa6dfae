import Foundation

/// Runs the steps after a first factor: the second factor (docs/protocol.md#multifactor-authentication)
/// and the registration of a strong-auth method (docs/protocol.md#strong-auth-registration). Each
/// step sends the requests its `StrongAuthMachine` asks for (StrongAuthMachine.swift has the
/// rules). Every step that can lead here goes through `SignInMachine.redeemed`, so MFA and
/// registration work the same after a password, a code, a sign-up or a password reset.
extension SignInController {
    // MARK: MFA (docs/error-mapping.md#mfa-states)

    package func requestMFAChallenge(_ authMethod: MSALAuthMethod, on state: MFABaseState) async throws(MFARequestChallengeError)
        -> CodeRequiredResult<MFARequiredState>
    {
        var machine = StrongAuthMachine(scopes: state.context.scopes, claims: state.context.claims)
        let first = machine.requestMFAChallenge(methodId: authMethod.id, on: state.continuation)
        let sent = try await run(first, &machine).get(MFARequestChallengeError.init, ending: state.lifecycle).codeSent
        return CodeRequiredResult(sent) {
            MFARequiredState(context: state.context, continuationToken: $0.token, correlationId: $0.correlationId)
        }
    }

    package func submitMFAChallenge(_ code: String, on state: MFARequiredState) async throws(MFASubmitChallengeError)
        -> MSALNativeAuthUserAccountResult
    {
        var machine = StrongAuthMachine(scopes: state.context.scopes, claims: state.context.claims)
        let first = machine.submitMFAChallenge(code, on: state.continuation)
        return try await run(first, &machine).get(MFASubmitChallengeError.init, ending: state.lifecycle).account
    }

    // MARK: Strong-auth registration (docs/error-mapping.md#registration-states)

    package func challengeAuthMethod(_ parameters: MSALNativeAuthChallengeAuthMethodParameters, on state: RegisterStrongAuthBaseState)
        async throws(RegisterStrongAuthChallengeError) -> RegisterStrongAuthChallengeResult
    {
        var machine = StrongAuthMachine(scopes: state.context.scopes, claims: state.context.claims)
        let contact = StrongAuthMachine.Contact(
            target: parameters.verificationContact, challengeType: parameters.authMethod.challengeType,
            channel: parameters.authMethod.channelTargetType.value)
        let first = machine.challengeAuthMethod(contact, on: state.continuation)
        switch try await run(first, &machine).get(RegisterStrongAuthChallengeError.init, ending: state.lifecycle) {
        case .completed(let account):
            return .completed(account)
        case .codeRequired(let sent):
            let result = CodeRequiredResult(sent) {
                RegisterStrongAuthVerificationRequiredState(
                    context: state.context, continuationToken: $0.token, correlationId: $0.correlationId)
            }
            return .verificationRequired(
                MSALNativeAuthRegisterStrongAuthVerificationRequiredResult(
                    newState: result.newState, sentTo: result.sentTo, channelTargetType: result.channelTargetType,
                    codeLength: result.codeLength))
        }
    }

    package func submitRegistrationChallenge(_ code: String, on state: RegisterStrongAuthVerificationRequiredState)
        async throws(RegisterStrongAuthSubmitChallengeError) -> MSALNativeAuthUserAccountResult
    {
        var machine = StrongAuthMachine(scopes: state.context.scopes, claims: state.context.claims)
        let first = machine.submitRegistrationChallenge(code, on: state.continuation)
        return try await run(first, &machine).get(RegisterStrongAuthSubmitChallengeError.init, ending: state.lifecycle).account
    }

    // MARK: Requests

    /// Sends what `first` asks for, and every request after it, feeding each answer to `machine`.
    /// The token call that ends a registration sends no username, and the scopes the sign-in asked
    /// for (MSAL sends only the OIDC defaults there; asking for the app's scopes saves the refresh
    /// an API call would otherwise need).
    private func run(_ first: StrongAuthMachine.Action, _ machine: inout StrongAuthMachine) async
        -> FlowAction<StrongAuthMachine.Outcome, Never>
    {
        await first.run { call in
            switch call {
            case .mfaChallenge(let methodId, let next):
                let (answer, id) = await client.call(
                    .signInChallenge,
                    [
                        ("continuation_token", next.token), ("challenge_type", client.environment.challengeTypes.wireValue),
                        ("id", methodId),
                    ], correlationId: next.correlationId, expecting: ChallengeResponse.self)
                return machine.mfaChallengeAnswered(answer, correlationId: id)
            case .redeem(let grant, let correlationId):
                let (result, id) = await client.redeem(grant, correlationId: correlationId)
                return machine.redeemed(result, correlationId: id)
            case .registerChallenge(let contact, let next):
                logger.info("Registering a strong-auth method (\(contact.channel)) for \(pii: contact.target)")
                let (answer, id) = await client.call(
                    .registerChallenge,
                    [
                        ("continuation_token", next.token), ("challenge_type", contact.challengeType),
                        ("challenge_target", contact.target), ("challenge_channel", contact.channel),
                    ], correlationId: next.correlationId, expecting: RegisterChallengeResponse.self)
                return machine.registerChallengeAnswered(answer, correlationId: id)
            case .continueRegistration(let grant, let next):
                let fields: [(String, String?)] =
                    switch grant {
                    case .preverified: [("grant_type", "continuation_token")]
                    case .oob(let code): [("grant_type", "oob"), ("oob", code)]
                    }
                let (answer, id) = await client.call(
                    .registerContinue, [("continuation_token", next.token)] + fields, correlationId: next.correlationId,
                    expecting: ContinuationTokenResponse.self)
                return machine.registrationContinued(answer, correlationId: id)
            }
        }
    }
}

extension StrongAuthMachine.Outcome {
    /// The code an MFA challenge sent; the MFA machine ends a challenge with nothing else.
    fileprivate var codeSent: CodeSent {
        guard case .codeRequired(let sent) = self else { preconditionFailure("an MFA challenge ends with a code or an error") }
        return sent
    }

    /// The account a step that submits a code signs in; such a step ends with nothing else.
    fileprivate var account: MSALNativeAuthUserAccountResult {
        guard case .completed(let account) = self else { preconditionFailure("a submitted code ends with the account or an error") }
        return account
    }
}

extension MSALNativeAuthBaseState {
    var continuation: Continuation { Continuation(continuationToken, correlationId) }
}
