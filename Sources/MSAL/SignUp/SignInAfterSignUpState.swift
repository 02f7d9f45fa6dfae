import Foundation

/// A sign-up has completed; this state signs the new user in without asking for anything again.
/// Mirrors MSAL's `SignInAfterSignUpState`. It can be used once.
public final class SignInAfterSignUpState: Sendable {
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

    /// Signs the new user in.
    public func signIn(parameters: MSALNativeAuthSignInAfterSignUpParameters = MSALNativeAuthSignInAfterSignUpParameters())
        async throws(SignInAfterSignUpError) -> SignInAfterSignUpResult
    {
        let result = await controller.signInAfterPreviousFlow(
            username: username, continuationToken: continuationToken, parameters: parameters.scopes,
            claims: parameters.claimsRequest?.jsonString(), correlationId: correlationId, lifecycle: lifecycle)
        switch result {
        case .success(let account): return .completed(account)
        case .failure(let failure): throw SignInAfterSignUpError(type: failure.type, failure.details)
        }
    }

    /// Signs the new user in and reports to `delegate` on the main actor.
    public func signIn(parameters: MSALNativeAuthSignInAfterSignUpParameters, delegate: any SignInAfterSignUpDelegate) {
        let scopes = parameters.scopes
        let claims = parameters.claimsRequest
        Task {
            let copy = MSALNativeAuthSignInAfterSignUpParameters()
            copy.scopes = scopes
            copy.claimsRequest = claims
            do throws(SignInAfterSignUpError) {
                switch try await signIn(parameters: copy) {
                case .completed(let result): await delegate.onSignInCompleted(result: result)
                }
            } catch {
                await delegate.onSignInAfterSignUpError(error: error)
            }
        }
    }
}
