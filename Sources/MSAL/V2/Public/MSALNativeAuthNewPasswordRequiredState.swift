import Foundation

/// A password reset (or an inline recovery) asks for the new password: `submitNewPassword`.
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthNewPasswordRequiredState: MSALNativeAuthState, @unchecked Sendable {
    let update: V2Verification

    init(_ core: V2StateCore, update: V2Verification) {
        self.update = update
        super.init(core)
    }

    /// A short description of the state, without personal data.
    public override var description: String { "newPasswordRequired" }
}

extension MSALNativeAuthNewPasswordRequiredState {
    /// Submits the new password (sent with PUT; the SDK then polls until the service has applied it).
    public func submitNewPassword(_ password: String) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        try await core.step { $0.submitNewPassword(password, verification: update, on: core.continuation) }
    }

    /// Submits the new password and reports to `delegate`.
    public func submitNewPassword(_ password: String, delegate: any MSALNativeAuthFlowDelegate) {
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in try await self.submitNewPassword(password) }
    }
}
