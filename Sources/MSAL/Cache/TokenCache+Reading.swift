import Foundation

/// The reading half of `TokenCache`: look-ups of one account from its `AccountSlice` (the whole
/// document's slices, or an account-scoped storage's), the lists of accounts, and how a snapshot of
/// the storage is taken in (`install`).
extension TokenCache {
    // MARK: Reading

    /// Bounds `served`: an app asking for ever new scope lists does not grow it without end.
    private static let servedLimit = 4096

    /// Runs `body` on an up-to-date copy of the whole document; `checked`: one the storage asked
    /// its store for now, even when it trusts its own copy for a while (`TokenCacheStorage.loadChecked`).
    private func withCurrent<R>(checked: Bool = false, _ body: (inout State) -> R) -> R {
        state.withLock { state in
            do throws(SetupError) {
                if let snapshot = try storage.load(ifChangedSince: state.stamp) {
                    install(snapshot, into: &state)
                }
            } catch {
                noteUnavailable(error, in: &state)
            }
            if checked { _ = recheck(&state) }
            return body(&state)
        }
    }

    /// Asks a storage that trusts its copy for a while whether its store changed; true when it did.
    private func recheck(_ state: inout State) -> Bool {
        do throws(SetupError) {
            let snapshot = try storage.loadChecked(ifChangedSince: state.stamp)
            if storage.checksStore, state.lastError?.code == .cacheUnavailable { state.lastError = nil }
            guard let snapshot else { return false }
            install(snapshot, into: &state)
            return true
        } catch {
            noteUnavailable(error, in: &state)
            return false
        }
    }

    func noteUnavailable(_ error: SetupError, in state: inout State) {
        if state.lastError?.message != error.message {
            logger.error("Token cache unavailable: \(error.message)")
        }
        state.lastError = error
    }

    /// Takes the whole document and indexes it by account, in one pass.
    func install(_ snapshot: TokenCacheSnapshot, into state: inout State) {
        if let problem = snapshot.problem {
            logger.error("\(problem.message)")
            state.lastError = problem
        }
        // An account-scoped storage keeps its accounts itself: the whole document (after a sign-in
        // that signed the others out) is not kept twice.
        guard scoped == nil else { return }
        state.stamp = snapshot.stamp
        state.document = snapshot.document
        state.served.removeAll()
        state.slices = builder.slices(of: snapshot.document, lookup: snapshot.lookupAccessTokens)
    }

    /// The current slice of `account` (lower-cased home account id); `checked`: asks a store that
    /// trusts its copy for a while, now. An account-scoped storage is asked without this cache's
    /// lock held, so that one account's read never holds up another's look-up.
    func slice(_ account: String, checked: Bool = false) -> AccountSlice {
        guard let scoped else { return withCurrent(checked: checked) { $0.slices[account] ?? .empty } }
        // Read for this request off its caller's thread a moment ago (TokenCache+OffCaller.swift).
        if let read = Self.readForRequest, read.cache == ObjectIdentifier(self), read.account == account { return read.slice }
        do throws(SetupError) {
            let read = try scoped.slice(of: account, checked: checked, builder: builder)
            state.withLock { state in
                if let problem = read.problem {
                    if problem.code == .cacheUnavailable { noteUnavailable(problem, in: &state) } else { state.lastError = problem }
                } else if read.asked, state.lastError?.code == .cacheUnavailable {
                    state.lastError = nil
                }
            }
            return read.slice
        } catch {
            state.withLock { noteUnavailable(error, in: &$0) }
            return .empty
        }
    }

    /// An access token of `homeAccountId` whose scopes cover the resource scopes of `scopes` and
    /// that is still valid at `validAt`. With `requestedScopes` (the app's list as it gave it), the
    /// answer is remembered for `servedAccessToken`.
    package func accessToken(homeAccountId: String, scopes: ScopeSet, validAt: Date, requestedScopes: [String]? = nil) -> CachedAccessToken?
    {
        let wanted = scopes.resourceScopes
        let account = homeAccountId.lowercased()
        var checked = false
        var current = slice(account)
        for _ in 0..<3 {
            guard var served = current.accessToken(key: scopes.key, wanted: wanted, validAt: validAt) else {
                // Nothing here: a storage that trusts its copy for a while asks its store once,
                // so a token another machine wrote is found before anyone refreshes.
                guard !checked else { return nil }
                checked = true
                let again = slice(account, checked: true)
                guard again !== current else { return nil }
                current = again
                continue
            }
            guard served.decodeSecret() else {
                // A secret left in the file could not be read: the file changed in place
                // under this copy. Read it again and look again, once.
                logger.verbose("Token cache changed while a token was read; reading it again")
                current = state.withLock { state in
                    reload(&state)
                    return state.slices[account] ?? .empty
                }
                continue
            }
            if let requestedScopes {
                state.withLock { state in
                    if state.served.count >= Self.servedLimit { state.served.removeAll() }
                    state.served[ServedKey(homeAccountId: homeAccountId, requestedScopes: requestedScopes)] = Served(
                        slice: current, token: served)
                }
            }
            return served
        }
        return nil
    }

