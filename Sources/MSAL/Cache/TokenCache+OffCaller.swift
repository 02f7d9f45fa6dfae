import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Store reads off the caller's thread (docs/decisions.md#shared-token-cache): an `async` request
/// for an account that the cache does not hold trusted in memory (an entry store's first request
/// for a user on this machine, or a copy whose interval is over) reads that account on the cache's
/// own threads, so that a Swift-concurrency thread (one per core) never waits for the store's round
/// trip; the request's look-ups then use what was read. A hit from memory stays on the caller's
/// thread, without a hop.
extension TokenCache {
    /// One account's slice, read for the request under way.
    final class RequestRead: Sendable {
        let cache: ObjectIdentifier
        let account: String
        let slice: AccountSlice

        init(cache: ObjectIdentifier, account: String, slice: AccountSlice) {
            (self.cache, self.account, self.slice) = (cache, account, slice)
        }
    }

    /// The slice `withAccountRead` read for the step it runs on this thread: `slice(_:checked:)`
    /// answers it for that account, checked or not, since it was read from the store a moment ago.
    /// Kept per thread, not per task: the step is synchronous, so it is seen by the step alone and
    /// never by a task the step starts (a background refresh reads the store itself).
    static var readForRequest: RequestRead? {
        pthread_getspecific(requestReadKey.key).map { Unmanaged<RequestRead>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let requestReadKey = ThreadKey()

    /// Where store reads wait: threads of the cache's own, not the fixed pool that runs Swift
    /// concurrency (nor Dispatch's, which adds a thread about once a second while its threads block).
    /// Up to 256, so that a burst of a few hundred cold reads is in flight at once on the store's
    /// multiplexed connection (docs/redis.md#connections) rather than queued here: a thread waiting
    /// for its reply is blocked on a condition and costs only its stack, and threads are started
    /// only as reads come.
    private static let storeThreads = StoreThreads(limit: 256)

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
        let pinned = RequestRead(cache: ObjectIdentifier(self), account: account, slice: slice)
        return withExtendedLifetime(pinned) {
            let key = Self.requestReadKey.key
            let outer = pthread_getspecific(key)
            pthread_setspecific(key, Unmanaged.passUnretained(pinned).toOpaque())
            defer { pthread_setspecific(key, outer) }
            return step()
        }
    }
}

/// A pthread key: a value per thread.
final class ThreadKey: Sendable {
    let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        self.key = key
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
            // Done jobs are dropped once they are half the array, so a queue never drained stays bounded.
            if next == jobs.count {
                (jobs, next) = ([], 0)
            } else if next > jobs.count / 2 {
                jobs.removeFirst(next)
                next = 0
            }
            condition.unlock()
            job()
            condition.lock()
        }
    }
}
