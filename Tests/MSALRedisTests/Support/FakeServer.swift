import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback listener that answers every connection with fixed bytes once something arrives:
/// a server that is not Redis, or a Redis that sends what no Redis sends.
final class FakeServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let answer: [UInt8]

    init(answer: [UInt8]) throws {
        self.answer = answer
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound, listen(listener, 8) == 0 else { throw RedisTestError("the fake server cannot listen") }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [listener, answer] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 4096)
                _ = recv(connection, &buffer, buffer.count, 0)
                _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                shutdown(connection, Int32(SHUT_WR))
                usleep(200_000)
                close(connection)
            }
        }
        thread.start()
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
