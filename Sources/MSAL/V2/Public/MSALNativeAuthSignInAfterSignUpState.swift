import Foundation

/// A sign-up finished; the app signs the user in from here with `signIn(parameters:)`.
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthSignInAfterSignUpState: MSALNativeAuthState, @unchecked Sendable {
    let link: URL?

    init(_ core: V2StateCore, link: URL?) {
        self.link = link
        super.init(core)
    }

    /// A short description of the state, without personal data.
    public override var description: String { "signInAfterSignUp" }
}

extension MSALNativeAuthSignInAfterSignUpState {
    /// Signs the new user in, asking for `parameters`' scopes and claims.
    public func signIn(parameters: MSALNativeAuthSignInAfterSignUpParameters = MSALNativeAuthSignInAfterSignUpParameters())
        async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult
    {
        try await core.signInAfter(link, scopes: parameters.scopes, claims: parameters.claimsRequest)
    }

    /// Signs the new user in and reports to `delegate`.
    public func signIn(parameters: MSALNativeAuthSignInAfterSignUpParameters, delegate: any MSALNativeAuthFlowDelegate) {
        let (scopes, claims) = (parameters.scopes, parameters.claimsRequest)
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in
            try await self.core.signInAfter(self.link, scopes: scopes, claims: claims)
        }
    }
}
