import Foundation

/// Whether `condition` came to hold: polled every `interval` seconds for up to `seconds`, then
/// checked once more after the limit. On a loaded machine a waiting task can be resumed only after
/// its deadline has passed (the two threads of the cooperative pool busy with a thousand other
/// tests), by which time the condition may long have held; the last look keeps such a wait from
/// failing. The limit only ends a wait that would never succeed: it measures nothing. Polls with
/// `Task.sleep`, so no thread of the pool is held meanwhile.
package func waitUntil(seconds: Double, interval: Double = 0.02, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
    }
    return try condition()
}
