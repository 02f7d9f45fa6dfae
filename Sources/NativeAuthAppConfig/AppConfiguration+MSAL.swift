import Foundation
import MSAL

extension AppConfiguration {
    /// The SDK configuration this file describes: client id, authority, challenge types and
    /// capabilities. The token cache and the logger are the caller's to set. Throws `Problem` for an
    /// authority that is not a URL, and the SDK's `MSALErrorDomain` error for one it cannot use.
    public func nativeAuthConfiguration() throws -> MSALNativeAuthPublicClientApplicationConfig {
        var types: MSALNativeAuthChallengeTypes = []
        if challengeTypes.contains("oob") { types.insert(.OOB) }
        if challengeTypes.contains("password") { types.insert(.password) }
        let config: MSALNativeAuthPublicClientApplicationConfig
        if let tenantSubdomain {
            config = try MSALNativeAuthPublicClientApplicationConfig(
                clientId: clientId, tenantSubdomain: tenantSubdomain, challengeTypes: types)
        } else {
            guard let raw = authority, let url = URL(string: raw) else { throw Problem("field 'authority' is not a URL") }
            config = MSALNativeAuthPublicClientApplicationConfig(
                clientId: clientId, authority: try MSALCIAMAuthority(url: url), challengeTypes: types)
        }
        config.capabilities = []
        if capabilities.contains("mfa_required") { config.capabilities.insert(.mfaRequired) }
        if capabilities.contains("registration_required") { config.capabilities.insert(.registrationRequired) }
        return config
    }
}
