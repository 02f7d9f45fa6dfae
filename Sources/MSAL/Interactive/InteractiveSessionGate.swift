import Foundation

/// Admits one browser sign-in at a time (docs/error-mapping.md#one-session-at-a-time: one session per process; a second fails with
/// `internalErrorInteractiveSessionAlreadyRunning`) and cancels the running one on request
/// (`cancelCurrentWebAuthSession()`).
///
/// `shared` is the process-wide gate; tests pass their own so they do not contend with each other.
package final class InteractiveSessionGate: Sendable {
    /// The gate every application object of this process uses.
    package static let shared = InteractiveSessionGate()

    private struct State {
        var running = false
        var listener: LoopbackRedirectListener?
        var cancelRequested = false
    }

    private let state = Locked(State())

    /// A gate with nothing running.
    package init() {}

    /// Takes the gate; false when a session is already running.
    package func enter() -> Bool {
        state.withLock { state in
            guard !state.running else { return false }
            state = State(running: true)
            return true
        }
    }

    /// Records the running session's listener, so that `cancelCurrent()` reaches it. Returns false
    /// (and cancels the listener) when a cancel came before the listener existed.
    package func attach(_ listener: LoopbackRedirectListener) -> Bool {
        let cancelled = state.withLock { state in
            state.listener = listener
            return state.cancelRequested
        }
        if cancelled { listener.cancel() }
        return !cancelled
    }

    /// Releases the gate.
    package func leave() {
        state.withLock { $0 = State() }
    }

    /// Whether a session is running.
    package var isRunning: Bool { state.withLock { $0.running } }

    /// Cancels the running session, if any; returns whether there was one.
    @discardableResult
    package func cancelCurrent() -> Bool {
        let (running, listener) = state.withLock { state in
            if state.running { state.cancelRequested = true }
            return (state.running, state.listener)
        }
        listener?.cancel()
        return running
    }
}
