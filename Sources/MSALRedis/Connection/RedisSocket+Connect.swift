import CRedisTLS
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension RedisSocket {
    /// A connected, non-blocking TCP socket to the first address of `host` that answers before `deadline`.
    static func connectTCP(_ host: String, _ port: Int, deadline: Deadline) throws(MSALRedisError) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw MSALRedisError(.connectionFailed, "The Redis host \(host) cannot be resolved")
        }
        defer { freeaddrinfo(list) }
        var failure = MSALRedisError(.connectionFailed, "No address of \(host) answered")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            do {
                let descriptor = try connect(
                    family: address.pointee.ai_family, address: address.pointee.ai_addr, length: address.pointee.ai_addrlen,
                    deadline: deadline, place: "\(host) port \(port)")
                var one: Int32 = 1
                setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return descriptor
            } catch {
                failure = error
                if error.code == .timeout { throw error }
            }
            entry = address.pointee.ai_next
        }
        throw failure
    }

    /// A connected, non-blocking unix-domain socket to `path`.
    static func connectUnix(_ path: String, deadline: Deadline) throws(MSALRedisError) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw MSALRedisError(.invalidConfiguration, "The unix socket path is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        return try withUnsafePointer(to: &address) { pointer throws(MSALRedisError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw throws(MSALRedisError) in
                try connect(
                    family: AF_UNIX, address: raw, length: socklen_t(MemoryLayout<sockaddr_un>.size), deadline: deadline,
                    place: "unix socket \(path)")
            }
        }
    }

    private static func connect(
        family: Int32, address: UnsafePointer<sockaddr>?, length: socklen_t, deadline: Deadline, place: String
    ) throws(MSALRedisError) -> Int32 {
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw MSALRedisError(.connectionFailed, "No socket for Redis: \(String(cString: strerror(errno)))") }
        if Glibc.connect(descriptor, address, length) != 0 {
            guard errno == EINPROGRESS || errno == EAGAIN else {
                let reason = String(cString: strerror(errno))
                Glibc.close(descriptor)
                throw MSALRedisError(.connectionFailed, "Redis at \(place) cannot be reached: \(reason)")
            }
            do {
                try wait(descriptor, events: Int16(POLLOUT), deadline: deadline)
            } catch {
                Glibc.close(descriptor)
                throw error.code == .timeout ? MSALRedisError(.timeout, "Connecting to Redis at \(place) timed out") : error
            }
            var code: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &size)
            guard code == 0 else {
                Glibc.close(descriptor)
                throw MSALRedisError(.connectionFailed, "Redis at \(place) cannot be reached: \(String(cString: strerror(code)))")
            }
        }
        return descriptor
    }
}
