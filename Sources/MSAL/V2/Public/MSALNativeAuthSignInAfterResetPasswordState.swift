import Foundation

/// A password reset finished; the app signs the user in from here with `signIn(parameters:)`.
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthSignInAfterResetPasswordState: MSALNativeAuthState, @unchecked Sendable {
    let link: URL?

    init(_ core: V2StateCore, link: URL?) {
        self.link = link
        super.init(core)
    }

    /// A short description of the state, without personal data.
    public override var description: String { "signInAfterResetPassword" }
}

extension MSALNativeAuthSignInAfterResetPasswordState {
    /// Signs the user in with the new password's flow, asking for `parameters`' scopes and claims.
    public func signIn(parameters: MSALNativeAuthSignInAfterResetPasswordParameters = MSALNativeAuthSignInAfterResetPasswordParameters())
        async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult
    {
        try await core.signInAfter(link, scopes: parameters.scopes, claims: parameters.claimsRequest)
    }

    /// Signs the user in and reports to `delegate`.
    public func signIn(parameters: MSALNativeAuthSignInAfterResetPasswordParameters, delegate: any MSALNativeAuthFlowDelegate) {
        let (scopes, claims) = (parameters.scopes, parameters.claimsRequest)
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in
            try await self.core.signInAfter(self.link, scopes: scopes, claims: claims)
        }
    }
}
