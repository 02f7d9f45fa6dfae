import Foundation

/// An access token as read from the cache.
package struct CachedAccessToken: Sendable {
    package var homeAccountId: String
    /// `homeAccountId` lower-cased.
    let account: String
    /// The token's scopes, shared by every token with the same `target`.
    let scopeSet: ScopeSet
    package var scopes: [String] { scopeSet.scopes }
    /// Lower-cased scopes without the OIDC ones.
    package var resourceScopes: Set<String> { scopeSet.resourceScopes }
    /// Where the secret is: decoded when the token is served, so that a large cache holds each
    /// secret at most once (in the document's text), or not at all (left in the file).
    private let secretSource: SecretSource
    private var decodedSecret: String?
    package var secret: String { decodedSecret ?? readSecret() ?? "" }

    private enum SecretSource: Sendable {
        case entry(TokenCacheEntry)
        case file(SecretFile, SecretFile.Location)
    }

    private func readSecret() -> String? {
        switch secretSource {
        case .entry(let entry): return entry.string("secret")
        case .file(let file, let location): return file.read(location)
        }
    }

    /// Decodes the secret now, for a token that is kept to be served again; false when it cannot
    /// be read (a secret left in a file that changed since).
    mutating func decodeSecret() -> Bool {
        decodedSecret = decodedSecret ?? readSecret()
        return decodedSecret != nil
    }
    package var expiresOn: Date
    /// When the token was issued (`cached_at`), if the entry says.
    package var cachedAt: Date?
    /// The service's advice (`refresh_on`, from `refresh_in`): refresh from then on, in the background.
    package var refreshOn: Date?

    /// Hands out one copy of each account id and scope set while an index is built.
    struct Interner {
        private var accounts: [String: (id: String, lowercased: String)] = [:]
        private var scopeSets: [String: ScopeSet] = [:]

        mutating func account(_ id: String) -> (id: String, lowercased: String) {
            if let known = accounts[id] { return known }
            let made = (id, id.lowercased())
            accounts[id] = made
            return made
        }

        mutating func scopeSet(_ target: String) -> ScopeSet {
            if let known = scopeSets[target] { return known }
            let made = ScopeSet(target: target)
            scopeSets[target] = made
            return made
        }
    }

    init?(_ entry: TokenCacheEntry, interner: inout Interner) {
        guard let homeAccountId = entry.string("home_account_id"), entry.hasString("secret"),
            let expiresOn = entry.epochSeconds("expires_on")
        else { return nil }
        (self.homeAccountId, account) = interner.account(homeAccountId)
        secretSource = .entry(entry)
        scopeSet = interner.scopeSet(entry.string("target") ?? "")
        self.expiresOn = Date(timeIntervalSince1970: expiresOn)
        cachedAt = entry.epochSeconds("cached_at").map { Date(timeIntervalSince1970: $0) }
        refreshOn = entry.epochSeconds("refresh_on").map { Date(timeIntervalSince1970: $0) }
    }

    /// A token of a look-up copy, its secret left in the file.
    init?(_ token: LookupAccessToken, file: SecretFile, interner: inout Interner) {
        guard let expiresOn = token.expiresOn else { return nil }
        (homeAccountId, account) = interner.account(token.homeAccountId)
        secretSource = .file(file, token.secret)
        scopeSet = interner.scopeSet(token.target)
        self.expiresOn = Date(timeIntervalSince1970: expiresOn)
        cachedAt = token.cachedAt.map { Date(timeIntervalSince1970: $0) }
        refreshOn = token.refreshOn.map { Date(timeIntervalSince1970: $0) }
    }

    /// Spare time before the expiry buffer that the rule without `refresh_in` keeps at least.
    package static let proactiveMargin: TimeInterval = 300

    /// When the token is due for a background refresh: the service's `refresh_on` when it sent
    /// `refresh_in`; otherwise the later of its half-life (`cached_at` + half its lifetime) and
    /// `expiresOn − expiryBuffer − 300 s`. A long token is thus refreshed in the 5 minutes before
    /// the expiry buffer (one refresh per lifetime, as before), a short one from mid-life on.
    package func refreshDue(expiryBuffer: TimeInterval) -> Date {
        if let refreshOn { return refreshOn }
        let late = expiresOn.addingTimeInterval(-expiryBuffer - Self.proactiveMargin)
        guard let cachedAt, cachedAt < expiresOn else { return late }
        return max(late, cachedAt.addingTimeInterval(expiresOn.timeIntervalSince(cachedAt) / 2))
    }
}

/// An account as read from the cache.
package struct CachedAccount: Sendable {
    package var homeAccountId: String
    package var environment: String
    package var username: String?
    package let idToken: String?
    package var lastUsed: Double
    /// `idToken` decoded once for the slice that holds the account, when the slice made one.
    var decoded: DecodedIDToken? = nil

    /// The id token's claims: decoded at the first request of the slice, kept for the next ones.
    func decodedIdToken() -> IDToken? {
        decoded?.value ?? idToken.flatMap { try? IDToken(raw: $0) }
    }

    /// The `MSALAccount` that `make` makes of this record: made at the first request of the slice
    /// and handed out again to the next ones (an `MSALAccount` is immutable).
    func account(_ make: (CachedAccount) -> MSALAccount) -> MSALAccount {
        decoded?.account(for: self, make) ?? make(self)
    }
}

/// An id token decoded when first needed, then kept (a request for a user decodes its id token once
/// per change of the user's cache entries, not once per request).
final class DecodedIDToken: Sendable {
    let raw: String?
    private let state = Locked(State())

    private struct State {
        var decoded: IDToken??
        /// The account made of a record with this id token, and the record's fields it was made of.
        var account: (key: AccountKey, account: MSALAccount)?
    }

    /// What an account made of a record depends on besides the id token.
    private struct AccountKey: Equatable {
        var homeAccountId: String
        var environment: String
        var username: String?
    }

    init(_ raw: String?) { self.raw = raw }

    var value: IDToken? {
        state.withLock { state in
            if let done = state.decoded { return done }
            let token = raw.flatMap { try? IDToken(raw: $0) }
            state.decoded = .some(token)
            return token
        }
    }

    /// `make(record)`, made once for the records of the same fields (`CachedAccount.account`).
    func account(for record: CachedAccount, _ make: (CachedAccount) -> MSALAccount) -> MSALAccount {
        let key = AccountKey(homeAccountId: record.homeAccountId, environment: record.environment, username: record.username)
        if let made = state.withLock({ $0.account }), made.key == key { return made.account }
        let account = make(record)
        state.withLock { $0.account = (key, account) }
        return account
    }
}
