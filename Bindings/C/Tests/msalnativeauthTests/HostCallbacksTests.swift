import Foundation
import Testing

@testable import msalnativeauth

/// `msal_na_detach_callbacks` (Bindings/C/Sources/HostCallbacks.swift), on gates of the tests' own
/// (the library's shared one is never detached here): after `detach()` no call runs; it waits for
/// a call in progress on another thread, but not for its own, nor for another call that detaches.
@Suite struct HostCallbacksTests {
    /// Runs `body` on a thread of its own (as the library's queues run the app's callbacks).
    private func onThread(_ body: @escaping @Sendable () -> Void) -> Thread {
        let thread = Thread(block: body)
        thread.start()
        return thread
    }

    @Test func aCallRunsUntilDetachedAndNeverAfter() {
        let gate = HostCallbacks()
        let count = Guarded(0)
        #expect(gate.call { count.withLock { $0 += 1 } })
        #expect(!gate.isDetached)
        gate.detach()
        #expect(gate.isDetached)
        #expect(!gate.call { count.withLock { $0 += 1 } })
        gate.detach() // again: nothing to wait for
        #expect(count.withLock { $0 } == 1)
    }

    @Test func detachWaitsForACallInProgressOnAnotherThread() {
        let gate = HostCallbacks()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let returned = Guarded(false)
        _ = onThread {
            gate.call {
                entered.signal()
                release.wait()
                returned.withLock { $0 = true }
            }
        }
        entered.wait()
        let detached = DispatchSemaphore(value: 0)
        let returnedWhenDetached = Guarded<Bool?>(nil)
        _ = onThread {
            gate.detach()
            returnedWhenDetached.withLock { $0 = returned.withLock { $0 } }
            detached.signal()
        }
        // A detach that did not wait would be done well within this.
        let early = detached.wait(timeout: .now() + .milliseconds(200)) == .success
        #expect(!early)
        release.signal()
        if !early { detached.wait() }
        #expect(returnedWhenDetached.withLock { $0 } == true)
    }

    @Test func aCallMayDetachAndTwoCallsMayDetachAtOnce() {
        let gate = HostCallbacks()
        let selfDetached = DispatchSemaphore(value: 0)
        _ = onThread {
            gate.call { gate.detach() } // does not wait for itself
            selfDetached.signal()
        }
        #expect(selfDetached.wait(timeout: .now() + .seconds(30)) == .success)
        let other = HostCallbacks()
        let bothIn = DispatchGroup()
        let done = DispatchGroup()
        for _ in 0..<2 {
            bothIn.enter()
            done.enter()
            _ = onThread {
                other.call {
                    bothIn.leave()
                    bothIn.wait() // both calls are in progress: each detach must not wait for the other
                    other.detach()
                }
                done.leave()
            }
        }
        #expect(done.wait(timeout: .now() + .seconds(30)) == .success)
        #expect(!other.call {})
    }
}
