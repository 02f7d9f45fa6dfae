import Foundation

/// The entries a token response makes in the unified cache schema, as MSAL's other libraries write
/// them: the access token (superseding the account's tokens whose scopes overlap), the refresh token,
/// the id token, the account record and the app metadata.
extension TokenCache {
    func write(
        _ response: TokenResponse, clientInfo: ClientInfo, idToken: IDToken?, scopes: ScopeSet, now: Date,
        into document: inout TokenCacheDocument
    ) {
        let homeAccountId = clientInfo.homeAccountId
        let seconds = Int(now.timeIntervalSince1970)
        if let secret = response.accessToken {
            let target = TokenCacheKey.target(scopes.scopes)
            let newScopes = scopes.resourceScopes
            // Drop tokens of this account whose scopes overlap (they are superseded).
            document[.accessToken] = document[.accessToken].filter { _, entry in
                guard belongsToClient(entry), entry.string("realm", equalsIgnoringCase: realm),
                    entry.string("home_account_id", equalsIgnoringCase: homeAccountId)
                else { return true }
                let old = ScopeSet(target: entry.string("target") ?? "").resourceScopes
                return newScopes.isEmpty ? !old.isEmpty : old.isDisjoint(with: newScopes)
            }
            let expiresIn = response.expiresOn.map { $0 - now.timeIntervalSince1970 } ?? response.expiresIn ?? 600
            let key = TokenCacheKey.accessToken(
                homeAccountId: homeAccountId, environment: environment, clientId: clientId, realm: realm, target: target)
            var entry = document[.accessToken][key] ?? [:]
            entry["credential_type"] = .string("AccessToken")
            entry["secret"] = .string(secret)
            entry["home_account_id"] = .string(homeAccountId)
            entry["environment"] = .string(environment)
            entry["client_id"] = .string(clientId)
            entry["realm"] = .string(realm)
            entry["target"] = .string(target)
            entry["token_type"] = .string(response.tokenType ?? "Bearer")
            entry["cached_at"] = .string(String(seconds))
            entry["expires_on"] = .string(String(seconds + Int(expiresIn)))
            entry["extended_expires_on"] = .string(String(seconds + Int(response.extExpiresIn ?? expiresIn)))
            // The unified schema's name, as MSAL Python and MSAL.NET write it; a response without
            // `refresh_in` leaves none (the look-up derives the due time, `CachedAccessToken.refreshDue`).
            if let refreshIn = response.refreshIn {
                entry["refresh_on"] = .string(String(seconds + Int(refreshIn)))
            } else {
                entry.removeValue(forKey: "refresh_on")
            }
            document[.accessToken][key] = entry
        }
        if let secret = response.refreshToken {
            let key = TokenCacheKey.refreshToken(homeAccountId: homeAccountId, environment: environment, clientId: clientId)
            document[.refreshToken] = document[.refreshToken].filter { existing, entry in
                existing == key || !(belongsToClient(entry) && entry.string("home_account_id", equalsIgnoringCase: homeAccountId))
            }
            var entry = document[.refreshToken][key] ?? [:]
            entry["credential_type"] = .string("RefreshToken")
            entry["secret"] = .string(secret)
            entry["home_account_id"] = .string(homeAccountId)
            entry["environment"] = .string(environment)
            entry["client_id"] = .string(clientId)
            entry["last_modification_time"] = .string(String(seconds))
            document[.refreshToken][key] = entry
        }
        if let idToken {
            let key = TokenCacheKey.idToken(homeAccountId: homeAccountId, environment: environment, clientId: clientId, realm: realm)
            var entry = document[.idToken][key] ?? [:]
            entry["credential_type"] = .string("IdToken")
            entry["secret"] = .string(idToken.raw)
            entry["home_account_id"] = .string(homeAccountId)
            entry["environment"] = .string(environment)
            entry["realm"] = .string(realm)
            entry["client_id"] = .string(clientId)
            entry["last_modification_time"] = .string(String(seconds))
            document[.idToken][key] = entry
        }
        let accountKey = TokenCacheKey.account(homeAccountId: homeAccountId, environment: environment, realm: realm)
        var account = document[.account][accountKey] ?? [:]
        account["home_account_id"] = .string(homeAccountId)
        account["environment"] = .string(environment)
        account["realm"] = .string(realm)
        account["local_account_id"] = .string(idToken?.objectId ?? clientInfo.uid)
        account["username"] = .string(idToken?.username ?? account.string("username") ?? "")
        account["authority_type"] = .string("MSSTS")
        account["client_info"] = .string(response.clientInfo)
        if let name = idToken?.string("name") { account["name"] = .string(name) }
        document[.account][accountKey] = account
        let metadataKey = TokenCacheKey.appMetadata(environment: environment, clientId: clientId)
        var metadata = document[.appMetadata][metadataKey] ?? [:]
        metadata["client_id"] = .string(clientId)
        metadata["environment"] = .string(environment)
        document[.appMetadata][metadataKey] = metadata
    }
}
