import Foundation

/// Who refreshes which access token in this process: concurrent refreshes of one key (an account,
/// its scopes and claims) share one request, and a background refresh that failed holds the next
/// one of its key back for `backgroundRetryDelay`. Refreshes of one account in other processes take
/// turns through the cache's lock file (`TokenCache.refreshLock`), which the refresh itself takes.
package final class RefreshCoordinator: Sendable {
    package typealias Refresh = Task<Result<MSALNativeAuthTokenResult, RetrieveAccessTokenError>, Never>

    /// How long a background refresh that failed keeps the next one of the same key from starting.
    package static let backgroundRetryDelay: TimeInterval = 30

    private let inFlight = Locked<[String: Refresh]>([:])
    private let backgroundFailures = Locked<[String: Date]>([:])
    /// How many callers have gone to the refresh path (shared or not); lets tests wait for a crowd.
    package let callers = Locked(0)
    /// Background refreshes started; lets tests and benchmarks count them.
    package let backgroundRefreshes = Locked(0)

    package init() {}

    /// Whether no refresh is under way.
    package var isIdle: Bool { inFlight.withLock { $0.isEmpty } }

    /// The answer of the refresh of `key`: the one in flight, or the one `start` begins.
    package func refresh(_ key: String, start: () -> Refresh) async -> Result<MSALNativeAuthTokenResult, RetrieveAccessTokenError> {
        callers.withLock { $0 += 1 }
        let task = inFlight.withLock { table in
            if let running = table[key] { return running }
            let started = start()
            table[key] = started
            return started
        }
        let result = await task.value
        finished(key, task)
        return result
    }

    /// Begins `start`'s refresh of `key` without anyone waiting for it, unless one is in flight or
    /// the last background refresh of `key` failed less than `backgroundRetryDelay` ago. `began` is
    /// told when it begins (before anything of the refresh can be heard); `failed` hears the error
    /// of one that fails.
    package func refreshInBackground(
        _ key: String, clock: any NativeAuthClock, start: () -> Refresh, began: () -> Void,
        failed: @escaping @Sendable (RetrieveAccessTokenError) -> Void
    ) {
        if let failure = backgroundFailures.withLock({ $0[key] }), clock.now() < failure.addingTimeInterval(Self.backgroundRetryDelay) {
            return
        }
        let started: Refresh? = inFlight.withLock { table in
            if table[key] != nil { return nil }
            let task = start()
            table[key] = task
            return task
        }
        guard let started else { return }
        backgroundRefreshes.withLock { $0 += 1 }
        began()
        Task {
            switch await started.value {
            case .success:
                backgroundFailures.withLock { _ = $0.removeValue(forKey: key) }
            case .failure(let error):
                backgroundFailures.withLock { $0[key] = clock.now() }
                failed(error)
            }
            finished(key, started)
        }
    }

    /// Forgets `task` as the refresh of `key`: only the caller that finds its own task removes it.
    private func finished(_ key: String, _ task: Refresh) {
        inFlight.withLock { table in
            if let running = table[key], running == task { table.removeValue(forKey: key) }
        }
    }
}
