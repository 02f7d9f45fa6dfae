import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A raw HTTP client for the loopback listener tests: sends exactly the bytes given (a POST, an
/// oversized head, nothing at all) to 127.0.0.1 or ::1 and reads until the server closes. The
/// blocking calls run on a thread of their own, never on Swift's cooperative pool.
struct LoopbackTestClient {
    /// How long a test's listener waits for its redirect: long enough for a whole suite running on
    /// two busy cores, where a test's few requests have taken more than 10 s. A passing test never
    /// waits it out: the listener returns as soon as the redirect comes.
    static let patience: TimeInterval = 120

    enum Family {
        case ipv4
        case ipv6
    }

    /// An open connection; `close()` it.
    final class Connection: Sendable {
        let descriptor: Int32
        init(descriptor: Int32) { self.descriptor = descriptor }

        func send(_ text: String) {
            let bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes {
                    Glibc.send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                }
                if written <= 0 { return }
                offset += written
            }
        }

        /// Everything until the server closes (or 5 s pass); nil when the read fails.
        func readToEnd() -> String? {
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var data: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count == 0 { return String(decoding: data, as: UTF8.self) }
                if count < 0 { return data.isEmpty ? nil : String(decoding: data, as: UTF8.self) }
                data += buffer[0..<count]
            }
        }

        func close() { _ = Glibc.close(descriptor) }

        /// The port this end of the connection was given.
        var localPort: UInt16 {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            let family = Int32(address.ss_family)
            return withUnsafeBytes(of: &address) { raw in
                family == AF_INET6
                    ? UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
                    : UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
            }
        }
    }

    struct ConnectFailed: Error {
        var operation = "connect"
        let errno: Int32
    }

    /// Connects to the loopback address of `family` on `port` (blocking; loopback connects at once).
    static func connect(port: UInt16, family: Family = .ipv4) throws -> Connection {
        let descriptor = socket(family == .ipv4 ? AF_INET : AF_INET6, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ConnectFailed(errno: errno) }
        var storage = sockaddr_storage()
        let length: socklen_t
        if family == .ipv4 {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in.self) }
        } else {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &address.sin6_addr) { $0[15] = 1 }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in6.self) }
        }
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, length) }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw ConnectFailed(errno: code)
        }
        return Connection(descriptor: descriptor)
    }

    /// Sends `request` and returns the whole answer, off the cooperative pool.
    static func exchange(_ request: String, port: UInt16, family: Family = .ipv4) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                do {
                    let connection = try connect(port: port, family: family)
                    defer { connection.close() }
                    connection.send(request)
                    continuation.resume(returning: connection.readToEnd() ?? "")
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }

    /// `GET target` with the headers a browser would send.
    static func get(_ target: String, port: UInt16, family: Family = .ipv4) async throws -> String {
        try await exchange(getRequest(target, port: port), port: port, family: family)
    }

    /// The request line and the headers a browser would send.
    static func getRequest(_ target: String, port: UInt16) -> String {
        "GET \(target) HTTP/1.1\r\nHost: localhost:\(port)\r\nUser-Agent: test\r\nAccept: text/html\r\n\r\n"
    }

    /// An answer on its way: the exchange runs on a thread started at once.
    final class PendingAnswer: @unchecked Sendable {
        private let lock = NSLock()
        private var answer: String??
        private var waiter: CheckedContinuation<String?, Never>?

        fileprivate func finish(_ text: String?) {
            lock.withLock {
                if let waiter { waiter.resume(returning: text) } else { answer = .some(text) }
                waiter = nil
            }
        }

        /// The whole answer, or nil when the exchange failed.
        var value: String? {
            get async {
                await withCheckedContinuation { continuation in
                    lock.withLock {
                        if let answer { continuation.resume(returning: answer) } else { waiter = continuation }
                    }
                }
            }
        }
    }

    /// `GET target`, started now on a thread of its own, as a browser in another process would
    /// send it. A `Task` would start only when the cooperative pool reaches it: under load, behind a
    /// thousand other tests, that came after the listener's 120 s had passed.
    static func startGet(_ target: String, port: UInt16) -> PendingAnswer {
        let pending = PendingAnswer()
        Thread {
            guard let connection = try? connect(port: port) else { return pending.finish(nil) }
            defer { connection.close() }
            connection.send(getRequest(target, port: port))
            pending.finish(connection.readToEnd())
        }.start()
        return pending
    }

    /// Whether this machine can bind ::1 (some containers have no IPv6 loopback).
    static let ipv6LoopbackAvailable: Bool = {
        let descriptor = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { Glibc.close(descriptor) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        withUnsafeMutableBytes(of: &address.sin6_addr) { $0[15] = 1 }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0 }
        }
    }()

    /// A socket listening on 127.0.0.1 at a free port, with no thread accepting on it (unlike
    /// `LoopbackServer`, whose thread could, after `stop()`, accept on a reused descriptor
    /// number belonging to another test). Close the descriptor to release the port.
    /// `port` 0 lets the kernel choose one from its ephemeral range.
    static func squat(port: UInt16 = 0) throws -> (port: UInt16, descriptor: Int32) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ConnectFailed(errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 1) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard ok else {
            let code = errno
            Glibc.close(descriptor)
            throw ConnectFailed(errno: code)
        }
        return (UInt16(bigEndian: address.sin_port), descriptor)
    }

    /// A port that is free now and below the kernel's ephemeral range, so that no listener of
    /// another test (they all ask for port 0) can be given it before the caller binds it again.
    static func freePortBelowTheEphemeralRange() throws -> UInt16 {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let first = range.split(whereSeparator: \.isWhitespace).first.flatMap { UInt16($0) } ?? 32768
        let candidates = (min(first, 20_000) / 2)..<min(first, 20_000)
        for _ in 0..<50 {
            guard let (port, descriptor) = try? squat(port: UInt16.random(in: candidates)) else { continue }
            Glibc.close(descriptor)
            return port
        }
        throw ConnectFailed(errno: EADDRINUSE)
    }

    /// An address of one of this machine's interfaces, with a port to fill in.
    struct InterfaceAddress: CustomStringConvertible {
        var storage: sockaddr_storage
        var length: socklen_t
        var family: Int32
        var text: String
        var interface: String
        var description: String { "\(text) (\(interface))" }

        /// The same address with `port`.
        func with(port: UInt16) -> InterfaceAddress {
            var copy = self
            withUnsafeMutableBytes(of: &copy.storage) { raw in
                if family == AF_INET6 {
                    var address = raw.load(as: sockaddr_in6.self)
                    address.sin6_port = port.bigEndian
                    raw.storeBytes(of: address, as: sockaddr_in6.self)
                } else {
                    var address = raw.load(as: sockaddr_in.self)
                    address.sin_port = port.bigEndian
                    raw.storeBytes(of: address, as: sockaddr_in.self)
                }
            }
            return copy
        }
    }

    /// This machine's own addresses on interfaces that are up and not loopback (IPv4 and IPv6,
    /// link-local ones with their scope), from getifaddrs(3). Connecting to them stays on this
    /// machine.
    static let nonLoopbackAddresses: [InterfaceAddress] = {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var found: [InterfaceAddress] = []
        var cursor = list
        while let entry = cursor?.pointee {
            cursor = entry.ifa_next
            let flags = Int32(entry.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0, let address = entry.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var storage = sockaddr_storage()
            let length = family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size
            withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: address, count: length)) }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            withUnsafeBytes(of: &storage) { raw in
                if family == AF_INET6 {
                    var bytes = raw.load(as: sockaddr_in6.self).sin6_addr
                    _ = inet_ntop(family, &bytes, &text, socklen_t(text.count))
                } else {
                    var bytes = raw.load(as: sockaddr_in.self).sin_addr
                    _ = inet_ntop(family, &bytes, &text, socklen_t(text.count))
                }
            }
            found.append(
                InterfaceAddress(
                    storage: storage, length: socklen_t(length), family: family,
                    text: text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, interface: String(cString: entry.ifa_name)))
        }
        return found
    }()

    /// Connects from `address` (port chosen by the system) to `address` on `port`, as a peer on
    /// that network would arrive; never leaves the machine, the address being its own.
    static func connect(to address: InterfaceAddress, port: UInt16) throws -> Connection {
        let descriptor = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ConnectFailed(errno: errno) }
        var source = address.with(port: 0).storage
        var target = address.with(port: port).storage
        let result: ConnectFailed? = withUnsafePointer(to: &source) { source in
            withUnsafePointer(to: &target) { target in
                source.withMemoryRebound(to: sockaddr.self, capacity: 1) { source in
                    target.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                        if bind(descriptor, source, address.length) != 0 { return ConnectFailed(operation: "bind", errno: errno) }
                        if Glibc.connect(descriptor, target, address.length) != 0 { return ConnectFailed(errno: errno) }
                        return nil
                    }
                }
            }
        }
        if let result {
            Glibc.close(descriptor)
            throw result
        }
        return Connection(descriptor: descriptor)
    }
}
