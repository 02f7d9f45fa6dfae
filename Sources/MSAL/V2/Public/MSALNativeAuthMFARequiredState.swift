import Foundation

/// Declared for source compatibility with older MSAL releases; this SDK reports second-factor
/// choices as `MSALNativeAuthAuthMethodSelectionRequiredState` and never produces this state.
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthMFARequiredState: MSALNativeAuthState, @unchecked Sendable {
    /// The methods the user may choose from.
    public var authMethods: [MSALAuthMethod] { selection.authMethods }
    let selection: V2Selection

    init(_ core: V2StateCore, _ selection: V2Selection) {
        self.selection = selection
        super.init(core)
    }

    /// A short description of the state, without personal data.
    public override var description: String { "mfaRequired" }

    /// Chooses `method`.
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
