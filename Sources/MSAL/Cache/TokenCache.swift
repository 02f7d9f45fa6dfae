import Foundation

/// The application's view of the token cache: fast look-ups from an in-memory copy that is
/// reloaded whenever the storage changed (a `stat` per look-up for a file), and writes that
/// read, merge and write back under the storage's lock.
///
/// One `TokenCache` serves one client id at one authority (`environment` = host, `realm` = the
/// authority's tenant segment, as MSAL's other libraries compute them).
package final class TokenCache: Sendable {
    package let clientId: String
    package let environment: String
    package let realm: String
    private let storage: any TokenCacheStorage
    private let logger: MSALLoggerConfig
    private let state = Locked(State())
    /// The refreshes under way in this process, and background refreshes held back after a failure.
    package let refreshes = RefreshCoordinator()

    private struct State {
        var stamp: TokenCacheStamp?
        var document = TokenCacheDocument()
        /// Our client's access tokens by lower-cased home account id.
        var accessTokens: [String: [CachedAccessToken]] = [:]
        /// The same tokens by account and exact scope set, for the common look-up in O(1).
        var exact: [ExactKey: CachedAccessToken] = [:]
        var lastError: SetupError?
        /// Bumped when an account is removed, so a refresh that started earlier does not bring it back.
        var generations: [String: Int] = [:]
        /// Tokens served before, by the account and the scopes exactly as the app asked, with the
        /// secret decoded: a repeated call costs one hash look-up. Emptied whenever the copy changes.
        var served: [ServedKey: CachedAccessToken] = [:]
    }

    private struct ServedKey: Hashable {
        var homeAccountId: String
        var requestedScopes: [String]
    }

    /// Bounds `served`: an app asking for ever new scope lists does not grow it without end.
    private static let servedLimit = 256

    package init(storage: any TokenCacheStorage, clientId: String, authority: URL, logger: MSALLoggerConfig) {
        self.storage = storage
        self.clientId = clientId
        environment = (authority.host ?? "").lowercased()
        realm = authority.pathComponents.dropFirst().first ?? ""
        self.logger = logger
    }

    /// Whether another process's changes are noticed by a directory watch rather than a `stat`
    /// per look-up (tests).
    package var watchesStorage: Bool { (storage as? FileTokenCacheStorage)?.isWatched ?? false }

    /// The last problem the cache met (unreadable or corrupt file, failed write), if any.
    package var lastError: SetupError? { state.withLock { $0.lastError } }

    // MARK: Reading

    /// Runs `body` on an up-to-date in-memory copy; `checked`: one the storage asked its store for
    /// now, even when it trusts its own copy for a while (`TokenCacheStorage.loadChecked`).
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

    private func noteUnavailable(_ error: SetupError, in state: inout State) {
        if state.lastError?.message != error.message {
            logger.error("Token cache unavailable: \(error.message)")
        }
        state.lastError = error
    }

    private func install(_ snapshot: TokenCacheSnapshot, into state: inout State) {
        state.stamp = snapshot.stamp
        state.document = snapshot.document
        state.served.removeAll()
        if let problem = snapshot.problem {
            logger.error("\(problem.message)")
            state.lastError = problem
        }
        var index: [String: [CachedAccessToken]] = [:]
        var exact: [ExactKey: CachedAccessToken] = [:]
        // Tokens share their account's id and their scope list (a cache of 100 accounts × 100 APIs
        // holds 100 of each, not 10,000).
        var interner = CachedAccessToken.Interner()
        var tokens: [CachedAccessToken] = []
        if let lookup = snapshot.lookupAccessTokens {
            for token in lookup.tokens {
                guard Self.sameIgnoringCase(token.clientId, clientId), Self.sameIgnoringCase(token.environment, environment),
                    Self.sameIgnoringCase(token.realm, realm), let cached = CachedAccessToken(token, file: lookup.file, interner: &interner)
                else { continue }
                tokens.append(cached)
            }
        } else {
            for entry in snapshot.document[.accessToken].values {
                guard entry.string("client_id", equalsIgnoringCase: clientId),
                    entry.string("environment", equalsIgnoringCase: environment),
                    entry.string("realm", equalsIgnoringCase: realm),
                    let token = CachedAccessToken(entry, interner: &interner)
                else { continue }
                tokens.append(token)
            }
        }
        for token in tokens {
            index[token.account, default: []].append(token)
            let key = ExactKey(account: token.account, scopes: token.scopeSet.key)
            if let existing = exact[key], existing.expiresOn >= token.expiresOn { continue }
            exact[key] = token
        }
        state.accessTokens = index
        state.exact = exact
    }

    /// An access token of `homeAccountId` whose scopes cover the resource scopes of `scopes` and
    /// that is still valid at `validAt`. With `requestedScopes` (the app's list as it gave it), the
    /// answer is remembered for `servedAccessToken`.
    package func accessToken(homeAccountId: String, scopes: ScopeSet, validAt: Date, requestedScopes: [String]? = nil) -> CachedAccessToken?
    {
        let wanted = scopes.resourceScopes
        let account = homeAccountId.lowercased()
        let key = ExactKey(account: account, scopes: scopes.key)
        return withCurrent { state in
            var rechecked = false
            for _ in 0..<3 {
                let found: CachedAccessToken?
                if let token = state.exact[key], token.expiresOn > validAt {
                    found = token
                } else {
                    found = state.accessTokens[account]?.first { token in
                        guard token.expiresOn > validAt else { return false }
                        return wanted.isEmpty ? token.resourceScopes.isEmpty : wanted.allSatisfy { Scopes.covers(token.resourceScopes, $0) }
                    }
                }
                guard var served = found else {
                    // Nothing here: a storage that trusts its copy for a while asks its store once,
                    // so a token another machine wrote is found before anyone refreshes.
                    if !rechecked, recheck(&state) {
                        rechecked = true
                        continue
                    }
                    return nil
                }
                guard served.decodeSecret() else {
                    // A secret left in the file could not be read: the file changed in place
                    // under this copy. Read it again and look again, once.
                    logger.verbose("Token cache changed while a token was read; reading it again")
                    reload(&state)
                    continue
                }
                if let requestedScopes {
                    if state.served.count >= Self.servedLimit { state.served.removeAll() }
                    state.served[ServedKey(homeAccountId: homeAccountId, requestedScopes: requestedScopes)] = served
                }
                return served
            }
            return nil
        }
    }

    private func reload(_ state: inout State) {
        do throws(SetupError) {
            if let snapshot = try storage.load(ifChangedSince: nil) { install(snapshot, into: &state) }
        } catch {
            state.lastError = error
        }
    }

    /// The token `accessToken(…, requestedScopes:)` last found for the same account and the same
    /// requested scopes, when the cache has not changed since and the token is still valid at
    /// `validAt`: the steady-state look-up, one hash of what the app passed and no normalising.
    package func servedAccessToken(homeAccountId: String, requestedScopes: [String], validAt: Date) -> CachedAccessToken? {
        let key = ServedKey(homeAccountId: homeAccountId, requestedScopes: requestedScopes)
        return withCurrent { state in
            guard let served = state.served[key], served.expiresOn > validAt else { return nil }
            return served
        }
    }

    private static func sameIgnoringCase(_ a: String, _ b: String) -> Bool {
        a == b || a.lowercased() == b.lowercased()
    }

    /// A lower-cased account id and a `ScopeSet.key`.
    private struct ExactKey: Hashable {
        var account: String
        var scopes: String
    }

    package func refreshToken(homeAccountId: String) -> String? {
        withCurrent { state in
            state.document[.refreshToken].values.first { entry in
                entry.string("home_account_id", equalsIgnoringCase: homeAccountId) && belongsToClient(entry)
            }?.string("secret")
        }
    }

    /// The accounts that hold credentials for this client, most recently refreshed first.
    package func accounts() -> [CachedAccount] {
        withCurrent(checked: true) { state in
            let document = state.document
            var lastUsed: [String: Double] = [:]
            for entry in Array(document[.refreshToken].values) + Array(document[.idToken].values) where belongsToClient(entry) {
                guard let id = entry.string("home_account_id")?.lowercased() else { continue }
                lastUsed[id] = max(lastUsed[id] ?? 0, entry.epochSeconds("last_modification_time") ?? 0)
            }
            var accounts: [CachedAccount] = []
            for entry in document[.account].values {
                guard let id = entry.string("home_account_id"), lastUsed[id.lowercased()] != nil,
                    entry.string("environment", equalsIgnoringCase: environment)
                else { continue }
                let idToken = document[.idToken].values.first {
                    belongsToClient($0) && $0.string("home_account_id", equalsIgnoringCase: id)
                }?.string("secret")
                accounts.append(
                    CachedAccount(
                        homeAccountId: id, environment: environment, username: entry.string("username"),
                        idToken: idToken, lastUsed: lastUsed[id.lowercased()] ?? 0))
            }
            return accounts.sorted { $0.lastUsed > $1.lastUsed || ($0.lastUsed == $1.lastUsed && $0.homeAccountId < $1.homeAccountId) }
        }
    }

    /// The account of this client whose home account id is `homeAccountId` (compared
    /// case-insensitively), when it holds credentials; nil otherwise.
    package func account(homeAccountId: String) -> CachedAccount? {
        let id = homeAccountId.lowercased()
        return accounts().first { $0.homeAccountId.lowercased() == id }
    }

    /// Every account the cache has a record of at this environment, whether or not this client
    /// (or any) holds credentials for it: what MSAL lists with `returnOnlySignedInAccounts = false`.
    /// The id token is this client's when it has one, else another client's; most recently used
    /// (any client's credential) first; one entry per home account id.
    package func knownAccounts() -> [CachedAccount] {
        withCurrent(checked: true) { state in
            let document = state.document
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
            return accounts.sorted { $0.lastUsed > $1.lastUsed || ($0.lastUsed == $1.lastUsed && $0.homeAccountId < $1.homeAccountId) }
        }
    }

    /// Whether `entry` is a credential of this client id at this environment.
    func belongsToClient(_ entry: TokenCacheEntry) -> Bool {
        entry.string("client_id", equalsIgnoringCase: clientId) && entry.string("environment", equalsIgnoringCase: environment)
    }

    /// Waits (polling every 20 ms, at most `timeout` seconds) for the refresh lock of `name`, which
    /// excludes other processes sharing the storage and other tasks of this one; returns its
    /// release, or a no-op when the wait ran out.
    package func refreshLock(_ name: String, clock: any NativeAuthClock, timeout: TimeInterval) async -> () -> Void {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let release = storage.tryRefreshLock(name) { return release }
            // A yield first: with a clock whose sleep returns at once (tests), the holder still runs.
            await Task.yield()
            guard Date() < deadline, (try? await clock.sleep(seconds: 0.02)) != nil else { return {} }
        }
    }

    package func generation(of homeAccountId: String) -> Int {
        state.withLock { $0.generations[homeAccountId.lowercased()] ?? 0 }
    }

    // MARK: Writing

    package struct Saved: Sendable {
        var homeAccountId: String
        var grantedScopes: [String]
    }

    package enum SaveCondition: Sendable {
        /// A new sign-in: with `singleAccount`, other accounts of this client are removed first.
        case signIn(singleAccount: Bool)
        /// A refresh: saved only if the account is still there (in this process and in the file).
        case refresh(generation: Int)
    }

    /// Stores a token response. Returns false when a refresh found its account signed out.
    @discardableResult
    package func save(
        _ response: TokenResponse, clientInfo: ClientInfo, idToken: IDToken?, scopes: ScopeSet, now: Date,
        condition: SaveCondition
    ) throws(SetupError) -> Bool {
        let homeAccountId = clientInfo.homeAccountId
        if case .refresh(let generation) = condition, self.generation(of: homeAccountId) != generation { return false }
        var stillThere = true
        let snapshot: TokenCacheSnapshot
        do {
            snapshot = try storage.update { document in
                switch condition {
                case .signIn(let single):
                    if single {
                        for other in credentialedAccounts(in: document) where other != homeAccountId.lowercased() {
                            removeCredentials(of: other, from: &document)
                        }
                    }
                case .refresh:
                    stillThere = document[.refreshToken].values.contains {
                        belongsToClient($0) && $0.string("home_account_id", equalsIgnoringCase: homeAccountId)
                    }
                    if !stillThere { return }
                }
                write(response, clientInfo: clientInfo, idToken: idToken, scopes: scopes, now: now, into: &document)
            }
        } catch {
            state.withLock { $0.lastError = error }
            logger.error("Token cache write failed: \(error.message)")
            throw error
        }
        state.withLock { state in
            install(snapshot, into: &state)
            if snapshot.problem == nil, state.lastError?.code == .cacheUnavailable { state.lastError = nil }
        }
        return stillThere
    }

    /// Removes the account's tokens for this client, and the account record when no other client
    /// holds credentials for it.
    /// Removes an account's credentials of this client (`everyClient`: of every client id, MSAL's
    /// `wipeAccount`), and its account record once no credential uses it.
    package func removeAccount(homeAccountId: String, everyClient: Bool = false) throws(SetupError) {
        state.withLock { $0.generations[homeAccountId.lowercased(), default: 0] += 1 }
        let snapshot: TokenCacheSnapshot
        do {
            snapshot = try storage.update { document in
                removeCredentials(of: homeAccountId.lowercased(), everyClient: everyClient, from: &document)
            }
        } catch {
            state.withLock { $0.lastError = error }
            logger.error("Token cache write failed: \(error.message)")
            throw error
        }
        state.withLock { install(snapshot, into: &$0) }
    }

    private func credentialedAccounts(in document: TokenCacheDocument) -> Set<String> {
        var ids = Set<String>()
        for section in [TokenCacheDocument.Section.accessToken, .refreshToken, .idToken] {
            for entry in document[section].values where belongsToClient(entry) {
                if let id = entry.string("home_account_id") { ids.insert(id.lowercased()) }
            }
        }
        return ids
    }

    private func removeCredentials(of homeAccountId: String, everyClient: Bool = false, from document: inout TokenCacheDocument) {
        for section in [TokenCacheDocument.Section.accessToken, .refreshToken, .idToken] {
            document[section] = document[section].filter { _, entry in
                !((everyClient || belongsToClient(entry)) && entry.string("home_account_id", equalsIgnoringCase: homeAccountId))
            }
        }
        let stillUsed = [TokenCacheDocument.Section.accessToken, .refreshToken, .idToken].contains { section in
            document[section].values.contains {
                $0.string("home_account_id", equalsIgnoringCase: homeAccountId) && $0.string("environment", equalsIgnoringCase: environment)
            }
        }
        if !stillUsed {
            document[.account] = document[.account].filter { _, entry in
                !(entry.string("home_account_id", equalsIgnoringCase: homeAccountId)
                    && entry.string("environment", equalsIgnoringCase: environment))
            }
        }
    }
}
