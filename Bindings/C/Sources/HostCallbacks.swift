import Foundation

/// The one door from a thread of the library into the app's code: result callbacks
/// (Dispatcher.swift), log lines (Exports+Objects.swift), the request interceptor
/// (RequestInterceptorBridge.swift) and the browser's URL callback (BrowserSignIn.swift) each call
/// through `call`, so that `msal_na_detach_callbacks` closes it for all of them at once.
///
/// A program, or the language runtime hosting it (Python at interpreter exit), detaches before it
/// goes away with operations still running: from then on nothing of the library calls into it,
/// whatever finishes later. `detach()` waits for the calls in progress to return, except those of
/// threads that are inside `detach()` themselves: its own (a callback that detaches) and another
/// callback's that detaches at the same time, so that neither waits for itself or for the other.
final class HostCallbacks: @unchecked Sendable {
    // `@unchecked`: every field is read and written under `condition` (NSCondition, which
    // ThreadSanitizer sees on Linux).

    static let shared = HostCallbacks()

    private let condition = NSCondition()
    private var detached = false
    /// Calls in progress: in all, and per thread (a thread has one unless a call nests another).
    private var running = 0
    private var depth: [pthread_t: Int] = [:]
    /// Calls in progress on threads that are inside `detach()` now: not waited for.
    private var excused = 0

    /// Whether `detach()` has been called.
    var isDetached: Bool {
        condition.lock()
        defer { condition.unlock() }
        return detached
    }

    /// Runs `body`, a call into the app, unless detached; returns whether it ran.
    @discardableResult
    func call(_ body: () -> Void) -> Bool {
        let thread = pthread_self()
        condition.lock()
        guard !detached else {
            condition.unlock()
            return false
        }
        running += 1
        depth[thread, default: 0] += 1
        condition.unlock()
        body()
        condition.lock()
        running -= 1
        depth[thread] = depth[thread] == 1 ? nil : depth[thread].map { $0 - 1 }
        condition.broadcast()
        condition.unlock()
        return true
    }

    /// No call runs after this returns, on any thread; it cannot be undone.
    func detach() {
        condition.lock()
        defer { condition.unlock() }
        detached = true
        let own = depth[pthread_self()] ?? 0
        excused += own
        while running > excused { condition.wait() }
        excused -= own
    }
}
