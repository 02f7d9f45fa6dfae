import Foundation

/// Runs the steps after a first factor: the second factor (docs/protocol.md#multifactor-authentication)
/// and the registration of a strong-auth method (docs/protocol.md#strong-auth-registration). Each
/// step sends the requests its `StrongAuthMachine` asks for and does what the machine decides
/// (StrongAuthMachine.swift has the rules). Every step that can lead here goes through
/// `SignInController.finish`, so MFA and registration work the same after a password, a code, a
/// sign-up or a password reset.
extension SignInController {
    // MARK: MFA (docs/error-mapping.md#mfa-states)

    package func requestMFAChallenge(_ authMethod: MSALAuthMethod, on state: MFABaseState) async throws(MFARequestChallengeError)
        -> MFARequestChallengeResult
    {
        var machine = StrongAuthMachine.requestMFAChallenge(on: state)
        let (outcome, correlationId) = await client.call(
            .signInChallenge,
            [
                ("continuation_token", state.continuationToken),
                ("challenge_type", client.environment.challengeTypes.wireValue),
                ("id", authMethod.id),
            ], correlationId: state.correlationId, expecting: ChallengeResponse.self)
        switch machine.mfaChallengeAnswered(outcome, correlationId: correlationId) {
        case .succeed(let result): return result
        case .fail(let failure): throw MFARequestChallengeError(failure.recorded(on: state.lifecycle))
        }
    }

    package func submitMFAChallenge(_ code: String, on state: MFARequiredState) async throws(MFASubmitChallengeError)
        -> MFASubmitChallengeResult
    {
        if let failure = StrongAuthMachine.checkChallenge(code, correlationId: state.correlationId) {
            throw MFASubmitChallengeError(failure)
        }
        var (machine, grant) = StrongAuthMachine.submitMFAChallenge(code, on: state)
        let redeemed = await client.redeem(grant, correlationId: state.correlationId)
        switch machine.mfaRedeemed(redeemed.result, correlationId: redeemed.correlationId) {
        case .succeed(let result): return result
        case .fail(let failure): throw MFASubmitChallengeError(failure.recorded(on: state.lifecycle))
        }
    }

    // MARK: Strong-auth registration (docs/error-mapping.md#registration-states)

    package func challengeAuthMethod(_ parameters: MSALNativeAuthChallengeAuthMethodParameters, on state: RegisterStrongAuthBaseState)
        async throws(RegisterStrongAuthChallengeError) -> RegisterStrongAuthChallengeResult
    {
        let contact: String
        switch StrongAuthMachine.checkContact(parameters.verificationContact, correlationId: state.correlationId) {
        case .success(let trimmed): contact = trimmed
        case .failure(let failure): throw RegisterStrongAuthChallengeError(failure)
        }
        logger.info("Registering a strong-auth method (\(parameters.authMethod.channelTargetType.value)) for \(pii: contact)")
        var machine = StrongAuthMachine.challengeAuthMethod(on: state)
        let (outcome, correlationId) = await client.call(
            .registerChallenge,
            [
                ("continuation_token", state.continuationToken),
                ("challenge_type", parameters.authMethod.challengeType),
                ("challenge_target", contact),
                ("challenge_channel", parameters.authMethod.channelTargetType.value),
            ], correlationId: state.correlationId, expecting: RegisterChallengeResponse.self)
        switch machine.registerChallengeAnswered(outcome, correlationId: correlationId) {
        case .succeed(let result): return result
        case .fail(let failure): throw RegisterStrongAuthChallengeError(failure.recorded(on: state.lifecycle))
        case .call(let call):
            switch await completeRegistration(&machine, call) {
            case .success(let result): return .completed(result)
            case .failure(let failure): throw RegisterStrongAuthChallengeError(failure.recorded(on: state.lifecycle))
            }
        }
    }

    package func submitRegistrationChallenge(_ code: String, on state: RegisterStrongAuthVerificationRequiredState)
        async throws(RegisterStrongAuthSubmitChallengeError) -> RegisterStrongAuthSubmitChallengeResult
    {
        if let failure = StrongAuthMachine.checkChallenge(code, correlationId: state.correlationId) {
            throw RegisterStrongAuthSubmitChallengeError(failure)
        }
        var (machine, first) = StrongAuthMachine.submitRegistrationChallenge(code, on: state)
        switch await completeRegistration(&machine, first) {
        case .success(let result): return .completed(result)
        case .failure(let failure): throw RegisterStrongAuthSubmitChallengeError(failure.recorded(on: state.lifecycle))
        }
    }

    /// `/register/v1.0/continue`, then the continuation-token grant that signs the user in
    /// (docs/protocol.md#strong-auth-registration steps 4-5), as the machine asks. The token call
    /// sends no username, and the scopes the sign-in asked for (MSAL sends only the OIDC defaults
    /// here; asking for the app's scopes saves the refresh an API call would otherwise need).
    private func completeRegistration(_ machine: inout StrongAuthMachine, _ first: StrongAuthMachine.Call) async
        -> Result<MSALNativeAuthUserAccountResult, FlowFailure>
    {
        var next = first
        while true {
            switch next {
            case .continueRegistration(let grant, let token, let correlationId):
                let fields: [(String, String?)] =
                    switch grant {
                    case .preverified: [("grant_type", "continuation_token")]
                    case .oob(let code): [("grant_type", "oob"), ("oob", code)]
                    }
                let (outcome, answeredId) = await client.call(
                    .registerContinue, [("continuation_token", token)] + fields, correlationId: correlationId,
                    expecting: ContinuationTokenResponse.self)
                switch machine.registrationContinued(outcome, correlationId: answeredId) {
                case .succeed(let result): return .success(result)
                case .fail(let failure): return .failure(failure)
                case .call(let call): next = call
                }
            case .redeem(let grant, let correlationId):
                let redeemed = await client.redeem(grant, correlationId: correlationId)
                switch machine.registrationRedeemed(redeemed.result, correlationId: redeemed.correlationId) {
                case .succeed(let result): return .success(result)
                case .fail(let failure): return .failure(failure)
                }
            }
        }
    }
}
