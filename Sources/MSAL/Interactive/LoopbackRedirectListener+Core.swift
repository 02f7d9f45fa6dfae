import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What the caller's side of the loopback listener and its thread share.
extension LoopbackRedirectListener {
    /// What the caller's side and the listener thread share, behind one lock.
    final class Core: Sendable {
        struct State {
            var started = false
            var waiting = false
            /// The write end of the wake pipe while the thread runs; -1 once it has closed it.
            var wakeWrite: Int32 = -1
            var deadline: Double?
            var timeout: Double = 0
            var stopReason: InteractiveAuthorizationError.CancelReason?
            var stateMismatchSeen = false
            var boundAddresses: [String] = []
        }

        private let state = Locked(State())
        let outcome = OneShot<Result<AuthorizationResponse, InteractiveAuthorizationError>>()

        func withState<T>(_ body: (inout State) -> T) -> T {
            state.withLock(body)
        }

        func begin(wakeWrite: Int32) -> Bool {
            state.withLock { state in
                guard !state.started else { return false }
                state.started = true
                state.wakeWrite = wakeWrite
                return true
            }
        }

        func beginWait(timeout: Double) -> Bool {
            state.withLock { state in
                guard state.started, !state.waiting else { return false }
                state.waiting = true
                state.timeout = timeout
                state.deadline = monotonicNow() + (timeout.isNaN ? 0 : max(0, timeout))
                wake(state.wakeWrite)
                return true
            }
        }

        func stop(_ reason: InteractiveAuthorizationError.CancelReason) {
            state.withLock { state in
                if state.stopReason == nil { state.stopReason = reason }
                wake(state.wakeWrite)
            }
        }

        /// Called by the thread as it exits: under the lock, so that no `wake` writes to a closed
        /// (and perhaps reused) descriptor. (The wake "pipe" is a socket pair.)
        func closeWakePipe(read: Int32) {
            state.withLock { state in
                close(state.wakeWrite)
                close(read)
                state.wakeWrite = -1
            }
        }

        private func wake(_ descriptor: Int32) {
            guard descriptor >= 0 else { return }
            var byte: UInt8 = 1
            _ = write(descriptor, &byte, 1)
        }
    }
}
