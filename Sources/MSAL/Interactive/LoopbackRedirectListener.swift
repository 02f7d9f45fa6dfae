import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The loopback HTTP listener that receives the browser's redirect (RFC 8252 §7.3, spec §5.1).
///
/// Foundation on Linux has no server API, so this file speaks just enough HTTP/1.1 over Glibc
/// sockets: it binds `127.0.0.1` and, on the same port, `::1` when the machine has it; accepts
/// connections until one valid redirect arrives; answers each with `Connection: close`. All socket
/// work runs on one dedicated thread around `poll(2)`, with a pipe to wake it for `cancel()`, so
/// no Swift concurrency thread ever blocks. Every descriptor is `O_CLOEXEC` (a browser started
/// meanwhile must not inherit the port) and all are closed before `waitForResponse` returns.
///
/// Requests: only `GET` on the redirect path (`/` when the redirect URI has none); anything else is
/// a 404 and the listener keeps going (browsers ask for `/favicon.ico`). A query with `code` or
/// `error` is a response. With the expected `state` it gets the result page and ends the wait;
/// with a missing or different `state` it gets 400 "State mismatch" and the listener keeps
/// listening (a forged request must not abort the real sign-in), remembering it so that a timeout
/// is then reported as `.stateMismatch`.
///
/// ```swift
/// let listener = try LoopbackRedirectListener(redirectURI: nil, expectedState: secrets.state)
/// let redirectURI = try listener.start()          // http://localhost:43123
/// // … open the authorize URL with redirect_uri = redirectURI …
/// let response = try await listener.waitForResponse(timeout: 300)
/// ```
package final class LoopbackRedirectListener: Sendable {
    /// Text of the page shown after a successful redirect.
    package static let successText = "Authentication completed. You can close this window now."

    /// What the redirect URI asks for, once validated.
    package struct Endpoint: Sendable, Equatable {
        /// `localhost`, `127.0.0.1` or `[::1]`, as written (the token request must repeat it).
        package var host: String
        /// 0 for "any free port".
        package var port: UInt16
        /// The path as written, possibly empty.
        package var path: String

        /// The path requests must use: `/` when the URI has none (Entra appends it).
        package var requestPath: String { path.isEmpty ? "/" : path }
    }

    private let endpoint: Endpoint
    private let expectedState: String
    private let readTimeout: Double
    private let headerLimit: Int
    private let core = Core()

    /// A listener for `redirectURI` (nil means `http://localhost` on a free port), not yet bound.
    ///
    /// - Parameters:
    ///   - expectedState: the `state` of the authorize request; only a redirect carrying it ends the wait.
    ///   - readTimeout: how long one connection may take to send its request head (10 s).
    ///   - headerLimit: the largest request head accepted, in bytes (8 KiB).
    /// - Throws: `.invalidRedirectURI` unless the URI is `http://localhost[:port][/path]`,
    ///   `http://127.0.0.1…` or `http://[::1]…` without query, fragment or user.
    package init(redirectURI: URL?, expectedState: String, readTimeout: Double = 10, headerLimit: Int = 8 * 1024)
        throws(InteractiveAuthorizationError)
    {
        self.endpoint = try Self.endpoint(for: redirectURI)
        self.expectedState = expectedState
        self.readTimeout = readTimeout
        self.headerLimit = headerLimit
    }

    deinit {
        core.stop(.cancelCalled)
    }

    /// Validates a redirect URI for the loopback listener (spec §5.1).
    package static func endpoint(for redirectURI: URL?) throws(InteractiveAuthorizationError) -> Endpoint {
        guard let redirectURI else { return Endpoint(host: "localhost", port: 0, path: "") }
        let text = redirectURI.absoluteString
        guard let components = URLComponents(url: redirectURI, resolvingAgainstBaseURL: false),
            components.scheme?.lowercased() == "http", let host = components.host?.lowercased(),
            components.user == nil, components.password == nil, components.query == nil, components.fragment == nil
        else {
            throw .invalidRedirectURI("the redirect URI \(text) is not http://localhost[:port][/path]")
        }
        guard ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host) else {
            throw .invalidRedirectURI("the redirect URI \(text) is not a loopback address (localhost, 127.0.0.1 or [::1])")
        }
        guard let port = components.port.flatMap(UInt16.init(exactly:)) ?? (components.port == nil ? 0 : nil) else {
            throw .invalidRedirectURI("the redirect URI \(text) has an invalid port")
        }
        return Endpoint(
            host: host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host, port: port, path: components.percentEncodedPath)
    }

    /// Binds and starts accepting; returns the redirect URI in use, with the port actually bound
    /// (e.g. `http://localhost:43123`). Call once.
    ///
    /// - Throws: `.portUnavailable` when a fixed port is taken, `.listenerFailed` for other socket
    ///   errors, `.invalidParameter` when already started.
    package func start() throws(InteractiveAuthorizationError) -> URL {
        // Checked before binding too, so that a fixed port held by the first start is not
        // reported as busy.
        guard !core.withState({ $0.started }) else { throw .invalidParameter("the loopback listener was already started") }
        let sockets = try Self.bind(endpoint)
        // A socket pair rather than pipe2(2), which Swift's Glibc module does not export; the
        // flags are set atomically either way.
        var wake: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &wake) == 0
        else {
            let code = errno
            for socket in sockets.descriptors { close(socket) }
            throw .listenerFailed(operation: "socketpair", errno: code)
        }
        let pipe = (read: wake[0], write: wake[1])
        guard core.begin(wakeWrite: pipe.write) else {
            for descriptor in sockets.descriptors + [pipe.read, pipe.write] { close(descriptor) }
            throw .invalidParameter("the loopback listener was already started")
        }
        let loop = Loop(
            core: core, listeners: sockets.descriptors, wakeRead: pipe.read, requestPath: endpoint.requestPath,
            expectedState: expectedState, readTimeout: readTimeout, headerLimit: headerLimit)
        let addresses = sockets.descriptors.map(Self.localAddress(of:))
        core.withState { $0.boundAddresses = addresses }
        let thread = Thread { loop.run() }
        thread.name = "MSAL loopback listener"
        thread.start()
        return URL(string: "http://\(endpoint.host):\(sockets.port)\(endpoint.path)")!
    }

    /// The addresses bound after `start()`, as the sockets themselves report them
    /// (`getsockname(2)`): `127.0.0.1`, and `::1` when the machine has it.
    package var boundAddresses: [String] { core.withState { $0.boundAddresses } }

    /// Waits for the redirect. Call once, after `start()`.
    ///
    /// - Returns: the redirect's query (a code, or the service's error).
    /// - Throws: `.cancelled(.timedOut)` after `timeout` seconds (`.stateMismatch` instead when a
    ///   redirect with a wrong `state` came meanwhile), `.cancelled(.taskCancelled)` or
    ///   `.cancelled(.cancelCalled)`. The sockets are closed when this returns, whichever way.
    package func waitForResponse(timeout: Double) async throws(InteractiveAuthorizationError) -> AuthorizationResponse {
        guard core.beginWait(timeout: timeout) else {
            throw .invalidParameter("waitForResponse needs start() first and may be called once")
        }
        let core = core
        let result = await withTaskCancellationHandler {
            await core.outcome.value()
        } onCancel: {
            core.stop(.taskCancelled)
        }
        return try result.get()
    }

    /// Ends the wait with `.cancelled(.cancelCalled)` and closes the sockets; nothing if already over.
    /// The sockets close a moment later on the listener's thread; `cancelAndWait()` waits for that.
    package func cancel() {
        core.stop(.cancelCalled)
    }

    /// Cancels and, unless someone is already in `waitForResponse` (which then returns), waits
    /// until every socket is closed. For error paths that end a sign-in before its wait.
    package func cancelAndWait() async {
        cancel()
        guard core.beginWait(timeout: 0) else { return }
        _ = await core.outcome.value()
    }

    // MARK: - Shared state

    /// What the caller's side and the listener thread share, behind one lock.
    private final class Core: Sendable {
        struct State {
            var started = false
            var waiting = false
            /// The write end of the wake pipe while the thread runs; -1 once it has closed it.
            var wakeWrite: Int32 = -1
            var deadline: Double?
            var timeout: Double = 0
            var stopReason: InteractiveAuthorizationError.CancelReason?
            var stateMismatchSeen = false
            var boundAddresses: [String] = []
        }

        private let state = Locked(State())
        let outcome = OneShot<Result<AuthorizationResponse, InteractiveAuthorizationError>>()

        func withState<T>(_ body: (inout State) -> T) -> T {
            state.withLock(body)
        }

        func begin(wakeWrite: Int32) -> Bool {
            state.withLock { state in
                guard !state.started else { return false }
                state.started = true
                state.wakeWrite = wakeWrite
                return true
            }
        }

        func beginWait(timeout: Double) -> Bool {
            state.withLock { state in
                guard state.started, !state.waiting else { return false }
                state.waiting = true
                state.timeout = timeout
                state.deadline = monotonicNow() + (timeout.isNaN ? 0 : max(0, timeout))
                wake(state.wakeWrite)
                return true
            }
        }

        func stop(_ reason: InteractiveAuthorizationError.CancelReason) {
            state.withLock { state in
                if state.stopReason == nil { state.stopReason = reason }
                wake(state.wakeWrite)
            }
        }

        /// Called by the thread as it exits: under the lock, so that no `wake` writes to a closed
        /// (and perhaps reused) descriptor. (The wake "pipe" is a socket pair.)
        func closeWakePipe(read: Int32) {
            state.withLock { state in
                close(state.wakeWrite)
                close(read)
                state.wakeWrite = -1
            }
        }

        private func wake(_ descriptor: Int32) {
            guard descriptor >= 0 else { return }
            var byte: UInt8 = 1
            _ = write(descriptor, &byte, 1)
        }
    }

    // MARK: - The listener thread

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
    private final class Loop: Sendable {
        let core: Core
        let listeners: [Int32]
        let wakeRead: Int32
        let requestPath: String
        let expectedState: String
        let readTimeout: Double
        let headerLimit: Int
        /// More connections at once than a browser opens; beyond this the oldest is dropped for each new one.
        static let maxConnections = 32
        /// How long an answered connection may take to close its side.
        static let drainTime = 1.0

        init(
            core: Core, listeners: [Int32], wakeRead: Int32, requestPath: String, expectedState: String,
            readTimeout: Double, headerLimit: Int
        ) {
            self.core = core
            self.listeners = listeners
            self.wakeRead = wakeRead
            self.requestPath = requestPath
            self.expectedState = expectedState
            self.readTimeout = readTimeout
            self.headerLimit = headerLimit
        }

        func run() {
            var connections: [Connection] = []
            let result = serve(&connections)
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
            switch LoopbackRedirectListener.route(head, requestPath: requestPath, expectedState: expectedState) {
            case .notFound:
                finish(&connection, Self.page(status: 404, reason: "Not Found", text: "Not found"))
            case .badRequest:
                finish(&connection, Self.page(status: 400, reason: "Bad Request", text: "Bad request"))
            case .stateMismatch:
                core.withState { $0.stateMismatchSeen = true }
                finish(&connection, Self.page(status: 400, reason: "Bad Request", text: "State mismatch"))
            case .response(let response):
                send(connection.descriptor, Self.resultPage(for: response))
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
                "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>\(escapeHTML(text))</title></head>"
                + "<body><p>\(escapeHTML(text))</p></body></html>\n"
            return http(status: status, reason: reason, body: body)
        }

        static func resultPage(for response: AuthorizationResponse) -> [UInt8] {
            guard let error = response.error else {
                return page(status: 200, reason: "OK", text: LoopbackRedirectListener.successText)
            }
            return page(status: 200, reason: "OK", text: LoopbackRedirectListener.errorText(for: response, error: error))
        }

        private static func http(status: Int, reason: String, body: String) -> [UInt8] {
            let head =
                "HTTP/1.1 \(status) \(reason)\r\n" + "Content-Type: text/html; charset=utf-8\r\n" + "Content-Length: \(body.utf8.count)\r\n"
                + "Cache-Control: no-store\r\n" + "Referrer-Policy: no-referrer\r\n" + "Connection: close\r\n\r\n"
            return Array((head + body).utf8)
        }
    }

    // MARK: - Requests

    /// What a request head asks for.
    package enum Route: Sendable, Equatable {
        /// Not `GET` on the redirect path, or no `code`/`error` in the query.
        case notFound
        /// A malformed request line or query.
        case badRequest
        /// An authorization response whose `state` is missing or different.
        case stateMismatch
        /// The authorization response for this request.
        case response(AuthorizationResponse)
    }

    /// Classifies a request head (request line and headers, without the blank line).
    package static func route(_ head: String, requestPath: String, expectedState: String) -> Route {
        // By Unicode scalar: "\r\n" is one Character in Swift.
        let requestLine = String(String.UnicodeScalarView(head.unicodeScalars.prefix { $0 != "\r" && $0 != "\n" }))
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return .badRequest }
        guard parts[0] == "GET" else { return .notFound }
        let target = parts[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard target[0] == requestPath else { return .notFound }
        let query = target.count > 1 ? String(target[1]) : ""
        guard let pairs = FormEncoding.decode(Data(query.utf8)) else { return .badRequest }
        guard let response = AuthorizationResponse(query: pairs) else { return .notFound }
        guard let state = response.state, constantTimeEqual(state, expectedState) else { return .stateMismatch }
        return .response(response)
    }

    /// "Authentication failed. {error}: {error_description}." (unescaped; the page escapes it).
    package static func errorText(for response: AuthorizationResponse, error: String) -> String {
        guard let description = response.errorDescription else { return "Authentication failed. \(error)." }
        return "Authentication failed. \(error): \(description)."
    }

    /// `&`, `<`, `>`, `"` and `'` as entities.
    package static func escapeHTML(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    private static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }

    // MARK: - Binding

    /// Bound and listening sockets, and their common port.
    private struct BoundSockets {
        var descriptors: [Int32]
        var port: UInt16
    }

    /// How many times a free port is drawn again when `::1` has it taken while `127.0.0.1` does not.
    private static let ephemeralAttempts = 8

    private static func bind(_ endpoint: Endpoint) throws(InteractiveAuthorizationError) -> BoundSockets {
        let requiresIPv6 = endpoint.host == "[::1]"
        var attempts = 0
        while true {
            attempts += 1
            let (v4, port) = try listen(family: AF_INET, port: endpoint.port, requested: endpoint.port)
            do throws(InteractiveAuthorizationError) {
                let (v6, _) = try listen(family: AF_INET6, port: port, requested: endpoint.port)
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
    private static func localAddress(of descriptor: Int32) -> String {
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
    private static func listen(family: Int32, port: UInt16, requested: UInt16) throws(InteractiveAuthorizationError) -> (Int32, UInt16) {
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw .listenerFailed(operation: "socket", errno: errno) }
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
private func monotonicNow() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
}
