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
