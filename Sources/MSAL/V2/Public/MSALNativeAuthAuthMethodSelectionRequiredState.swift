import Foundation

/// The user must choose a method: several first factors, a second factor (always), several recovery
/// methods, or an existing account found by a sign-up.
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthAuthMethodSelectionRequiredState: MSALNativeAuthState, @unchecked Sendable {
    /// Why the user is choosing.
    public enum Purpose: Sendable {
        /// Several first factors (password, email code).
        case firstFactor
        /// A second factor; always a choice, even of one.
        case mfa
        /// A password reset's recovery methods.
        case recovery
        /// A sign-up found an existing account.
        case existingAccount
    }

    /// The methods the user may choose from, in the service's order.
    public var authMethods: [MSALAuthMethod] { selection.authMethods }
    /// Why the user is choosing.
    public let purpose: Purpose
    let selection: V2Selection

    init(_ core: V2StateCore, _ selection: V2Selection) {
        self.selection = selection
        switch selection.purpose {
        case .mfa, .registration: purpose = .mfa
        case .recovery: purpose = .recovery
        case .existingAccount: purpose = .existingAccount
        case .firstFactor: purpose = .firstFactor
        }
        super.init(core)
    }

    /// A short description of the state, without personal data.
    public override var description: String { "authMethodSelectionRequired (\(purpose), \(authMethods.count) methods)" }

    /// Chooses `method` (one of `authMethods`); `verificationContact` is not used outside registration.
    public func selectAuthMethod(_ method: MSALAuthMethod, verificationContact: String? = nil) async throws(MSALNativeAuthFlowError)
        -> MSALNativeAuthFlowResult
    {
        try await selection.select(method, contact: verificationContact, on: core)
    }

    /// Chooses `method` and reports to `delegate`.
    public func selectAuthMethod(_ method: MSALAuthMethod, verificationContact: String?, delegate: any MSALNativeAuthFlowDelegate) {
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in
            try await self.selectAuthMethod(method, verificationContact: verificationContact)
        }
    }

    /// Chooses `method` and reports to `delegate`.
    public func selectAuthMethod(_ method: MSALAuthMethod, delegate: any MSALNativeAuthFlowDelegate) {
        selectAuthMethod(method, verificationContact: nil, delegate: delegate)
    }
}
