import Foundation

/// The password reset is waiting for the new password. Mirrors MSAL's `ResetPasswordRequiredState`.
///
/// Submitting sends the password, then polls the server until the change completes (at once, then
/// at the server's interval, at most six checks). If the server refuses the password late, during
/// polling, this state continues with the token the server handed out at submission, as MSAL's
/// new state would.
public final class ResetPasswordRequiredState: Sendable {
    package let controller: ResetPasswordController
    package let username: String
    package let correlationId: UUID
    package let lifecycle: StateLifecycle
    private let token: Locked<String>

    package init(
        controller: ResetPasswordController, username: String, continuationToken: String, correlationId: UUID, issuedAt: Date? = nil
    ) {
        lifecycle = StateLifecycle(controller.client, restoredIssuedAt: issuedAt)
        self.controller = controller
        self.username = username
        self.correlationId = correlationId
        token = Locked(continuationToken)
    }

    package var continuationToken: String { token.withLock { $0 } }

    package func replaceContinuationToken(with newToken: String) {
        token.withLock { $0 = newToken }
    }

    /// Submits the new password and waits for the change; the state it returns signs the user in
    /// without typing the password again. After `isInvalidPassword` this state accepts another
    /// password.
    public func submitPassword(password: String) async throws(PasswordRequiredError) -> SignInAfterResetPasswordState {
        try await controller.submitPassword(password, on: self)
    }

    /// Submits the new password, waits for the change, and reports to `delegate` on the main actor.
    public func submitPassword(password: String, delegate: any ResetPasswordRequiredDelegate) {
        withDelegateOnMainActor(delegate) { [self] delegate in
            do throws(PasswordRequiredError) {
                delegate.onResetPasswordCompleted(newState: try await submitPassword(password: password))
            } catch {
                delegate.onResetPasswordRequiredError(error: error, newState: lifecycle.hasEnded ? nil : self)
            }
        }
    }
}
