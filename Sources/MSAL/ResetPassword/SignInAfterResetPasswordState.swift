import Foundation

/// A password reset has completed; this state signs the user in without asking for anything again.
/// Mirrors MSAL's `SignInAfterResetPasswordState`. It can be used once.
public final class SignInAfterResetPasswordState: Sendable {
    package let core: SignInAfterPreviousFlow

    package init(
        controller: SignInController, username: String, continuationToken: String?, correlationId: UUID, issuedAt: Date? = nil
    ) {
        core = SignInAfterPreviousFlow(
            controller: controller, username: username, continuationToken: continuationToken, correlationId: correlationId,
            issuedAt: issuedAt ?? controller.client.environment.clock.now())
    }

    package var correlationId: UUID { core.correlationId }

    /// Signs the user in.
    public func signIn(parameters: MSALNativeAuthSignInAfterResetPasswordParameters = MSALNativeAuthSignInAfterResetPasswordParameters())
        async throws(SignInAfterResetPasswordError) -> SignInAfterResetPasswordResult
    {
        try await signIn(scopes: parameters.scopes, claims: parameters.claimsRequest)
    }

    /// Signs the user in and reports to `delegate` on the main actor.
    public func signIn(parameters: MSALNativeAuthSignInAfterResetPasswordParameters, delegate: any SignInAfterResetPasswordDelegate) {
        let (scopes, claims) = (parameters.scopes, parameters.claimsRequest)
        withDelegateOnMainActor(delegate) { [self] delegate in
            do throws(SignInAfterResetPasswordError) {
                let result = try await signIn(scopes: scopes, claims: claims)
                result.deliver(to: delegate, completed: delegate.onSignInCompleted) {
                    delegate.onSignInAfterResetPasswordError(error: SignInAfterResetPasswordError(type: .generalError, $0))
                }
            } catch {
                delegate.onSignInAfterResetPasswordError(error: error)
            }
        }
    }

    private func signIn(scopes: [String]?, claims: MSALClaimsRequest?) async throws(SignInAfterResetPasswordError)
        -> SignInAfterResetPasswordResult
    {
        switch await core.signIn(scopes: scopes, claims: claims) {
        case .success(let step): return step
        case .failure(let failure): throw SignInAfterResetPasswordError(type: failure.type, failure.details)
        }
    }
}
