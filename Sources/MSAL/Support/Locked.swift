import Foundation

/// A value behind a lock, shared across threads.
///
/// Not `Synchronization.Mutex`: on Linux that lock is built on raw futex calls, which
/// ThreadSanitizer does not see, so every correct use of it is reported as a data race (measured
/// here with a four-thread counter). `NSLock` is a pthread mutex, which ThreadSanitizer models, so
/// the concurrency tests can run under it and mean something. The cost is the same order (tens of
/// nanoseconds uncontended).
///
/// `@unchecked Sendable` because the lock guards every access to `value`.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
