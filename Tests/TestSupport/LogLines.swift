import MSAL

/// The lines an SDK log callback delivered, from any thread.
package final class LogLines: Sendable {
    private let lines = Locked<[String]>([])
    package init() {}
    package func append(_ line: String) { lines.withLock { $0.append(line) } }
    package var all: [String] { lines.withLock { $0 } }
}
