import Foundation

/// The password reset is waiting for the code sent to the account's address. Mirrors MSAL's
/// `ResetPasswordCodeRequiredState`.
public final class ResetPasswordCodeRequiredState: Sendable {
    package let controller: ResetPasswordController
    package let username: String
    package let continuationToken: String
    package let correlationId: UUID
    package let lifecycle: StateLifecycle

    package init(
        controller: ResetPasswordController, username: String, continuationToken: String, correlationId: UUID, issuedAt: Date? = nil
    ) {
        lifecycle = StateLifecycle(controller.client, restoredIssuedAt: issuedAt)
        self.controller = controller
        self.username = username
        self.continuationToken = continuationToken
        self.correlationId = correlationId
    }

    /// Submits the code; the state it returns takes the new password. After `isInvalidCode` this
    /// state accepts another code.
    public func submitCode(code: String) async throws(VerifyCodeError) -> ResetPasswordRequiredState {
        try await controller.submitCode(code, on: self)
    }

    /// Sends a new code. As in MSAL, a failure the server answered ends the flow.
    public func resendCode() async throws(ResendCodeError) -> CodeRequiredResult<ResetPasswordCodeRequiredState> {
        try await controller.resendCode(on: self)
    }

    /// Submits the code and reports to `delegate` on the main actor.
    public func submitCode(code: String, delegate: any ResetPasswordVerifyCodeDelegate) {
        withDelegateOnMainActor(delegate) { [self] delegate in
            do throws(VerifyCodeError) {
                delegate.onPasswordRequired(newState: try await submitCode(code: code))
            } catch {
                delegate.onResetPasswordVerifyCodeError(error: error, newState: lifecycle.hasEnded ? nil : self)
            }
        }
    }

    /// Asks for a new code and reports to `delegate` on the main actor. As with `resendCode()`, a
    /// failure the server answered ends the flow: the error callback then gets no state.
    public func resendCode(delegate: any ResetPasswordResendCodeDelegate) {
        withDelegateOnMainActor(delegate) { [self] delegate in
            do throws(ResendCodeError) {
                let sent = try await resendCode()
                delegate.onResetPasswordResendCodeRequired(
                    newState: sent.newState, sentTo: sent.sentTo, channelTargetType: sent.channelTargetType, codeLength: sent.codeLength)
            } catch {
                delegate.onResetPasswordResendCodeError(error: error, newState: lifecycle.hasEnded ? nil : self)
            }
        }
    }
}
