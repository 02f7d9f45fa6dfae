import Foundation

/// The credentials a client's connections present, renewed before they expire
/// (docs/redis.md#credentials-that-change).
///
/// Without a `credentialSource` it hands out the configuration's user and password, generation 0,
/// forever. With one, it asks the source on a thread of its own, never on a caller's: at the first
/// need, again `credentialRenewalMargin` before the expiry (at most half the lifetime) by a timer,
/// and after a connection was refused them. Each answer is a new generation; `onRenewed` then has
/// every open connection send `AUTH` with it. A caller waits only when there are no credentials
/// that still hold, and never past its deadline. A failed renewal is tried again after
/// `retryDelay` while the old credentials hold; a caller that needs them after they expired gets
/// the failure.
final class CredentialKeeper: @unchecked Sendable {
    /// Credentials and their generation (which of the source's answers they are).
    struct Current {
        let credentials: MSALRedisCredentials?
        let generation: Int
    }

    private let source: (@Sendable () throws -> MSALRedisCredentials)?
    private let margin: TimeInterval
    private let retryDelay: TimeInterval
    private let condition = NSCondition()
    private var current: Current
    /// When the source is asked again (by the timer, or the next caller after it).
    private var renewOn = Date.distantFuture
    private var isAsking = false
    private var failure: MSALRedisError?
    private var failedAt = Date.distantPast
    private var answeredAt = Date.distantPast
    /// Called after each renewal, on the source's thread, outside the lock.
    var onRenewed: (@Sendable (Current) -> Void)?

    init(configuration: MSALRedisConfiguration, retryDelay: TimeInterval = 5) {
        source = configuration.credentialSource
        margin = configuration.credentialRenewalMargin
        self.retryDelay = retryDelay
        let fixed = configuration.password.map { MSALRedisCredentials(username: configuration.username, password: $0) }
        current = Current(credentials: source == nil ? fixed : nil, generation: 0)
    }

    /// The credentials to open a connection with, waiting for the source (until `deadline`) when
    /// none hold now.
    func credentials(deadline: Deadline) throws(MSALRedisError) -> Current {
        guard source != nil else { return current }
        condition.lock()
        defer { condition.unlock() }
        while true {
            let now = Date()
            if current.generation > 0, !Self.hasExpired(current.credentials, at: now) {
                askIfDue(now)
                return current
            }
            if !isAsking {
                if let failure, now.timeIntervalSince(failedAt) < retryDelay { throw failure }
                ask()
            }
            guard condition.wait(until: Date(timeIntervalSinceNow: deadline.remainingSeconds)) || !deadline.hasPassed else {
                throw MSALRedisError(.timeout, "The Redis credentials were not ready within the timeout")
            }
        }
    }

    /// Starts asking the source now, when it has not answered yet, so that it runs while the app
    /// sets up rather than within its first command's deadline.
    func prefetch() {
        guard source != nil else { return }
        condition.lock()
        defer { condition.unlock() }
        if current.generation == 0 && !isAsking { ask() }
    }

    /// The credentials, when they are newer than `generation`; never waits (a renewal that is due
    /// starts on the source's thread).
    func renewal(after generation: Int) -> Current? {
        guard source != nil else { return nil }
        condition.lock()
        defer { condition.unlock() }
        askIfDue(Date())
        return current.generation > generation ? current : nil
    }

    /// The generation now, without waiting.
    var generation: Int {
        guard source != nil else { return 0 }
        condition.lock()
        defer { condition.unlock() }
        return current.generation
    }

    /// A new connection was refused `generation`'s credentials: they may have been rotated, so the
    /// source is asked again, no sooner than `retryDelay` after its last answer.
    func refused(_ generation: Int) {
        guard source != nil else { return }
        condition.lock()
        defer { condition.unlock() }
        let now = Date()
        if generation == current.generation { renewOn = min(renewOn, max(now, answeredAt.addingTimeInterval(retryDelay))) }
        askIfDue(now)
    }

    private static func hasExpired(_ credentials: MSALRedisCredentials?, at now: Date) -> Bool {
        guard let expiry = credentials?.expiresOn else { return false }
        return now >= expiry
    }

    /// Under the lock: asks the source when a renewal is due and none is under way.
    private func askIfDue(_ now: Date) {
        guard !isAsking, now >= renewOn, failure == nil || now.timeIntervalSince(failedAt) >= retryDelay else { return }
        ask()
    }

    /// Under the lock: asks the source on a thread of its own.
    private func ask() {
        isAsking = true
        let thread = Thread { [self] in answer(Result { try source!() }) }
        thread.name = "MSALRedis credentials"
        thread.start()
    }

    private func answer(_ result: Result<MSALRedisCredentials, any Error>) {
        condition.lock()
        isAsking = false
        answeredAt = Date()
        let renewed: Current?
        switch Self.holding(result) {
        case .success(let credentials):
            let now = Date()
            let lifetime = credentials.expiresOn.map { $0.timeIntervalSince(now) }
            renewOn = lifetime.map { now.addingTimeInterval($0 - min(margin, max(0, $0) / 2)) } ?? .distantFuture
            current = Current(credentials: credentials, generation: current.generation + 1)
            failure = nil
            renewed = current.generation > 1 ? current : nil
            if let lifetime { schedule(after: max(0, lifetime - min(margin, max(0, lifetime) / 2)), generation: current.generation) }
        case .failure(let error):
            failure =
                (error as? MSALRedisError)
                ?? MSALRedisError(
                    .authentication,
                    "The Redis credential source failed: \((error as? LocalizedError)?.errorDescription ?? String(describing: error))")
            failedAt = Date()
            renewed = nil
            if current.generation > 0 { schedule(after: retryDelay, generation: current.generation) }
        }
        condition.broadcast()
        condition.unlock()
        if let renewed { onRenewed?(renewed) }
    }

    /// `result`, unless it is credentials that have already expired (asked again at once, they would be again).
    private static func holding(_ result: Result<MSALRedisCredentials, any Error>) -> Result<MSALRedisCredentials, any Error> {
        guard case .success(let credentials) = result, let expiry = credentials.expiresOn, expiry <= Date() else { return result }
        return .failure(MSALRedisError(.authentication, "The Redis credential source gave credentials that expired at \(expiry)"))
    }

    /// Under the lock: asks again after `delay`, unless another answer came meanwhile.
    private func schedule(after delay: TimeInterval, generation: Int) {
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self else { return }
            condition.lock()
            defer { condition.unlock() }
            if current.generation == generation { askIfDue(Date()) }
        }
    }
}
