import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP listener on a loopback IPv4 address and a free port, for tests that stand in for a server:
/// every connection it accepts goes to `handle` on a thread of its own (a slow one cannot hold up
/// the next), which answers and closes it, until `stop()`. `ConnectionRecorder` and MSALTests'
/// `LoopbackServer` are made of it.
package final class LoopbackTestListener: Sendable {
    package let host: String
    package let port: UInt16
    private let listener: Int32

    /// Binds `host` (an address such as `127.0.0.2`, not a name) on a free port and starts accepting.
    package init(host: String = "127.0.0.1", handle: @escaping @Sendable (_ connection: Int32) -> Void) throws {
        self.host = host
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
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
            let code = POSIXErrorCode(rawValue: errno) ?? .EADDRNOTAVAIL
            close(fd)
            throw POSIXError(code)
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread {
            while true {
                let connection = accept(fd, nil, nil)
                guard connection >= 0 else { return }
                Thread { handle(connection) }.start()
            }
        }.start()
    }

    /// Stops accepting; connections being answered finish on their own threads.
    package func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
