import CRedisTLS
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One non-blocking socket to a server (TCP or unix), optionally under TLS, whose every read and
/// write waits with `poll` until a deadline. Not thread-safe: one thread at a time uses it (the
/// owner of a `MultiplexedConnection`, or a `ChangeTracker`'s thread); only `shutdown()` may come
/// from another.
final class RedisSocket {
    private var descriptor: Int32
    private var tls: OpaquePointer?
    /// Until the server's first bytes after the TLS handshake: its context and host, to tell why
    /// a server that wants another client certificate (TLS 1.3 says so after the handshake) ended it.
    private var awaitingFirstReply: (context: TLSContext, host: String)?

    /// Connects to `endpoint` before `deadline`; with `tlsContext`, also makes the TLS handshake,
    /// verifying the certificate against the context's CAs and `host`.
    init(endpoint: MSALRedisConfiguration.Endpoint, tlsContext: TLSContext?, deadline: Deadline) throws(MSALRedisError) {
        switch endpoint {
        case .unix(let path):
            descriptor = try Self.connectUnix(path, deadline: deadline)
        case .tcp(let host, let port):
            descriptor = try Self.connectTCP(host, port, deadline: deadline)
        case .sentinel:
            throw MSALRedisError(.invalidConfiguration, "A Redis Sentinel endpoint is resolved to its primary before connecting")
        }
        guard let tlsContext, case .tcp(let host, _) = endpoint else { return }
        do {
            tls = try tlsContext.handshake(descriptor, host: host, deadline: deadline)
            awaitingFirstReply = (tlsContext, host)
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    func close() {
        if let tls {
            SSL_free(tls)
            self.tls = nil
        }
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// Shuts the connection down both ways, waking a read or write blocked in another thread. The
    /// descriptor stays open until `close()`, so that this is safe to call from any thread.
    func shutdown() {
        if descriptor >= 0 { _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    /// Sends every byte before `deadline`.
    func write(_ bytes: [UInt8], deadline: Deadline) throws(MSALRedisError) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[sent...])
                if let tls {
                    msal_redis_tls_clear_errors()
                    return Int(withoutSIGPIPE { SSL_write(tls, chunk.baseAddress, Int32(clamping: chunk.count)) })
                }
                return Glibc.send(descriptor, chunk.baseAddress, chunk.count, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                sent += count
                continue
            }
            try waitAfterFailure(count, deadline: deadline, writing: true)
        }
    }

    /// Reads what is available (at least one byte) before `deadline` into `reader`.
    func read(into reader: inout RESPReader, deadline: Deadline) throws(MSALRedisError) {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                if let tls {
                    msal_redis_tls_clear_errors()
                    return Int(withoutSIGPIPE { SSL_read(tls, buffer.baseAddress, Int32(buffer.count)) })
                }
                return Glibc.recv(descriptor, buffer.baseAddress, buffer.count, 0)
            }
            if count > 0 {
                awaitingFirstReply = nil
                chunk.withUnsafeBytes { reader.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                return
            }
            if count == 0 && tls == nil {
                throw MSALRedisError(.connectionFailed, "The Redis server closed the connection")
            }
            try waitAfterFailure(count, deadline: deadline, writing: false)
        }
    }

    /// Whether the connection is no longer usable while idle: the server closed it (a restart, an
    /// idle timeout) or sent something unasked. Checked before a connection is reused.
    var isClosedByPeer: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) != 0
    }

    /// After a read or write returned `result` ≤ 0: waits for the socket when the call would
    /// block, throws otherwise.
    private func waitAfterFailure(_ result: Int, deadline: Deadline, writing: Bool) throws(MSALRedisError) {
        var events = writing ? Int16(POLLOUT) : Int16(POLLIN)
        if let tls {
            switch SSL_get_error(tls, Int32(result)) {
            case SSL_ERROR_WANT_READ: events = Int16(POLLIN)
            case SSL_ERROR_WANT_WRITE: events = Int16(POLLOUT)
            case let code:
                if let (context, host) = awaitingFirstReply {
                    throw context.refusal(host: host, alert: withoutSIGPIPE { msal_redis_tls_received_alert(tls) })
                }
                if code == SSL_ERROR_ZERO_RETURN { throw MSALRedisError(.connectionFailed, "The Redis server closed the TLS connection") }
                throw MSALRedisError(.connectionFailed, "The TLS connection to Redis failed")
            }
        } else {
            let code = errno
            guard code == EAGAIN || code == EWOULDBLOCK || code == EINTR else {
                throw MSALRedisError(.connectionFailed, "The connection to Redis failed: \(String(cString: strerror(code)))")
            }
        }
        try Self.wait(descriptor, events: events, deadline: deadline)
    }

    /// Waits until `descriptor` is ready for `events`, or throws `.timeout` at `deadline`.
    static func wait(_ descriptor: Int32, events: Int16, deadline: Deadline) throws(MSALRedisError) {
        while true {
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, deadline.remainingMilliseconds)
            if ready > 0 { return }
            if ready == 0 { throw MSALRedisError(.timeout, "Redis did not answer within the timeout") }
            if errno != EINTR { throw MSALRedisError(.connectionFailed, "Waiting for Redis failed") }
        }
    }
}

/// Runs `body` (an OpenSSL call, which writes to the socket with `write`, not `send` with
/// `MSG_NOSIGNAL`) with SIGPIPE blocked on this thread, and takes back the SIGPIPE it raised, if
/// any: a server that closed the connection is an error, not the end of the app's process (the
/// default action of SIGPIPE, which a library cannot change for the process).
func withoutSIGPIPE<Result>(_ body: () -> Result) -> Result {
    var pipe = sigset_t()
    sigemptyset(&pipe)
    sigaddset(&pipe, SIGPIPE)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipe, &previous)
    var pending = sigset_t()
    sigpending(&pending)
    let wasPending = sigismember(&pending, SIGPIPE) == 1
    let result = body()
    let error = errno
    if !wasPending {
        sigpending(&pending)
        if sigismember(&pending, SIGPIPE) == 1 {
            var now = timespec()
            _ = sigtimedwait(&pipe, nil, &now)
        }
    }
    pthread_sigmask(SIG_SETMASK, &previous, nil)
    errno = error
    return result
}
