import Foundation

@testable import MSAL

/// A clock that never sleeps: it records each requested pause and advances its own time instead.
final class TestClock: NativeAuthClock {
    private let state = Locked((now: Date(timeIntervalSince1970: 1_800_000_000), sleeps: [Double]()))

    func now() -> Date { state.withLock { $0.now } }

    func sleep(seconds: Double) async throws {
        try Task.checkCancellation()
        state.withLock {
            $0.sleeps.append(seconds)
            $0.now += seconds
        }
    }

    var sleeps: [Double] { state.withLock { $0.sleeps } }
}

/// Collects log lines for assertions.
final class LogCapture: Sendable {
    private let lines = LineBox()
    let config = MSALLoggerConfig()

    init(level: MSALLogLevel = .verbose, pii: Bool = false) {
        config.logLevel = level
        config.piiEnabled = pii
        let lines = self.lines
        config.setLogCallback { level, message, _ in
            lines.append("[\(level)] \(message ?? "")")
        }
    }

    var all: [String] { lines.all }
    var text: String { all.joined(separator: "\n") }
}

final class LineBox: Sendable {
    private let lines = Locked<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// Runs blocking work (waiting for a child process, reading its pipe to the end) on a thread of its
/// own, so that it holds none of the cooperative pool's threads (two on this machine), which the
/// other tests' tasks need meanwhile.
func offThePool<T: Sendable>(_ body: @escaping () throws -> T) async throws -> T {
    nonisolated(unsafe) let work = body
    return try await withCheckedThrowingContinuation { continuation in
        Thread {
            do {
                continuation.resume(returning: try work())
            } catch {
                continuation.resume(throwing: error)
            }
        }.start()
    }
}
