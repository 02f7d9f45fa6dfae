import Foundation

/// A value behind an `NSLock`, as the SDK's own `Locked` (which is `package`; this target keeps to
/// MSAL's public API but for the cache hit of Exports+TokenInto.swift): ThreadSanitizer sees
/// `NSLock` on Linux, not `Synchronization.Mutex`.
final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
