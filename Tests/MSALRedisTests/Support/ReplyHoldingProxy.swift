import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback proxy in front of a Redis server that passes commands on at once and holds every
/// reply back until `replies` replies of one CRLF-ended line each (`:1`, `+OK`) have come from the
/// server, then passes them on together: a server that answers late. A client that sends one
/// command at a time and waits for its reply never gets that many replies out of the server, so
/// after `patience` seconds the proxy lets the replies go anyway, and `heldUntilAll` says it did.
final class ReplyHoldingProxy: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let state = State()

    /// What the proxy's threads tell the test (they hold this, not the proxy, whose `deinit` closes the listener).
    private final class State: @unchecked Sendable {
        let lock = NSLock()
        var accepted = 0
        var releasedAll: Bool?
    }

    init(upstreamPort: Int, replies expected: Int, patience: TimeInterval) throws {
        let (listener, port) = try SilentServer.loopbackListener(backlog: 16, name: "the proxy")
        (self.listener, self.port) = (listener, port)
        let state = state
        Thread {
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                let upstream = Self.connect(port: upstreamPort)
                state.lock.lock()
                state.accepted += 1
                state.lock.unlock()
                Thread { Self.pump(from: client, to: upstream) }.start()
                Thread { Self.hold(from: upstream, to: client, expected: expected, patience: patience, state: state) }.start()
            }
        }.start()
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// `redis://127.0.0.1:<port>`.
    var url: String { "redis://127.0.0.1:\(port)" }

    /// How many connections clients made to the proxy.
    var connections: Int {
        state.lock.lock()
        defer { state.lock.unlock() }
        return state.accepted
    }

    /// Whether the first replies were held until all `replies` had come (`nil` before they were let go).
    var heldUntilAll: Bool? {
        state.lock.lock()
        defer { state.lock.unlock() }
        return state.releasedAll
    }

    private static func hold(from upstream: Int32, to client: Int32, expected: Int, patience: TimeInterval, state: State) {
        var timeout = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(upstream, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var held: [UInt8] = []
        var lines = 0
        var firstReply: Date?
        var released = false
        var buffer = [UInt8](repeating: 0, count: 65536)
        defer {
            shutdown(client, Int32(SHUT_RDWR))
            close(upstream)
        }
        while true {
            let count = recv(upstream, &buffer, buffer.count, 0)
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { return }
            if count > 0 {
                held += buffer[0..<count]
                lines += buffer[0..<count].filter { $0 == 10 }.count
                if firstReply == nil { firstReply = Date() }
            }
            if !released, let firstReply, lines >= expected || Date().timeIntervalSince(firstReply) > patience {
                released = true
                state.lock.lock()
                state.releasedAll = lines >= expected
                state.lock.unlock()
            }
            if released && !held.isEmpty {
                _ = held.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                held = []
            }
        }
    }

    private static func pump(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        defer {
            shutdown(destination, Int32(SHUT_WR))
            close(source)
        }
        while true {
            let count = recv(source, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            guard send(destination, buffer, count, Int32(MSG_NOSIGNAL)) == count else { return }
        }
    }

    /// A blocking TCP connection to a loopback port (-1 when refused).
    private static func connect(port: Int) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return connected == 0 ? descriptor : -1
    }
}
