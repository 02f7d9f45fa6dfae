/// A value delivered at most once, by whichever caller comes first, to one waiter.
///
/// Used to bridge completion-block APIs to `async` with a timeout: the block and a timer both
/// call `resume`, and only the first is heard. Safe when `resume` comes before `value()` is awaited.
package final class OneShot<Value: Sendable>: Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<Value, Never>)
        case delivered(Value)
        case done
    }

    private let state = Locked(State.empty)

    package init() {}

    /// Delivers `value` if nobody has yet; returns whether this call did.
    @discardableResult
    package func resume(_ value: Value) -> Bool {
        let (accepted, waiter): (Bool, CheckedContinuation<Value, Never>?) = state.withLock { state in
            switch state {
            case .empty:
                state = .delivered(value)
                return (true, nil)
            case .waiting(let continuation):
                state = .done
                return (true, continuation)
            case .delivered, .done:
                return (false, nil)
            }
        }
        waiter?.resume(returning: value)
        return accepted
    }

    /// Waits for the value. Call once.
    package func value() async -> Value {
        await withCheckedContinuation { continuation in
            let ready: Value? = state.withLock { state in
                if case .delivered(let value) = state {
                    state = .done
                    return value
                }
                state = .waiting(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
