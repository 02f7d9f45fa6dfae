import Synchronization

/// Whether a flow state may still be used.
///
/// States are immutable snapshots of a continuation token, but a token moves on once its step
/// succeeds (the server hands out a new one) or once its flow fails for good. A state in that
/// position answers further calls at once with a general error instead of a doomed round trip.
/// This is a deliberate difference from MSAL for iOS, which lets the server refuse the reuse.
package final class StateLifecycle: Sendable {
    private let consumed = Locked(false)

    package init() {}

    package var isConsumed: Bool { consumed.withLock { $0 } }

    /// Marks the state as used up; returns false when it already was.
    @discardableResult
    package func consume() -> Bool {
        consumed.withLock { used in
            defer { used = true }
            return !used
        }
    }
}
