import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where the token cache document lives. Implementations make `update` atomic with respect to
/// every other user of the same storage, so that concurrent writers lose nothing.
package protocol TokenCacheStorage: Sendable {
    /// The current document, unless it is unchanged since `stamp`. A document that cannot be
    /// parsed is set aside and reported in `problem`, with an empty document in its place.
    func load(ifChangedSince stamp: TokenCacheStamp?) throws(SetupError) -> TokenCacheSnapshot?

    /// As `load`, for a storage that trusts an in-memory copy for a while (an entry store): asks
    /// the store now. Called when a look-up found nothing, and for the list of accounts. The
    /// default, for storages that always ask, reports no change.
    func loadChecked(ifChangedSince stamp: TokenCacheStamp?) throws(SetupError) -> TokenCacheSnapshot?

    /// Whether `loadChecked` asks a store (an entry store): when it succeeds, a `cacheUnavailable`
    /// error on record is over (the store is back).
    var checksStore: Bool { get }

    /// Reads the latest document, applies `change`, writes the result back, and returns it.
    func update(_ change: (inout TokenCacheDocument) -> Void) throws(SetupError) -> TokenCacheSnapshot

    /// Tries to take the lock that makes a token refresh single-flight across processes sharing
    /// this storage; returns a release function, or nil when another process holds it.
    func tryRefreshLock(_ name: String) -> (() -> Void)?

    /// Which store holds the tokens, for the application's log line `Token cache: …` (a path may
    /// name the user: it is marked as personal data).
    var logDescription: LogMessage { get }

    /// Whether other processes' changes are noticed by a watch rather than asked of the storage on
    /// each look-up (tests). The default: no.
    var isWatched: Bool { get }
}

/// A storage that keeps the cache by account (an entry store): a request reads and writes its own
/// account's part, and the cost of a look-up does not grow with the number of accounts. The whole
/// document (`load`, `update(_:)`) is still there for the list of accounts.
package protocol AccountScopedTokenCacheStorage: TokenCacheStorage {
    /// The slice of `account` (lower-cased home account id) as the storage trusts it now, read from
    /// the store when it holds none or no longer trusts it; `checked`: asks the store now. Throws
    /// only when the store fails and nothing is held for the account.
    func slice(of account: String, checked: Bool, builder: AccountSliceBuilder) throws(SetupError) -> ScopedSlice

    /// Whether `slice(of: account, checked: false, …)` would answer from memory now, without asking
    /// the store. Never asks the store itself.
    func holdsTrusted(_ account: String) -> Bool

    /// Reads the account's part of the cache (its partition and the client's own) from the store,
    /// applies `change`, and writes what changed. Returns a problem to report but not to fail on
    /// (entries that are not this SDK's, ignored).
    func update(account: String, builder: AccountSliceBuilder, _ change: (inout TokenCacheDocument) -> Void) throws(SetupError)
        -> SetupError?
}

/// What `AccountScopedTokenCacheStorage.slice` found.
package struct ScopedSlice: Sendable {
    package var slice: AccountSlice
    /// A problem met on the way: the store failed and the slice is the one held before
    /// (`cacheUnavailable`), or the store holds entries that are not this SDK's.
    package var problem: SetupError?
    /// Whether the store answered (a `cacheUnavailable` on record is then over).
    package var asked: Bool
}

extension TokenCacheStorage {
    package func loadChecked(ifChangedSince stamp: TokenCacheStamp?) throws(SetupError) -> TokenCacheSnapshot? { nil }
    package var checksStore: Bool { false }
    package var isWatched: Bool { false }
}

/// What identifies one version of the stored document (for a file: device, inode, size, mtime).
package struct TokenCacheStamp: Sendable, Equatable {
    package var parts: [Int64]
    package init(_ parts: [Int64]) { self.parts = parts }

    /// A file's version: device, inode, size and modification time.
    package init(_ info: stat) {
        parts = [Int64(info.st_dev), Int64(info.st_ino), Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec)]
    }

    /// The version of the file at `path`, `[-1]` when there is none.
    package static func ofFile(_ path: String, what: String) throws(SetupError) -> TokenCacheStamp {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return TokenCacheStamp([-1]) }
            throw SetupError.posix("inspect \(what)", path)
        }
        return TokenCacheStamp(info)
    }
}

package struct TokenCacheSnapshot: Sendable {
    package var document: TokenCacheDocument
    package var stamp: TokenCacheStamp
    /// A problem found while reading (a corrupt file set aside), to report but not to fail on.
    package var problem: SetupError?
    /// For a copy read for look-ups only: the access tokens, whose secrets stay in the file (the
    /// document's `AccessToken` section is then empty).
    package var lookupAccessTokens: LookupAccessTokens?

    package init(
        document: TokenCacheDocument, stamp: TokenCacheStamp, problem: SetupError? = nil, lookupAccessTokens: LookupAccessTokens? = nil
    ) {
        self.document = document
        self.stamp = stamp
        self.problem = problem
        self.lookupAccessTokens = lookupAccessTokens
    }
}

/// A cache that lives as long as the process.
package final class InMemoryTokenCacheStorage: TokenCacheStorage {
    private let state = Locked((document: TokenCacheDocument(), version: Int64(0)))
    private let refreshLocks = Locked(Set<String>())

    /// Nothing outside this process shares the storage: the lock excludes refreshes in it.
    package func tryRefreshLock(_ name: String) -> (() -> Void)? {
        guard refreshLocks.withLock({ $0.insert(name).inserted }) else { return nil }
        return { [refreshLocks] in _ = refreshLocks.withLock { $0.remove(name) } }
    }

    package init(document: TokenCacheDocument = TokenCacheDocument()) {
        state.withLock { $0.document = document }
    }

    package var logDescription: LogMessage { "in memory only" }

    package func load(ifChangedSince stamp: TokenCacheStamp?) throws(SetupError) -> TokenCacheSnapshot? {
        state.withLock { state in
            let current = TokenCacheStamp([state.version])
            return current == stamp ? nil : TokenCacheSnapshot(document: state.document, stamp: current)
        }
    }

    package func update(_ change: (inout TokenCacheDocument) -> Void) throws(SetupError) -> TokenCacheSnapshot {
        state.withLock { state in
            change(&state.document)
            state.version += 1
            return TokenCacheSnapshot(document: state.document, stamp: TokenCacheStamp([state.version]))
        }
    }
}
