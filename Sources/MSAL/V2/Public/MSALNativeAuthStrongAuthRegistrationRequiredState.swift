import Foundation

/// The user must register a strong-auth method (just-in-time registration): choose one of
/// `authMethods` and give the contact (an email address or phone number) codes should go to.
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthStrongAuthRegistrationRequiredState: MSALNativeAuthState, @unchecked Sendable {
    /// The kinds of method the user may register.
    public var authMethods: [MSALAuthMethod] { selection.authMethods }
    let selection: V2Selection

    init(_ core: V2StateCore, _ selection: V2Selection) {
        self.selection = selection
        super.init(core)
    }

    /// A short description of the state, without personal data.
    public override var description: String { "strongAuthRegistrationRequired (\(authMethods.count) methods)" }

    /// Registers `method` with `verificationContact`; the contact may be nil (or left out, the twin of
    /// `selectAuthMethod(_:delegate:)`) only when the method already has a destination (else `isInvalidInput`).
    public func selectAuthMethod(_ method: MSALAuthMethod, verificationContact: String? = nil) async throws(MSALNativeAuthFlowError)
        -> MSALNativeAuthFlowResult
    {
        try await selection.select(method, contact: verificationContact, on: core)
    }

    /// Registers `method` with `verificationContact` and reports to `delegate`.
    public func selectAuthMethod(_ method: MSALAuthMethod, verificationContact: String?, delegate: any MSALNativeAuthFlowDelegate) {
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in
            try await self.selectAuthMethod(method, verificationContact: verificationContact)
        }
    }

    /// Registers `method` without a contact (for a method that already has a destination) and
    /// reports to `delegate`.
    public func selectAuthMethod(_ method: MSALAuthMethod, delegate: any MSALNativeAuthFlowDelegate) {
        selectAuthMethod(method, verificationContact: nil, delegate: delegate)
    }
}
