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
            /// The port bound by `start()`, 0 before.
            var port: UInt16 = 0
            /// Where the short address sends the browser (docs/usage.md#signing-in-over-ssh): the
            /// authorize URL while the sign-in waits; nil before it is offered and once the wait is over.
            var shortAddressTarget: URL?
            /// The listener's thread has delivered its outcome (or is about to): nothing is served any more.
            var over = false
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
                state.shortAddressTarget = nil
                wake(state.wakeWrite)
            }
        }

        /// Sets the short address's target unless the wait is already over or cancelled; returns whether it did.
        func offerShortAddress(_ target: URL) -> Bool {
            state.withLock { state in
                guard state.started, !state.over, state.stopReason == nil else { return false }
                state.shortAddressTarget = target
                return true
            }
        }

        /// The wait is over (a response accepted, a timeout, a cancel, a failure): the short address
        /// no longer hands out the authorize URL, whatever happens to the sockets afterwards.
        func end() {
            state.withLock { state in
                state.over = true
                state.shortAddressTarget = nil
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
