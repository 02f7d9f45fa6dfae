import Foundation

/// The sign-in is waiting for the user's password. Mirrors MSAL's `SignInPasswordRequiredState`.
public final class SignInPasswordRequiredState: Sendable {
    package let controller: SignInController
    package let continuationToken: String
    package let correlationId: UUID
    package let username: String
    package let scopes: [String]
    package let claims: String?
    package let lifecycle: StateLifecycle

    package init(
        controller: SignInController, continuationToken: String, correlationId: UUID, username: String, scopes: [String], claims: String?,
        issuedAt: Date? = nil
    ) {
        lifecycle = StateLifecycle(controller.client, restoredIssuedAt: issuedAt)
        self.controller = controller
        self.continuationToken = continuationToken
        self.correlationId = correlationId
        self.username = username
        self.scopes = scopes
        self.claims = claims
    }

    /// Submits the password. On a thrown error this state stays usable (a wrong password may be retried).
    public func submitPassword(password: String) async throws(PasswordRequiredError) -> SignInPasswordRequiredResult {
        try await controller.submitPassword(password, on: self)
    }

    /// Submits the password and reports to `delegate` on the main actor.
    public func submitPassword(password: String, delegate: any SignInPasswordRequiredDelegate) {
        withDelegateOnMainActor(delegate) { [self] delegate in
            do throws(PasswordRequiredError) {
                let result = try await submitPassword(password: password)
                result.deliver(to: delegate, completed: delegate.onSignInCompleted) {
                    delegate.onSignInPasswordRequiredError(error: PasswordRequiredError(type: .generalError, $0), newState: nil)
                }
            } catch {
                delegate.onSignInPasswordRequiredError(error: error, newState: lifecycle.hasEnded ? nil : self)
            }
        }
    }
}
