import Foundation

/// One account's part of the cache as a request needs it, indexed once: the account's records,
/// its refresh token and its access tokens for one client at one authority. A request finds its
/// account, refresh token and access token in O(1) however many accounts the cache holds
/// (docs/scale-out.md). Immutable: a change makes a new slice, so a token served from one stays
/// valid to serve while the same slice is current.
package final class AccountSlice: Sendable {
    /// The account's records at this environment, when this client holds a refresh or id token for
    /// it (usually one record; one per realm otherwise).
    package let accounts: [CachedAccount]
    /// This client's refresh token for the account.
    package let refreshToken: String?
    /// This client's access tokens for the account at this realm.
    let accessTokens: [CachedAccessToken]
    /// The same tokens by `ScopeSet.key`, the latest expiry kept for each.
    let exact: [String: CachedAccessToken]

    /// A slice with nothing in it: an account the cache does not hold.
    package static let empty = AccountSlice(accounts: [], refreshToken: nil, accessTokens: [])

    init(accounts: [CachedAccount], refreshToken: String?, accessTokens: [CachedAccessToken]) {
        self.accounts = accounts
        self.refreshToken = refreshToken
        self.accessTokens = accessTokens
        var exact: [String: CachedAccessToken] = [:]
        for token in accessTokens {
            let key = token.scopeSet.key
            if let existing = exact[key], existing.expiresOn >= token.expiresOn { continue }
            exact[key] = token
        }
        self.exact = exact
    }

    /// A token whose scopes cover `wanted` (resource scopes, lower-cased), valid at `validAt`: the
    /// one with exactly `key`'s scopes first.
    func accessToken(key: String, wanted: Set<String>, validAt: Date) -> CachedAccessToken? {
        if let token = exact[key], token.expiresOn > validAt { return token }
        return accessTokens.first { token in
            guard token.expiresOn > validAt else { return false }
            return wanted.isEmpty ? token.resourceScopes.isEmpty : wanted.allSatisfy { Scopes.covers(token.resourceScopes, $0) }
        }
    }
}

/// Makes slices from a document for one client at one authority: which entries are the client's
/// (`client_id`, `environment`, and for access tokens `realm`), grouped by account in one pass.
package struct AccountSliceBuilder: Sendable {
    package let clientId: String
    package let environment: String
    package let realm: String

    package init(clientId: String, environment: String, realm: String) {
        (self.clientId, self.environment, self.realm) = (clientId, environment, realm)
    }

    /// The slices of every account `document` holds, by lower-cased home account id; one pass over
    /// the document. `lookup`: the access tokens of a look-up copy, whose secrets stay in the file.
    package func slices(of document: TokenCacheDocument, lookup: LookupAccessTokens? = nil) -> [String: AccountSlice] {
        var parts: [String: Parts] = [:]
        // Tokens share their account's id and their scope list (a cache of 100 accounts × 100 APIs
        // holds 100 of each, not 10,000).
        var interner = CachedAccessToken.Interner()
        if let lookup {
            for token in lookup.tokens {
                guard Self.same(token.clientId, clientId), Self.same(token.environment, environment), Self.same(token.realm, realm),
                    let cached = CachedAccessToken(token, file: lookup.file, interner: &interner)
                else { continue }
                parts[cached.account, default: Parts()].accessTokens.append(cached)
            }
        } else {
            for entry in document[.accessToken].values {
                guard isClients(entry), entry.string("realm", equalsIgnoringCase: realm),
                    let token = CachedAccessToken(entry, interner: &interner)
                else { continue }
                parts[token.account, default: Parts()].accessTokens.append(token)
            }
        }
        for section in [TokenCacheDocument.Section.refreshToken, .idToken] {
            for entry in document[section].values where isClients(entry) {
                guard let id = entry.string("home_account_id")?.lowercased() else { continue }
                parts[id, default: Parts()].credential(entry, section: section)
            }
        }
        for entry in document[.account].values where entry.string("environment", equalsIgnoringCase: environment) {
            guard let id = entry.string("home_account_id") else { continue }
            parts[id.lowercased(), default: Parts()].records.append(entry)
        }
        return parts.mapValues { $0.slice(environment: environment) }
    }

    /// The slice of one account (lower-cased home account id) in `document`, which holds that
    /// account's entries (an entry store's partition): the cost follows the document, which is small.
    package func slice(of account: String, in document: TokenCacheDocument) -> AccountSlice {
        slices(of: document)[account] ?? .empty
    }

    /// Whether `entry` is a credential of this client id at this environment.
    package func isClients(_ entry: TokenCacheEntry) -> Bool {
        entry.string("client_id", equalsIgnoringCase: clientId) && entry.string("environment", equalsIgnoringCase: environment)
    }

    private static func same(_ a: String, _ b: String) -> Bool { a == b || a.lowercased() == b.lowercased() }

    /// One account's entries while a document is read.
    private struct Parts {
        var accessTokens: [CachedAccessToken] = []
        var records: [TokenCacheEntry] = []
        var refreshToken: String?
        var idToken: String?
        /// The latest `last_modification_time` of the client's refresh and id tokens; nil when it has neither.
        var lastUsed: Double?

        mutating func credential(_ entry: TokenCacheEntry, section: TokenCacheDocument.Section) {
            lastUsed = max(lastUsed ?? 0, entry.epochSeconds("last_modification_time") ?? 0)
            if section == .refreshToken {
                refreshToken = refreshToken ?? entry.string("secret")
            } else {
                idToken = idToken ?? entry.string("secret")
            }
        }

        func slice(environment: String) -> AccountSlice {
            // An account is listed only while this client holds a refresh or an id token for it.
            let decoded = DecodedIDToken(idToken)
            let accounts: [CachedAccount] =
                lastUsed == nil
                ? []
                : records.compactMap { record in
                    guard let id = record.string("home_account_id") else { return nil }
                    return CachedAccount(
                        homeAccountId: id, environment: environment, username: record.string("username"), idToken: idToken,
                        lastUsed: lastUsed ?? 0, decoded: decoded)
                }
            return AccountSlice(accounts: accounts, refreshToken: refreshToken, accessTokens: accessTokens)
        }
    }
}
