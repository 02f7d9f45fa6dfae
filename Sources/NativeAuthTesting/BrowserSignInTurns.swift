import MSAL

/// Turns for browser sign-ins in one test process. MSAL allows one browser sign-in per process
/// (a second answers `internalErrorInteractiveSessionAlreadyRunning`, and
/// `cancelCurrentWebAuthSession()` ends whichever runs), while a test runner runs suites in
/// parallel: suites that call `acquireToken` take turns through this, for example from a test
/// scoping trait around each suite.
///
/// ```swift
/// // given: app: MSALPublicClientApplication, parameters: MSALInteractiveTokenParameters
/// try await BrowserSignInTurns.take { try await app.acquireToken(with: parameters) }
/// ```
public enum BrowserSignInTurns {
    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private static let state = Locked(State())

    /// Runs `body` when no other `take` is running in this process.
    public static func take<T>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private static func acquire() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                guard state.busy else {
                    state.busy = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    private static func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.busy = false
                return nil
            }
            return state.waiting.removeFirst() // the turn passes on; `busy` stays true
        }
        next?.resume()
    }
}
