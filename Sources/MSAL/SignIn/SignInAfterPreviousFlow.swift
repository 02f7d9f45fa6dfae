import Foundation

/// What `SignInAfterSignUpState` and `SignInAfterResetPasswordState` share: the token that ends
/// the previous flow, and the one sign-in it allows (docs/protocol.md#sign-in-after-sign-up-or-reset).
package struct SignInAfterPreviousFlow: Sendable {
    package let controller: SignInController
    package let username: String
    package let continuationToken: String?
    package let correlationId: UUID
    /// When the token was issued (docs/saved-states.md#expiry).
    package let issuedAt: Date

    package init(controller: SignInController, username: String, continuationToken: String?, correlationId: UUID, issuedAt: Date) {
        self.controller = controller
        self.username = username
        self.continuationToken = continuationToken
        self.correlationId = correlationId
        self.issuedAt = issuedAt
    }

    package func signIn(scopes: [String]?, claims: MSALClaimsRequest?) async -> Result<SignInStepResult, GenericFailure> {
        await controller.signInAfterPreviousFlow(
            username: username, continuationToken: continuationToken, parameters: scopes,
            claims: claims?.jsonString(), correlationId: correlationId)
    }
}

extension SignInController {
    /// Signs in with the continuation token that ends a sign-up or a password reset (docs/protocol.md#sign-in-after-sign-up-or-reset).
    package func signInAfterPreviousFlow(
        username: String, continuationToken: String?, parameters scopes: [String]?, claims: String?, correlationId: UUID
    ) async -> Result<SignInStepResult, GenericFailure> {
        var machine: SignInMachine
        let grant: TokenGrant
        switch SignInMachine.afterPreviousFlow(
            username: username, continuationToken: continuationToken, scopes: scopes, claims: claims, correlationId: correlationId,
            controller: self)
        {
        case .success(let started): (machine, grant) = started
        case .failure(let failure): return .failure(GenericFailure(failure))
        }
        // The token is single-use; a second call sends it again and the service answers, as in MSAL.
        return await finish(&machine, redeeming: grant, correlationId: correlationId).mapError(GenericFailure.init)
    }
}

/// A browser-required-or-general failure before it becomes one of the generic public errors.
package struct GenericFailure: Error, Sendable {
    package var type: MSALNativeAuthGenericError.ErrorType
    package var details: NativeAuthErrorDetails
}

extension GenericFailure {
    /// The generic error for `failure`: browser-required or general, as the machine decided.
    package init(_ failure: FlowFailure) {
        self.init(type: failure.kind, details: failure.details)
    }
}
