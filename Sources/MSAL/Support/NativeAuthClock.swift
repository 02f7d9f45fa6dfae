import Foundation

/// Where the SDK reads the time and waits. Injected so that retries, expiry and polling are tested
/// without sleeping.
package protocol NativeAuthClock: Sendable {
    /// The current wall-clock time.
    func now() -> Date
    /// Suspends for `seconds`; throws `CancellationError` when the task is cancelled.
    func sleep(seconds: Double) async throws
}

/// The real clock: `Date()` and `Task.sleep`.
package struct SystemClock: NativeAuthClock {
    package init() {}
    package func now() -> Date { Date() }
    package func sleep(seconds: Double) async throws {
        guard seconds > 0 else { return }
        try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
    }
}
