import Foundation

/// The application's view of the token cache: fast look-ups from an in-memory copy that is
/// reloaded whenever the storage changed (a `stat` per look-up for a file), and writes that
/// read, merge and write back under the storage's lock.
///
/// A look-up for one account reads that account's `AccountSlice` alone: from the slices of the
/// whole document (a file, a persistence, memory: indexed in one pass when the document changes),
/// or from a storage that keeps the cache by account (an entry store: that account's partition,
/// read when the account is served). Only the list of accounts reads everything.
///
/// One `TokenCache` serves one client id at one authority (`environment` = host, `realm` = the
/// authority's tenant segment, as MSAL's other libraries compute them).
package final class TokenCache: Sendable {
    package let clientId: String
    package let environment: String
    package let realm: String
    let storage: any TokenCacheStorage
    /// The same storage when it keeps the cache by account.
    let scoped: (any AccountScopedTokenCacheStorage)?
    let builder: AccountSliceBuilder
    let logger: MSALLoggerConfig
    let state = Locked(State())
    /// The refreshes under way in this process, and background refreshes held back after a failure.
    package let refreshes = RefreshCoordinator()

    struct State {
        var stamp: TokenCacheStamp?
        /// The whole document, for a storage that keeps one (empty for an account-scoped storage).
        var document = TokenCacheDocument()
        /// The document's accounts by lower-cased home account id.
        var slices: [String: AccountSlice] = [:]
        var lastError: SetupError?
        /// Bumped when an account is removed, so a refresh that started earlier does not bring it back.
        var generations: [String: Int] = [:]
        /// Tokens served before, by the account and the scopes exactly as the app asked, with the
        /// secret decoded: a repeated call costs one hash look-up while the slice it came from is current.
        var served: [ServedKey: Served] = [:]
    }

    struct ServedKey: Hashable {
        var homeAccountId: String
        var requestedScopes: [String]
    }

    struct Served {
        var slice: AccountSlice
        var token: CachedAccessToken
    }

    package init(storage: any TokenCacheStorage, clientId: String, authority: URL, logger: MSALLoggerConfig) {
        self.storage = storage
        scoped = storage as? any AccountScopedTokenCacheStorage
        self.clientId = clientId
        environment = (authority.host ?? "").lowercased()
        realm = authority.pathComponents.dropFirst().first ?? ""
        builder = AccountSliceBuilder(clientId: clientId, environment: environment, realm: realm)
        self.logger = logger
    }

    /// Whether another process's changes are noticed by a directory watch rather than a `stat`
    /// per look-up (tests).
    package var watchesStorage: Bool { storage.isWatched }

    /// The last problem the cache met (unreadable or corrupt file, failed write), if any.
    package var lastError: SetupError? { state.withLock { $0.lastError } }

    // MARK: Refresh

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
}
