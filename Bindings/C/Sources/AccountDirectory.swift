import Foundation
import MSAL

/// The accounts of an application's token cache as account handles: every one a
/// `MSALNativeAuthUserAccountResult`, as `getNativeAuthUserAccount()` hands out the most recent,
/// so each handle gets tokens natively and signs out alone.
///
/// Listing goes through the public `allAccounts()` (which reports an unusable cache) and makes a
/// result for each account with the SDK's `package` `accountResult(for:)`; one account by its id
/// goes through `nativeAuthUserAccount(forIdentifier:)`, which reads that account alone.
enum AccountDirectory {
    /// Every account, most recently used first.
    static func all(_ application: MSALNativeAuthPublicClientApplication) throws(InterfaceError) -> [MSALNativeAuthUserAccountResult] {
        let listed: [MSALAccount]
        do { listed = try application.allAccounts() } catch { throw cacheProblem(error as NSError) }
        let cached = application.environment.cache.accounts()
        return listed.compactMap { account in
            cached.first { $0.homeAccountId.lowercased() == account.identifier?.lowercased() }.map(application.accountResult(for:))
        }
    }

    /// The account with this home account id (`uid.utid`, case-insensitive), if cached: that
    /// account alone is read.
    static func account(_ application: MSALNativeAuthPublicClientApplication, identifier: String) throws(InterfaceError)
        -> MSALNativeAuthUserAccountResult?
    {
        do {
            return try application.nativeAuthUserAccount(forIdentifier: identifier)
        } catch let error as NSError
            where error.domain == MSALErrorDomain
            && error.userInfo[MSALInternalErrorCodeKey] as? Int == MSALInternalError.internalErrorAccountRequired.rawValue
        {
            return nil
        } catch {
            throw cacheProblem(error as NSError)
        }
    }

    /// A cache that cannot be used, as the C error it is: the keyring's own kinds, else `MSAL_NA_ERR_CACHE`.
    static func cacheProblem(_ error: NSError) -> InterfaceError {
        if error.domain == KeyringError.errorDomain {
            switch KeyringError.Code(rawValue: error.code) {
            case .unavailable: return InterfaceError(.keyringUnavailable, error.localizedDescription)
            case .locked: return InterfaceError(.keyringLocked, error.localizedDescription)
            default: break
            }
        }
        return InterfaceError(.cache, "the token cache cannot be used: \(error.localizedDescription)")
    }
}
