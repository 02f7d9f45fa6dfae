import Foundation
import MSAL

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP proxy on a loopback port in front of Redis that hands each answer to the client `delay`
/// seconds after Redis sent it, as a Redis a few network hops away would: the slow-Redis stage of
/// Benchmarks/msal-benchmarks/RedisScaleWorker.swift. Two threads per connection, one each way;
/// it and its sockets live until the process ends.
final class DelayProxy: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let targetPort: Int
    private let delay: Double

    var url: String { "redis://127.0.0.1:\(port)" }

    init(targetPort: Int, delay: Double) throws {
        self.targetPort = targetPort
        self.delay = delay
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound, listen(listener, 512) == 0 else { throw POSIXError(.EADDRINUSE) }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: targetPort)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard connected else {
                close(client)
                close(server)
                continue
            }
            var noDelay: Int32 = 1
            for descriptor in [client, server] {
                setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            }
            Thread.detachNewThread { [self] in pump(from: client, to: server, delay: 0) }
            Thread.detachNewThread { [self] in pump(from: server, to: client, delay: delay) }
        }
    }

    /// Copies bytes until either side closes; each chunk read is written `delay` after it arrived
    /// (a reader stamps each chunk as it comes, a writer sends it when due: chunks in a stream each
    /// wait `delay` from their own arrival, not one after another).
    private func pump(from source: Int32, to destination: Int32, delay: Double) {
        let queue = NSCondition()
        nonisolated(unsafe) var chunks: [(due: UInt64, bytes: [UInt8])] = []
        nonisolated(unsafe) var ended = false
        Thread.detachNewThread {
            defer { shutdown(source, Int32(SHUT_RD)) }
            while true {
                queue.lock()
                while chunks.isEmpty && !ended { queue.wait() }
                if chunks.isEmpty {
                    queue.unlock()
                    shutdown(destination, Int32(SHUT_WR))
                    return
                }
                let chunk = chunks.removeFirst()
                queue.unlock()
                while case let left = Int64(chunk.due) - Int64(now()), left > 0 { usleep(UInt32(left / 1000)) }
                var sent = 0
                while sent < chunk.bytes.count {
                    let written = chunk.bytes.withUnsafeBytes {
                        send(destination, $0.baseAddress! + sent, chunk.bytes.count - sent, Int32(MSG_NOSIGNAL))
                    }
                    if written < 0, errno == EINTR { continue }
                    guard written > 0 else { return }
                    sent += written
                }
            }
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            queue.lock()
            if count > 0 {
                chunks.append((now() + UInt64(delay * 1e9), Array(buffer[0..<count])))
            } else {
                ended = true
            }
            queue.signal()
            queue.unlock()
            guard count > 0 else { return }
        }
    }
}
