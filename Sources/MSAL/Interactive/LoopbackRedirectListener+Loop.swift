import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The loopback listener's thread: one `poll(2)` loop over the listening sockets, the wake pipe and
/// the open connections, reading request heads and writing the answers.
extension LoopbackRedirectListener {
    /// One accepted connection.
    private struct Connection {
        enum Phase {
            /// Reading the request head.
            case reading
            /// Answered and shut down for writing; reading what the client still sends so that
            /// closing does not reset the connection before it has read the answer.
            case draining
        }

        var descriptor: Int32
        var received: [UInt8] = []
        var deadline: Double
        var phase = Phase.reading
    }

    /// The thread's loop; owns every socket and closes them all before delivering the outcome.
    final class Loop: Sendable {
        let core: Core
        let listeners: [Int32]
        let wakeRead: Int32
        let requestPath: String
        let shortAddressPath: String
        let expectedState: String
        /// The app's result pages, if any.
        let pages: ResultPages
        let readTimeout: Double
        let headerLimit: Int
        let descriptorOpened: DescriptorObserver?
        /// More connections at once than a browser opens; beyond this the oldest is dropped for each new one.
        static let maxConnections = 32
        /// How long an answered connection may take to close its side.
        static let drainTime = 1.0

        init(
            core: Core, listeners: [Int32], wakeRead: Int32, requestPath: String, shortAddressPath: String, expectedState: String,
            pages: ResultPages, readTimeout: Double, headerLimit: Int, descriptorOpened: DescriptorObserver?
        ) {
            self.core = core
            self.listeners = listeners
            self.wakeRead = wakeRead
            self.requestPath = requestPath
            self.shortAddressPath = shortAddressPath
            self.expectedState = expectedState
            self.pages = pages
            self.readTimeout = readTimeout
            self.headerLimit = headerLimit
            self.descriptorOpened = descriptorOpened
        }

        func run() {
            var connections: [Connection] = []
            let result = serve(&connections)
            // Before anything closes or the outcome is delivered: the short address is over.
            core.end()
            for connection in connections { close(connection.descriptor) }
            for listener in listeners { close(listener) }
            core.closeWakePipe(read: wakeRead)
            core.outcome.resume(result)
        }

        private func serve(_ connections: inout [Connection]) -> Result<AuthorizationResponse, InteractiveAuthorizationError> {
            var acceptPausedUntil = 0.0
            while true {
                let (stopReason, deadline, timeout, mismatch) = core.withState {
                    ($0.stopReason, $0.deadline, $0.timeout, $0.stateMismatchSeen)
                }
                if let stopReason { return .failure(.cancelled(stopReason)) }
                let now = monotonicNow()
                if let deadline, now >= deadline {
                    return .failure(mismatch ? .stateMismatch : .cancelled(.timedOut(seconds: timeout)))
                }
                connections.removeAll { connection in
                    guard now >= connection.deadline else { return false }
                    close(connection.descriptor)
                    return true
                }

                var descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
                let accepting = now >= acceptPausedUntil
                if accepting {
                    descriptors += listeners.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
                }
                descriptors += connections.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
                var wakeAt = ([deadline].compactMap { $0 } + connections.map(\.deadline)).min()
                if !accepting { wakeAt = min(wakeAt ?? acceptPausedUntil, acceptPausedUntil) }
                // Clamped before converting: an infinite timeout must not trap in Int32(_:).
                let milliseconds = wakeAt.map { Int32(min(max(0, ($0 - now) * 1000), Double(Int32.max)).rounded(.up)) } ?? -1

                let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return .failure(.listenerFailed(operation: "poll", errno: errno))
                }
                if descriptors[0].revents != 0 { drainWakePipe() }

                var index = 1
                if accepting {
                    for _ in listeners {
                        if descriptors[index].revents != 0, !acceptAll(descriptors[index].fd, into: &connections) {
                            acceptPausedUntil = monotonicNow() + 0.1
                        }
                        index += 1
                    }
                }
                let polledConnections = descriptors[index...].filter { $0.revents != 0 }.map(\.fd)
                for descriptor in polledConnections {
                    guard let position = connections.firstIndex(where: { $0.descriptor == descriptor }) else { continue }
                    if let response = service(&connections[position]) {
                        return .success(response)
                    }
                    if connections[position].descriptor < 0 { connections.remove(at: position) }
                }
            }
        }

        private func drainWakePipe() {
            var buffer = [UInt8](repeating: 0, count: 64)
            while read(wakeRead, &buffer, buffer.count) > 0 {}
        }

        /// Accepts every pending connection; false when out of descriptors (accepting pauses briefly).
        private func acceptAll(_ listener: Int32, into connections: inout [Connection]) -> Bool {
            while true {
                let descriptor = acceptCloseOnExec(listener)
                if descriptor < 0 {
                    switch errno {
                    case EINTR, ECONNABORTED: continue
                    case EMFILE, ENFILE, ENOBUFS, ENOMEM: return false
                    default: return true
                    }
                }
                descriptorOpened?(descriptor)
                if connections.count >= Self.maxConnections {
                    // Full (a local program holding idle connections, say): the oldest goes, so
                    // that the browser's redirect still gets in.
                    close(connections.removeFirst().descriptor)
                }
                connections.append(Connection(descriptor: descriptor, deadline: monotonicNow() + readTimeout))
            }
        }

