import Foundation
import TestSupport
import Testing

@testable import MSAL

/// The in-process refresh bookkeeping on its own, without a transport: one request per key however
/// many wait, and a failed background refresh holding the next one back.
@Suite(.tags(.concurrency)) struct RefreshCoordinatorTests {
    typealias Outcome = Result<MSALNativeAuthTokenResult, RetrieveAccessTokenError>

    static func token(_ value: String) -> Outcome {
        .success(
            MSALNativeAuthTokenResult(
                accessToken: value, scopes: ["s"], expiresOn: Date(timeIntervalSince1970: 0), refreshToken: nil, correlationId: UUID()))
    }

    static let failure: Outcome = .failure(
        RetrieveAccessTokenError(type: .generalError, NativeAuthErrorDetails(message: "no", correlationId: UUID())))

    @Test func callersOfOneKeyShareOneRefreshAndOtherKeysGetTheirOwn() async {
        let coordinator = RefreshCoordinator()
        let starts = Locked(0)
        let gate = AsyncGate()
        func start(_ value: String) -> RefreshCoordinator.Refresh {
            starts.withLock { $0 += 1 }
            return Task {
                await gate.wait()
                return Self.token(value)
            }
        }
        async let first = coordinator.refresh("a") { start("A") }
        async let second = coordinator.refresh("a") { start("A2") }
        async let other = coordinator.refresh("b") { start("B") }
        while coordinator.callers.withLock({ $0 }) < 3 { await Task.yield() }
        #expect(!coordinator.isIdle)
        await gate.open()
        let answers = await [first, second, other].map { (try? $0.get())?.accessToken }
        // The two callers of "a" race to begin; whichever wins starts the one refresh both receive.
        #expect(answers[0] == answers[1], "callers of one key share one answer")
        #expect(["A", "A2"].contains(answers[0]))
        #expect(answers[2] == "B")
        #expect(starts.withLock { $0 } == 2, "one refresh per key")
        #expect(coordinator.isIdle)
    }

    @Test func aFailedBackgroundRefreshHoldsTheNextBackUntilTheDelayPassed() async throws {
        let coordinator = RefreshCoordinator()
        let clock = TestClock()
        let failures = Locked(0)
        let began = Locked(0)
        func background(_ outcome: Outcome) {
            coordinator.refreshInBackground("k", clock: clock) {
                Task { outcome }
            } began: {
                began.withLock { $0 += 1 }
            } failed: { _ in
                failures.withLock { $0 += 1 }
            }
        }
        background(Self.failure)
        while failures.withLock({ $0 }) < 1 || !coordinator.isIdle { await Task.yield() }
        background(Self.token("T"))
        #expect(began.withLock { $0 } == 1, "held back within the delay")
        try await clock.sleep(seconds: RefreshCoordinator.backgroundRetryDelay)
        background(Self.token("T"))
        #expect(began.withLock { $0 } == 2)
        #expect(coordinator.backgroundRefreshes.withLock { $0 } == 2)
        while !coordinator.isIdle { await Task.yield() }
        // A success clears the failure: the next one begins at once.
        background(Self.token("T"))
        #expect(began.withLock { $0 } == 3)
    }

    @Test func aBackgroundRefreshDoesNotStartWhileOneOfItsKeyIsInFlight() async {
        let coordinator = RefreshCoordinator()
        let gate = AsyncGate()
        async let waiting = coordinator.refresh("k") {
            Task {
                await gate.wait()
                return Self.token("A")
            }
        }
        while coordinator.isIdle { await Task.yield() }
        let began = Locked(false)
        coordinator.refreshInBackground("k", clock: TestClock()) {
            Task { Self.token("B") }
        } began: {
            began.withLock { $0 = true }
        } failed: { _ in
        }
        #expect(!began.withLock { $0 })
        await gate.open()
        #expect((try? await waiting.get())?.accessToken == "A")
    }
}

/// Suspends waiters until opened.
actor AsyncGate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}
