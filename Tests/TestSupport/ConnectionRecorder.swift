import Foundation
import MSAL

#if canImport(Glibc)
    import Glibc
#endif

/// A listener on a loopback address other than the emulator's (127.0.0.2 by default) that records
/// every connection made to it and the bytes it received, answering each with a plausible JSON
/// success: the "other host" a redirect points at, for tests that check nothing ever reaches it.
package final class ConnectionRecorder: Sendable {
    package var host: String { listener.host }
    package var port: UInt16 { listener.port }
    private let listener: LoopbackTestListener
    private let received: Locked<[Data]>

    package init(host: String = "127.0.0.2") throws {
        let received = Locked<[Data]>([])
        self.received = received
        listener = try LoopbackTestListener(host: host) { connection in
            received.withLock { $0.append(Self.read(connection)) }
            let body = #"{"continuation_token":"from-the-other-host","challenge_type":"password"}"#
            let answer =
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
            _ = answer.withCString { send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            close(connection)
        }
    }

    /// `http://HOST:PORT` followed by `path`.
    package func url(_ path: String = "/stolen?code=1") -> String { "http://\(host):\(port)\(path)" }

    /// What reached the listener: one entry per connection, the bytes read from it.
    package var connections: [Data] { received.withLock { $0 } }

    /// A description of what reached the listener, for a failed expectation.
    package var report: String {
        connections.map { String(decoding: $0.prefix(200), as: UTF8.self) }.joined(separator: " | ")
    }

    package func stop() { listener.stop() }

    /// The head of a request (up to 64 KiB), or what came before the client went quiet for 0.3 s.
    private static func read(_ connection: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var timeout = timeval(tv_sec: 0, tv_usec: 300_000)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        while data.count < 1 << 16 {
            let count = recv(connection, &buffer, buffer.count, 0)
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
            if data.range(of: Data("\r\n\r\n".utf8)) != nil { break }
        }
        return data
    }
}
