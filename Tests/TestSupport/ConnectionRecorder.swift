import Foundation
import MSAL

#if canImport(Glibc)
    import Glibc
#endif

/// A listener on a loopback address other than the emulator's (127.0.0.2 by default) that records
/// every connection made to it and the bytes it received, answering each with a plausible JSON
/// success: the "other host" a redirect points at, for tests that check nothing ever reaches it.
package final class ConnectionRecorder: Sendable {
    package let host: String
    package let port: UInt16
    private let listener: Int32
    private let received = Locked<[Data]>([])

    package init(host: String = "127.0.0.2") throws {
        self.host = host
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr(host)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard ready else {
            close(fd)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in serve() }.start()
    }

    /// `http://HOST:PORT` followed by `path`.
    package func url(_ path: String = "/stolen?code=1") -> String { "http://\(host):\(port)\(path)" }

    /// What reached the listener: one entry per connection, the bytes read from it.
    package var connections: [Data] { received.withLock { $0 } }

    /// A description of what reached the listener, for a failed expectation.
    package var report: String {
        connections.map { String(decoding: $0.prefix(200), as: UTF8.self) }.joined(separator: " | ")
    }

    package func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
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
            received.withLock { $0.append(data) }
            let body = #"{"continuation_token":"from-the-other-host","challenge_type":"password"}"#
            let answer =
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
            _ = answer.withCString { send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            close(connection)
        }
    }
}
