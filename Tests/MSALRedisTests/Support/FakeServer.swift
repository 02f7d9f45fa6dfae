import Foundation
import MSAL
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback listener that answers every connection with fixed bytes once something arrives:
/// a server that is not Redis, or a Redis that sends what no Redis sends.
final class FakeServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let answer: Locked<[UInt8]>

    init(answer: [UInt8]) throws {
        let answer = Locked(answer)
        self.answer = answer
        let (listener, port) = try SilentServer.loopbackListener(backlog: 8, name: "the fake server")
        (self.listener, self.port) = (listener, port)
        let thread = Thread { [listener, answer] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 4096)
                _ = recv(connection, &buffer, buffer.count, 0)
                _ = answer.withLock { $0 }.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                shutdown(connection, Int32(SHUT_WR))
                usleep(200_000)
                close(connection)
            }
        }
        thread.start()
    }

    /// Answers the next connections with `bytes` instead.
    func answer(with bytes: [UInt8]) { answer.withLock { $0 = bytes } }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
