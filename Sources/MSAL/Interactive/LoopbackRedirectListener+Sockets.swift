import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Binding the loopback listener's sockets: `127.0.0.1` and, on the same port, `::1`.
extension LoopbackRedirectListener {
    /// Bound and listening sockets, and their common port.
    struct BoundSockets {
        var descriptors: [Int32]
        var port: UInt16
    }

    /// How many times a free port is drawn again when `::1` has it taken while `127.0.0.1` does not.
    private static let ephemeralAttempts = 8

    /// Binds `endpoint`'s sockets; `opened` is told of each socket made, bound or not.
    static func bind(_ endpoint: Endpoint, opened: DescriptorObserver?) throws(InteractiveAuthorizationError) -> BoundSockets {
        let requiresIPv6 = endpoint.host == "[::1]"
        var attempts = 0
        while true {
            attempts += 1
            let (v4, port) = try listen(family: AF_INET, port: endpoint.port, requested: endpoint.port, opened: opened)
            do throws(InteractiveAuthorizationError) {
                let (v6, _) = try listen(family: AF_INET6, port: port, requested: endpoint.port, opened: opened)
                return BoundSockets(descriptors: [v4, v6], port: port)
            } catch .listenerFailed(_, let code) where !requiresIPv6 && [EAFNOSUPPORT, EADDRNOTAVAIL].contains(code) {
                // No IPv6 loopback on this machine: 127.0.0.1 alone.
                return BoundSockets(descriptors: [v4], port: port)
            } catch .portUnavailable where endpoint.port == 0 && attempts < ephemeralAttempts {
                // Another program holds this port on ::1 only; a browser resolving localhost to ::1
                // would reach it, so draw another port rather than share.
                close(v4)
            } catch {
                close(v4)
                throw error
            }
        }
    }

    /// The local address of a bound socket in text (`127.0.0.1`, `::1`), or `?` if it cannot be read.
    static func localAddress(of descriptor: Int32) -> String {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) == 0 }
        }
        guard named else { return "?" }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = Int32(storage.ss_family)
        let written = withUnsafeBytes(of: &storage) { raw -> Bool in
            if family == AF_INET6 {
                var address = raw.load(as: sockaddr_in6.self).sin6_addr
                return inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil
            }
            var address = raw.load(as: sockaddr_in.self).sin_addr
            return inet_ntop(AF_INET, &address, &text, socklen_t(text.count)) != nil
        }
        return written ? text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : "?"
    }

    /// One listening socket on the loopback address of `family`.
    private static func listen(
        family: Int32, port: UInt16, requested: UInt16, opened: DescriptorObserver?
    ) throws(InteractiveAuthorizationError) -> (Int32, UInt16) {
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw .listenerFailed(operation: "socket", errno: errno) }
        opened?(descriptor)
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var storage = sockaddr_storage()
        var length: socklen_t
        if family == AF_INET6 {
            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &yes, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &address.sin6_addr) { $0[15] = 1 } // ::1
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in6.self) }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian // 127.0.0.1
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in.self) }
        }
        let failure: (operation: String, code: Int32)? = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                if Glibc.bind(descriptor, address, length) != 0 { return ("bind", errno) }
                if Glibc.listen(descriptor, 16) != 0 { return ("listen", errno) }
                if getsockname(descriptor, address, &length) != 0 { return ("getsockname", errno) }
                return nil
            }
        }
        if let failure {
            close(descriptor)
            if failure.code == EADDRINUSE { throw .portUnavailable(port: requested == 0 ? port : requested) }
            throw .listenerFailed(operation: failure.operation, errno: failure.code)
        }
        let boundPort = withUnsafeBytes(of: &storage) { raw in
            family == AF_INET6
                ? UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port) : UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
        }
        return (descriptor, boundPort)
    }
}
