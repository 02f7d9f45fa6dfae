import Foundation

/// A password reset has completed; this state signs the user in without typing the new password.
/// Mirrors MSAL's `SignInAfterResetPasswordState`. It can be used once.
public final class SignInAfterResetPasswordState: Sendable {
    package let controller: SignInController
    package let username: String
    package let continuationToken: String?
    package let correlationId: UUID
    package let lifecycle = StateLifecycle()

    package init(controller: SignInController, username: String, continuationToken: String?, correlationId: UUID) {
        self.controller = controller
        self.username = username
        self.continuationToken = continuationToken
        self.correlationId = correlationId
    }

    /// Signs the user in.
    public func signIn(parameters: MSALNativeAuthSignInAfterResetPasswordParameters = MSALNativeAuthSignInAfterResetPasswordParameters())
        async throws(SignInAfterResetPasswordError) -> SignInAfterResetPasswordResult
    {
        let result = await controller.signInAfterPreviousFlow(
            username: username, continuationToken: continuationToken, parameters: parameters.scopes,
            claims: parameters.claimsRequest?.jsonString(), correlationId: correlationId, lifecycle: lifecycle)
        switch result {
        case .success(let account): return .completed(account)
        case .failure(let failure): throw SignInAfterResetPasswordError(type: failure.type, failure.details)
        }
    }

    /// Signs the user in and reports to `delegate` on the main actor.
    public func signIn(parameters: MSALNativeAuthSignInAfterResetPasswordParameters, delegate: any SignInAfterResetPasswordDelegate) {
        let scopes = parameters.scopes
        let claims = parameters.claimsRequest
        Task {
            let copy = MSALNativeAuthSignInAfterResetPasswordParameters()
            copy.scopes = scopes
            copy.claimsRequest = claims
            do throws(SignInAfterResetPasswordError) {
                switch try await signIn(parameters: copy) {
                case .completed(let result): await delegate.onSignInCompleted(result: result)
                }
            } catch {
                await delegate.onSignInAfterResetPasswordError(error: error)
            }
        }
    }
}
