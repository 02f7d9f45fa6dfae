import Foundation

/// Store reads off the caller's thread (docs/decisions.md#shared-token-cache): an `async` request
/// for an account that the cache does not hold trusted in memory (an entry store's first request
/// for a user on this machine, or a copy whose interval is over) reads that account on the cache's
/// own threads, so that a Swift-concurrency thread (one per core) never waits for the store's round
/// trip; the request's look-ups then use what was read. A hit from memory stays on the caller's
/// thread, without a hop.
extension TokenCache {
    /// One account's slice, read for the request under way.
    struct RequestRead: Sendable {
        let cache: ObjectIdentifier
        let account: String
        let slice: AccountSlice
    }

    /// The slice `withAccountRead` read for the request it runs: `slice(_:checked:)` answers it for
    /// that account, checked or not, since it was read from the store a moment ago.
    @TaskLocal static var readForRequest: RequestRead?

    /// Where store reads wait: threads of the cache's own, not the fixed pool that runs Swift
    /// concurrency (nor Dispatch's, which adds a thread about once a second while its threads block).
    private static let storeThreads = StoreThreads(limit: 32)

    /// Runs `step` (a request's synchronous cache step for `homeAccountId`) after reading the
    /// account on the store's threads when the storage would otherwise ask its store inside `step`.
    nonisolated(nonsending) package func withAccountRead<T>(_ homeAccountId: String, _ step: () -> T) async -> T {
        let account = homeAccountId.lowercased()
        guard let scoped, !scoped.holdsTrusted(account) else { return step() }
        // The slice crosses threads through a lock, so that what its thread wrote is seen here (by
        // ThreadSanitizer too).
        let read = Locked<AccountSlice?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Self.storeThreads.run {
                let slice = self.slice(account)
                read.withLock { $0 = slice }
                continuation.resume()
            }
        }
        let slice = read.withLock { $0 } ?? .empty
        return Self.$readForRequest.withValue(RequestRead(cache: ObjectIdentifier(self), account: account, slice: slice)) { step() }
    }
}

/// Threads for blocking store calls: started as work arrives, while no started thread is free, up to
/// `limit`; past it, work waits its turn. Started threads stay for the next work.
final class StoreThreads: @unchecked Sendable {
    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var next = 0
    private var idle = 0
    private var started = 0
    private let limit: Int

    init(limit: Int) { self.limit = max(1, limit) }

    func run(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        jobs.append(job)
        if jobs.count - next > idle, started < limit {
            started += 1
            let thread = Thread { [self] in work() }
            thread.name = "msal-token-cache-store"
            thread.start()
        } else {
            condition.signal()
        }
    }

    private func work() {
        condition.lock()
        while true {
            while next == jobs.count {
                idle += 1
                condition.wait()
                idle -= 1
            }
            let job = jobs[next]
            next += 1
            if next == jobs.count { (jobs, next) = ([], 0) }
            condition.unlock()
            job()
            condition.lock()
        }
    }
}