    private func reload(_ state: inout State) {
        do throws(SetupError) {
            if let snapshot = try storage.load(ifChangedSince: nil) { install(snapshot, into: &state) }
        } catch {
            state.lastError = error
        }
    }

    /// The token `accessToken(…, requestedScopes:)` last found for the same account and the same
    /// requested scopes, when the account's slice has not changed since and the token is still valid
    /// at `validAt`: the steady-state look-up, one hash of what the app passed and no normalising.
    package func servedAccessToken(homeAccountId: String, requestedScopes: [String], validAt: Date) -> CachedAccessToken? {
        let current = slice(homeAccountId.lowercased())
        let key = ServedKey(homeAccountId: homeAccountId, requestedScopes: requestedScopes)
        return state.withLock { state in
            guard let served = state.served[key], served.slice === current, served.token.expiresOn > validAt else { return nil }
            return served.token
        }
    }

    package func refreshToken(homeAccountId: String) -> String? {
        slice(homeAccountId.lowercased()).refreshToken
    }

    /// The account of this client whose home account id is `homeAccountId` (compared
    /// case-insensitively), when it holds credentials; nil otherwise. The cost does not grow with
    /// the number of accounts; a storage that trusts its copy for a while asks its store before it
    /// answers nil, so that an account signed in on another machine is found.
    package func account(homeAccountId: String) -> CachedAccount? {
        let account = homeAccountId.lowercased()
        if let found = slice(account).accounts.first { return found }
        return slice(account, checked: true).accounts.first
    }

    /// The accounts that hold credentials for this client, most recently refreshed first: every
    /// account is read (linear in the accounts).
    package func accounts() -> [CachedAccount] {
        let whole = wholeDocument()
        return Self.sorted((whole.slices ?? builder.slices(of: whole.document)).values.flatMap(\.accounts))
    }

    /// The whole document, asked of the store now, and its slices when this cache holds them: for
    /// a list of accounts. An account-scoped storage reads every partition for it, and the document
    /// is not kept.
    private func wholeDocument() -> (document: TokenCacheDocument, slices: [String: AccountSlice]?) {
        guard scoped != nil else { return withCurrent(checked: true) { ($0.document, $0.slices) } }
        let read = Result { () throws(SetupError) in try storage.loadChecked(ifChangedSince: nil) }
        return state.withLock { state in
            switch read {
            case .success(let snapshot):
                if state.lastError?.code == .cacheUnavailable { state.lastError = nil }
                if let problem = snapshot?.problem { state.lastError = problem }
                return (snapshot?.document ?? TokenCacheDocument(), nil)
            case .failure(let error):
                noteUnavailable(error, in: &state)
                return (TokenCacheDocument(), nil)
            }
        }
    }

    /// Every account the cache has a record of at this environment, whether or not this client
    /// (or any) holds credentials for it: what MSAL lists with `returnOnlySignedInAccounts = false`.
    /// The id token is this client's when it has one, else another client's; most recently used
    /// (any client's credential) first; one entry per home account id.
    package func knownAccounts() -> [CachedAccount] {
        do {
            let document = wholeDocument().document
            var lastUsed: [String: Double] = [:]
            var idTokens: [String: (own: Bool, secret: String)] = [:]
            for section in [TokenCacheDocument.Section.accessToken, .refreshToken, .idToken] {
                for entry in document[section].values where entry.string("environment", equalsIgnoringCase: environment) {
                    guard let id = entry.string("home_account_id")?.lowercased() else { continue }
                    let used = entry.epochSeconds("last_modification_time") ?? entry.epochSeconds("cached_at") ?? 0
                    lastUsed[id] = max(lastUsed[id] ?? 0, used)
                    guard section == .idToken, let secret = entry.string("secret") else { continue }
                    let own = belongsToClient(entry)
                    if own || idTokens[id] == nil { idTokens[id] = (own, secret) }
                }
            }
            var seen = Set<String>()
            var accounts: [CachedAccount] = []
            for entry in document[.account].values where entry.string("environment", equalsIgnoringCase: environment) {
                guard let id = entry.string("home_account_id"), seen.insert(id.lowercased()).inserted else { continue }
                accounts.append(
                    CachedAccount(
                        homeAccountId: id, environment: environment, username: entry.string("username"),
                        idToken: idTokens[id.lowercased()]?.secret, lastUsed: lastUsed[id.lowercased()] ?? 0))
            }
            return Self.sorted(accounts)
        }
    }

    /// Most recently used first; equal times by home account id.
    private static func sorted(_ accounts: [CachedAccount]) -> [CachedAccount] {
        accounts.sorted { $0.lastUsed > $1.lastUsed || ($0.lastUsed == $1.lastUsed && $0.homeAccountId < $1.homeAccountId) }
    }

    /// Whether `entry` is a credential of this client id at this environment.
    func belongsToClient(_ entry: TokenCacheEntry) -> Bool { builder.isClients(entry) }
}
