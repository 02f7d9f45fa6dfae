import Foundation

/// The sign-in is waiting for the one-time code the server sent. Mirrors MSAL's `SignInCodeRequiredState`.
///
/// ```swift
/// // given: state: SignInCodeRequiredState
/// do {
///     if case .completed(let result) = try await state.submitCode(code: "12345678") {
///         print("Signed in as", result.account.username ?? "")
///     }
/// } catch where error.isInvalidCode {
///     // ask again; `state` still accepts a code
/// }
/// ```
public final class SignInCodeRequiredState: Sendable {
    package let controller: SignInController
    package let continuationToken: String
    package let correlationId: UUID
    package let scopes: [String]
    package let claims: String?
    package let lifecycle: StateLifecycle

    package init(
        controller: SignInController, continuationToken: String, correlationId: UUID, scopes: [String], claims: String?,
        issuedAt: Date? = nil
    ) {
        lifecycle = StateLifecycle(controller.client, restoredIssuedAt: issuedAt)
        self.controller = controller
        self.continuationToken = continuationToken
        self.correlationId = correlationId
        self.scopes = scopes
        self.claims = claims
    }

    /// Submits the code. On a thrown error this state stays usable unless the error says the flow ended.
    public func submitCode(code: String) async throws(VerifyCodeError) -> SignInVerifyCodeResult {
        try await controller.submitCode(code, on: self)
    }

    /// Asks the server to send a new code; the previous one stops working.
    public func resendCode() async throws(ResendCodeError) -> CodeRequiredResult<SignInCodeRequiredState> {
        try await controller.resendCode(on: self)
    }

    /// Submits the code and reports to `delegate` on the main actor.
    public func submitCode(code: String, delegate: any SignInVerifyCodeDelegate) {
        withDelegateOnMainActor(delegate) { [self] delegate in
            do throws(VerifyCodeError) {
                let result = try await submitCode(code: code)
                result.deliver(to: delegate, completed: delegate.onSignInCompleted) {
                    delegate.onSignInVerifyCodeError(error: VerifyCodeError(type: .generalError, $0), newState: nil)
                }
            } catch {
                delegate.onSignInVerifyCodeError(error: error, newState: retryState)
            }
        }
    }

    /// Asks for a new code and reports to `delegate` on the main actor.
    public func resendCode(delegate: any SignInResendCodeDelegate) {
        withDelegateOnMainActor(delegate) { [self] delegate in
            do throws(ResendCodeError) {
                let sent = try await resendCode()
                delegate.onSignInResendCodeCodeRequired(
                    newState: sent.newState, sentTo: sent.sentTo, channelTargetType: sent.channelTargetType, codeLength: sent.codeLength)
            } catch {
                delegate.onSignInResendCodeError(error: error, newState: retryState)
            }
        }
    }

    /// This state, when it can still be used after a failure.
    private var retryState: SignInCodeRequiredState? { lifecycle.hasEnded ? nil : self }
}
