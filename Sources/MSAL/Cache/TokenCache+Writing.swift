import Foundation

/// The writing half of `TokenCache`: token responses saved and accounts removed, through the
/// storage's merge (`TokenCacheStorage.update`), on the account's part alone when the storage keeps
/// the cache by account.
extension TokenCache {
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
        // A sign-in that signs the other accounts out needs them all; anything else, this account alone.
        var scope: String? = homeAccountId.lowercased()
        if case .signIn(singleAccount: true) = condition { scope = nil }
        try update(scope) { document in
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
        return stillThere
    }

    /// Removes an account's credentials of this client (`everyClient`: of every client id, MSAL's
    /// `wipeAccount`), and its account record once no credential uses it.
    package func removeAccount(homeAccountId: String, everyClient: Bool = false) throws(SetupError) {
        let account = homeAccountId.lowercased()
        state.withLock { $0.generations[account, default: 0] += 1 }
        try update(account) { document in
            removeCredentials(of: account, everyClient: everyClient, from: &document)
        }
    }

    /// Applies `change` through the storage: to `account`'s part alone (lower-cased home account
    /// id) when the storage keeps the cache by account, else to the whole document, which this
    /// cache then takes. A failure is recorded and logged, then thrown.
    private func update(_ account: String?, _ change: (inout TokenCacheDocument) -> Void) throws(SetupError) {
        do {
            if let scoped, let account {
                let problem = try scoped.update(account: account, builder: builder, change)
                state.withLock { state in
                    if let problem {
                        state.lastError = problem
                    } else if state.lastError?.code == .cacheUnavailable {
                        state.lastError = nil
                    }
                }
                return
            }
            let snapshot = try storage.update(change)
            state.withLock { state in
                install(snapshot, into: &state)
                if snapshot.problem == nil, state.lastError?.code == .cacheUnavailable { state.lastError = nil }
            }
        } catch {
            state.withLock { $0.lastError = error }
            logger.error("Token cache write failed: \(error.message)")
            throw error
        }
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
