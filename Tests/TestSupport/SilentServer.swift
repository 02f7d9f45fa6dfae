import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback listener that accepts every connection and then answers only the first chunks it
/// reads, one fixed answer each (none by default, optionally late), and nothing after: a Redis that accepts
/// connections but never answers, or stops answering in the middle of an operation. A connection
/// stays open until the client closes it.
public final class SilentServer: @unchecked Sendable {
    /// The loopback port it listens on.
    public let port: Int
    private let listener: Int32

    /// A listener on a free loopback port; `answers`: what it sends to the first chunks read on
    /// each connection, each `delay` seconds after the chunk came (a slow server).
    public init(answers: [String] = [], delay: TimeInterval = 0) throws {
        let (listener, port) = try Self.loopbackListener(backlog: 16, name: "the silent server")
        (self.listener, self.port) = (listener, port)
        Thread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                Thread {
                    var buffer = [UInt8](repeating: 0, count: 65536)
                    var next = 0
                    defer { close(connection) }
                    while recv(connection, &buffer, buffer.count, 0) > 0 {
                        guard next < answers.count else { continue }
                        let answer = Array(answers[next].utf8)
                        next += 1
                        usleep(UInt32(delay * 1_000_000))
                        _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    }
                }.start()
            }
        }.start()
    }

    /// `redis://127.0.0.1:<port>`.
    public var url: String { "redis://127.0.0.1:\(port)" }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// A TCP socket listening on `port` of loopback (0: a free one), and the port; throws naming `name`.
    public static func loopbackListener(backlog: Int32, name: String, port: Int = 0) throws -> (listener: Int32, port: Int) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var reuse: Int32 = 1
        if port != 0 { setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound, listen(listener, backlog) == 0 else {
            close(listener)
            throw RedisTestError("\(name) cannot listen")
        }
        return (listener, Int(UInt16(bigEndian: address.sin_port)))
    }
}
