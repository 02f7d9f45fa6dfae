import Foundation
import MSAL

/// An access token for a signed-in account.
extension Operations {
    static func accessToken(_ handle: OpaquePointer?, _ scopes: UnsafePointer<CChar>?, _ forceRefresh: Int32) throws(InterfaceError) -> Work
    {
        let account = try Self.account(handle).result
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = try Self.scopes(scopes)
        parameters.forceRefresh = forceRefresh != 0
        return accessToken(account, parameters)
    }

    /// The token itself, for `msal_na_account_get_access_token` and `_ex`.
    static func accessToken(_ account: MSALNativeAuthUserAccountResult, _ parameters: MSALNativeAuthGetAccessTokenParameters) -> Work {
        let request = UncheckedParameters(value: parameters)
        return {
            do throws(RetrieveAccessTokenError) {
                let token = try await account.getAccessToken(parameters: request.value)
                return Outcome(
                    kind: .accessToken, correlationId: token.correlationId.uuidString.lowercased(), accessToken: token.accessToken,
                    expiresOn: token.expiresOn, scopes: token.scopes, refreshToken: token.refreshToken)
            } catch {
                return Outcome(error)
            }
        }
    }
}
