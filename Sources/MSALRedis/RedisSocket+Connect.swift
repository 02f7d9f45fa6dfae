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

/// An OpenSSL client context: the CAs to trust, made once per client.
final class TLSContext: @unchecked Sendable {
    private let context: OpaquePointer

    /// Trusts `caFile` (PEM), or the system's store when `nil`.
    init(caFile: String?) throws(MSALRedisError) {
        guard let context = msal_redis_tls_context(caFile) else {
            throw MSALRedisError(
                .invalidConfiguration, caFile == nil ? "The system's CA store cannot be loaded" : "The CA file \(caFile!) cannot be loaded")
        }
        self.context = context
    }

    deinit { SSL_CTX_free(context) }

    /// A TLS session over `descriptor` after a handshake that verified the certificate for `host`.
    func handshake(_ descriptor: Int32, host: String, deadline: Deadline) throws(MSALRedisError) -> OpaquePointer {
        let isIP = host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
        guard let session = msal_redis_tls_session(context, descriptor, host, isIP ? 1 : 0) else {
            throw MSALRedisError(.connectionFailed, "A TLS session for Redis cannot be made")
        }
        while true {
            msal_redis_tls_clear_errors()
            let result = withoutSIGPIPE { SSL_connect(session) }
            if result == 1 { return session }
            let events: Int16
            switch SSL_get_error(session, result) {
            case SSL_ERROR_WANT_READ: events = Int16(POLLIN)
            case SSL_ERROR_WANT_WRITE: events = Int16(POLLOUT)
            default:
                let verify = SSL_get_verify_result(session)
                SSL_free(session)
                if verify != X509_V_OK {
                    let reason = String(cString: X509_verify_cert_error_string(verify))
                    throw MSALRedisError(.tlsCertificate, "The Redis server's certificate was refused for \(host): \(reason)")
                }
                throw MSALRedisError(.connectionFailed, "The TLS handshake with Redis at \(host) failed")
            }
            do {
                try RedisSocket.wait(descriptor, events: events, deadline: deadline)
            } catch {
                SSL_free(session)
                throw error
            }
        }
    }
}
