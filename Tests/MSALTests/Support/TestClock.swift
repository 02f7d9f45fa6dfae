import Foundation
import Synchronization

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
