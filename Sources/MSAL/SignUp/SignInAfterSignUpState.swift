import Foundation

/// A sign-up has completed; this state signs the user in without asking for anything again.
/// Mirrors MSAL's `SignInAfterSignUpState`. It can be used once.
public final class SignInAfterSignUpState: Sendable {
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
    public func signIn(parameters: MSALNativeAuthSignInAfterSignUpParameters = MSALNativeAuthSignInAfterSignUpParameters())
        async throws(SignInAfterSignUpError) -> SignInAfterSignUpResult
    {
        try await signIn(scopes: parameters.scopes, claims: parameters.claimsRequest)
    }

    /// Signs the user in and reports to `delegate` on the main actor.
    public func signIn(parameters: MSALNativeAuthSignInAfterSignUpParameters, delegate: any SignInAfterSignUpDelegate) {
        let (scopes, claims) = (parameters.scopes, parameters.claimsRequest)
        withDelegateOnMainActor(delegate) { [self] delegate in
            do throws(SignInAfterSignUpError) {
                let result = try await signIn(scopes: scopes, claims: claims)
                result.deliver(to: delegate, completed: delegate.onSignInCompleted) {
                    delegate.onSignInAfterSignUpError(error: SignInAfterSignUpError(type: .generalError, $0))
                }
            } catch {
                delegate.onSignInAfterSignUpError(error: error)
            }
        }
    }

    private func signIn(scopes: [String]?, claims: MSALClaimsRequest?) async throws(SignInAfterSignUpError) -> SignInAfterSignUpResult {
        switch await core.signIn(scopes: scopes, claims: claims) {
        case .success(let step): return step
        case .failure(let failure): throw SignInAfterSignUpError(type: failure.type, failure.details)
        }
    }
}
