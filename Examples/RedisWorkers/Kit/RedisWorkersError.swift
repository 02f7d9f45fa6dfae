import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why a step of the example did not hold: its message is what the output shows. It never holds
/// a code, a token, a saved sign-in's id or a password.
public struct RedisWorkersError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Writes one line to standard output at once (no buffer: a worker's answer must not wait in one).
func say(_ line: String) { write(line, to: 1) }

/// Writes one line to standard error.
func complain(_ line: String) { write(line, to: 2) }

/// `write(2)` until done; an output that was closed (`redis-workers | head`) is not an error here.
/// (FileHandle's `write` stops the program on EPIPE.)
private func write(_ line: String, to descriptor: Int32) {
    let bytes = Array((line + "\n").utf8)
    var written = 0
    while written < bytes.count {
        let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return }
        written += count
    }
}
