import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Everything the example must undo before it exits (end redis-server and the workers, remove the
/// temporary directory), and the one way out of the program: `Cleanup.exit(_:)`, which runs it on
/// every path, a failed step as well as SIGINT or SIGTERM.
public enum Cleanup {
    private struct Registry {
        var actions: [@Sendable () -> Void] = []
        /// Set by the first `exit`: nothing new is started after it.
        var closed = false
    }
    private static let registry = Mutex(Registry())
    /// Taken by the first `exit` and never given back: a second caller (a failed step noticing
    /// the workers a Ctrl-C just ended) waits while the first ends the program.
    private static let leaving = Mutex(false)

    /// Runs `start` (which starts something) and registers `undo` for what it returns, both under
    /// the registry's lock, so that a signal arriving meanwhile cannot miss it.
    static func register<T: Sendable>(_ start: () throws(RedisWorkersError) -> T, undo: @escaping @Sendable (T) -> Void)
        throws(RedisWorkersError)
        -> T
    {
        let result = registry.withLock { registry -> Result<T, RedisWorkersError> in
            guard !registry.closed else { return .failure(RedisWorkersError("stopping")) }
            do throws(RedisWorkersError) {
                let value = try start()
                registry.actions.append { undo(value) }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Undoes everything registered, newest first, and exits with `status`.
    public static func exit(_ status: Int32) -> Never {
        let first = leaving.withLock { leaving -> Bool in
            defer { leaving = true }
            return !leaving
        }
        guard first else {
            while true { pause() }
        }
        let actions = registry.withLock { registry -> [@Sendable () -> Void] in
            registry.closed = true
            return registry.actions
        }
        for action in actions.reversed() { action() }
        Glibc.exit(status)
    }

    /// SIGINT (Ctrl-C) and SIGTERM end the example through `exit` (status 128 + the signal), and
    /// SIGPIPE is ignored (a worker that died is noticed by its closed pipe, not by a signal).
    public static func handleSignals() {
        signal(SIGPIPE, SIG_IGN)
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                complain("redis-workers: \(number == SIGINT ? "interrupted" : "terminated"), stopping")
                exit(128 + number)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The signal sources, kept for the life of the program (written once, at start, by `handleSignals`).
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
}
