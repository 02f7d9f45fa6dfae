import Foundation

/// The service asks for the user's password.
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthPasswordRequiredState: MSALNativeAuthState, @unchecked Sendable {
    let verification: V2Verification
    /// Sign-up: the password is the `password` attribute, sent to this form.
    let attributeForm: V2AttributeForm?

    init(_ core: V2StateCore, _ verification: V2Verification, attributeForm: V2AttributeForm? = nil) {
        self.verification = verification
        self.attributeForm = attributeForm
        super.init(core)
    }

    /// A short description of the state, without personal data.
    public override var description: String { "passwordRequired" }

    /// Submits the password.
    public func submitPassword(_ password: String) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        if let attributeForm {
            return try await core.step { $0.submitSignUpPassword(password, form: attributeForm, on: core.continuation) }
        }
        return try await core.step { $0.submitPassword(password, verification: verification, on: core.continuation) }
    }

    /// Submits the password and reports to `delegate`.
    public func submitPassword(_ password: String, delegate: any MSALNativeAuthFlowDelegate) {
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in try await self.submitPassword(password) }
    }
}

extension MSALNativeAuthPasswordRequiredState {
    /// A sign-up's password state: the password goes to `form` as the `password` attribute.
    convenience init(_ core: V2StateCore, signUp form: V2AttributeForm) {
        let verification = V2Verification(
            methodId: nil, type: "password", hint: nil, codeLength: nil, submit: form.submit, resend: nil, recover: nil)
        self.init(core, verification, attributeForm: form)
    }

    /// Whether the service offered to reset the password from here (inline recovery; not in MSAL).
    public var canRecoverPassword: Bool { attributeForm == nil && verification.recover != nil }

    /// Starts a password reset inside this sign-in (not in MSAL): the recovery methods, a code, the new
    /// password; the sign-in then completes. Without `canRecoverPassword`, a general error.
    public func recoverPassword() async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        guard canRecoverPassword, let link = verification.recover else {
            let message = "The service offered no password recovery from this state"
            throw MSALNativeAuthFlowError(type: .generalError, NativeAuthErrorDetails(message: message, correlationId: correlationId))
        }
        return try await core.step { $0.recover(link, on: core.continuation) }
    }

    /// Starts a password reset inside this sign-in and reports to `delegate`.
    public func recoverPassword(delegate: any MSALNativeAuthFlowDelegate) {
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in try await self.recoverPassword() }
    }
}