        /// Reads what `connection` sent and answers it once its head is complete. Returns the
        /// response that ends the wait; sets the descriptor to -1 once it is closed.
        private func service(_ connection: inout Connection) -> AuthorizationResponse? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(connection.descriptor, &buffer, buffer.count, 0)
                if count < 0, errno == EINTR { continue }
                if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return nil }
                if count <= 0 {
                    close(connection.descriptor)
                    connection.descriptor = -1
                    return nil
                }
                if connection.phase == .draining { continue }
                connection.received += buffer[0..<count]
                if let end = headEnd(connection.received) {
                    let head = String(decoding: connection.received[..<end], as: UTF8.self)
                    return answer(head, on: &connection)
                }
                if connection.received.count > headerLimit {
                    finish(&connection, Self.page(status: 431, reason: "Request Header Fields Too Large", text: "Request header too large"))
                    return nil
                }
            }
        }

        private func headEnd(_ bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            for index in 0...(min(bytes.count, headerLimit + 4) - 4)
            where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                return index
            }
            return nil
        }

        private func answer(_ head: String, on connection: inout Connection) -> AuthorizationResponse? {
            switch LoopbackRedirectListener.route(
                head, requestPath: requestPath, shortAddressPath: shortAddressPath, expectedState: expectedState)
            {
            case .notFound:
                finish(&connection, Self.page(status: 404, reason: "Not Found", text: "Not found"))
            case .badRequest:
                finish(&connection, Self.page(status: 400, reason: "Bad Request", text: "Bad request"))
            case .stateMismatch:
                core.withState { $0.stateMismatchSeen = true }
                finish(&connection, Self.page(status: 400, reason: "Bad Request", text: "State mismatch"))
            case .shortAddress:
                // Read under the lock: nil before the URL is offered and once the wait is over.
                guard let target = core.withState({ $0.shortAddressTarget }) else {
                    finish(&connection, Self.page(status: 404, reason: "Not Found", text: "No sign-in is waiting here"))
                    return nil
                }
                finish(&connection, Self.redirect(to: target))
            case .foreignHost:
                finish(&connection, Self.page(status: 403, reason: "Forbidden", text: "Open this address as localhost"))
            case .response(let response):
                send(connection.descriptor, LoopbackRedirectListener.resultPage(for: response, pages: pages))
                shutdown(connection.descriptor, Int32(SHUT_WR))
                return response
            }
            return nil
        }

        /// Sends `bytes`, shuts the write side and lets the client close first.
        private func finish(_ connection: inout Connection, _ bytes: [UInt8]) {
            send(connection.descriptor, bytes)
            shutdown(connection.descriptor, Int32(SHUT_WR))
            connection.phase = .draining
            connection.deadline = monotonicNow() + Self.drainTime
        }

        /// Writes all of `bytes` to a non-blocking socket, waiting up to a second for room.
        private func send(_ descriptor: Int32, _ bytes: [UInt8]) {
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes {
                    Glibc.send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                }
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                    var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    guard poll(&waiting, 1, 1000) > 0 else { return }
                } else {
                    return
                }
            }
        }

        static func page(status: Int, reason: String, text: String) -> [UInt8] {
            let body =
                "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>\(HTMLText.escape(text))</title></head>"
                + "<body><p>\(HTMLText.escape(text))</p></body></html>\n"
            return http(status: status, reason: reason, body: body)
        }

        /// `302 Found` to `target`, with a link to it for a client that does not follow redirects.
        /// (Foundation's `URL` percent-encodes every space, control and non-ASCII character, so the
        /// text is safe in a header.)
        static func redirect(to target: URL) -> [UInt8] {
            let location = target.absoluteString
            let body =
                "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Sign in</title></head>"
                + "<body><p><a href=\"\(HTMLText.escape(location))\">Continue to sign in</a></p></body></html>\n"
            return http(status: 302, reason: "Found", body: body, extraHeaders: "Location: \(location)\r\n")
        }

        /// An answer with the listener's headers (`text/html`, `no-store`, `no-referrer`, `Connection: close`).
        static func http(status: Int, reason: String, body: String, extraHeaders: String = "") -> [UInt8] {
            let head =
                "HTTP/1.1 \(status) \(reason)\r\n" + extraHeaders + "Content-Type: text/html; charset=utf-8\r\n"
                + "Content-Length: \(body.utf8.count)\r\n"
                + "Cache-Control: no-store\r\n" + "Referrer-Policy: no-referrer\r\n" + "Connection: close\r\n\r\n"
            return Array((head + body).utf8)
        }
    }
}

/// `accept4(2)`, which Swift's Glibc module does not export (it is a GNU extension), looked up once.
private typealias Accept4 = @convention(c) (Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32) -> Int32
private let accept4Function: Accept4? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "accept4").map { unsafeBitCast($0, to: Accept4.self) }

/// Accepts a connection that is non-blocking and close-on-exec from the start, so that a browser
/// spawned meanwhile never inherits it. Falls back to `accept` + `fcntl` without `accept4`.
private func acceptCloseOnExec(_ listener: Int32) -> Int32 {
    if let accept4Function {
        return accept4Function(listener, nil, nil, Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue))
    }
    let descriptor = accept(listener, nil, nil)
    if descriptor >= 0 {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }
    return descriptor
}

/// Seconds on the monotonic clock (unaffected by changes of the wall clock).
func monotonicNow() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
}
