import Foundation

/// The sign-up needs the new account's password. Mirrors MSAL's `SignUpPasswordRequiredState`.
public final class SignUpPasswordRequiredState: Sendable {
    package let controller: SignUpController
    package let username: String
    package let continuationToken: String
    package let correlationId: UUID
    package let lifecycle: StateLifecycle

    package init(controller: SignUpController, username: String, continuationToken: String, correlationId: UUID, issuedAt: Date? = nil) {
        lifecycle = StateLifecycle(controller.client, restoredIssuedAt: issuedAt)
        self.controller = controller
        self.username = username
        self.continuationToken = continuationToken
        self.correlationId = correlationId
    }

    /// Submits the password. After `isInvalidPassword` (policy not met) this state accepts another.
    public func submitPassword(password: String) async throws(PasswordRequiredError) -> SignUpPasswordRequiredResult {
        try await controller.submitPassword(password, on: self)
    }

    /// Submits the password and reports to `delegate` on the main actor.
    public func submitPassword(password: String, delegate: any SignUpPasswordRequiredDelegate) {
        withDelegateOnMainActor(delegate) { [self] delegate in
            do throws(PasswordRequiredError) {
                switch try await submitPassword(password: password) {
                case .completed(let next): delegate.onSignUpCompleted(newState: next)
                case .attributesRequired(let attributes, let next):
                    delegate.onSignUpAttributesRequired(attributes: attributes, newState: next)
                }
            } catch {
                delegate.onSignUpPasswordRequiredError(error: error, newState: lifecycle.hasEnded ? nil : self)
            }
        }
    }
}
