import Foundation

/// The sign-up is waiting for the code sent to verify the email address. Mirrors MSAL's
/// `SignUpCodeRequiredState`.
public final class SignUpCodeRequiredState: Sendable {
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

    /// Submits the code. After `isInvalidCode` this state accepts another code.
    public func submitCode(code: String) async throws(VerifyCodeError) -> SignUpVerifyCodeResult {
        try await controller.submitCode(code, on: self)
    }

    /// Sends a new code; the previous one stops working.
    public func resendCode() async throws(ResendCodeError) -> CodeRequiredResult<SignUpCodeRequiredState> {
        try await controller.resendCode(on: self)
    }

    /// Submits the code and reports to `delegate` on the main actor.
    public func submitCode(code: String, delegate: any SignUpVerifyCodeDelegate) {
        withDelegateOnMainActor(delegate) { [self] delegate in
            do throws(VerifyCodeError) {
                switch try await submitCode(code: code) {
                case .completed(let next): delegate.onSignUpCompleted(newState: next)
                case .passwordRequired(let next): delegate.onSignUpPasswordRequired(newState: next)
                case .attributesRequired(let attributes, let next):
                    delegate.onSignUpAttributesRequired(attributes: attributes, newState: next)
                }
            } catch {
                delegate.onSignUpVerifyCodeError(error: error, newState: lifecycle.hasEnded ? nil : self)
            }
        }
    }

    /// Asks for a new code and reports to `delegate` on the main actor.
    public func resendCode(delegate: any SignUpResendCodeDelegate) {
        withDelegateOnMainActor(delegate) { [self] delegate in
            do throws(ResendCodeError) {
                let sent = try await resendCode()
                delegate.onSignUpResendCodeCodeRequired(
                    newState: sent.newState, sentTo: sent.sentTo, channelTargetType: sent.channelTargetType, codeLength: sent.codeLength)
            } catch {
                delegate.onSignUpResendCodeError(error: error, newState: lifecycle.hasEnded ? nil : self)
            }
        }
    }
}
