import Foundation
import MSAL
import NativeAuthTesting

/// Wraps a stub so that requests to one path wait until the test opens the gate: async tests
/// control interleavings without sleeping.
final class GatedTransport: HTTPTransport {
    let inner: StubTransport
    let gatedPath: String
    private let state = Locked((open: false, waiting: [CheckedContinuation<Void, Never>](), arrived: 0))

    init(_ inner: StubTransport, gating path: String) {
        self.inner = inner
        gatedPath = path
    }

    /// Requests that reached the gate so far.
    var arrived: Int { state.withLock { $0.arrived } }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in waiters { waiter.resume() }
    }

    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        if request.url.path.hasSuffix(gatedPath), request.formFields["grant_type"] == "refresh_token" {
            await withCheckedContinuation { continuation in
                let go = state.withLock { state -> Bool in
                    state.arrived += 1
                    if state.open { return true }
                    state.waiting.append(continuation)
                    return false
                }
                if go { continuation.resume() }
            }
        }
        return try await inner.send(request)
    }
}

/// Polls a condition, yielding, until it holds (bounded, so a broken test fails instead of hanging).
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<20_000 {
        if condition() { return true }
        await Task.yield()
        if Task.isCancelled { return false }
    }
    return condition()
}
