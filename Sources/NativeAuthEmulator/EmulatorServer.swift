import CMicroHTTPD
import Foundation
import MSAL

/// Serves an `EmulatorRouter` over HTTP (or HTTPS) with libmicrohttpd, one thread per connection,
/// bound to a loopback address by default.
///
/// A non-loopback address (`0.0.0.0`, a LAN address) is refused unless TLS is on or
/// `exposeInsecurely` says it is meant; on such an address every test hook (`/_emulator/…`)
/// needs the header `X-Emulator-Hook-Token: hookToken`, a random token made at start.
///
/// ```swift
/// let server = try EmulatorServer(router: EmulatorRouter(), port: 0)   // 0: any free port
/// print(server.baseURL)                                                 // http://127.0.0.1:40123
/// defer { server.stop() }
/// ```
public final class EmulatorServer: Sendable {
    /// The router that answers every request.
    public let router: EmulatorRouter
    /// The address the server listens on.
    public let host: String
    /// The port it listens on (the one the system chose when started with 0).
    public let port: UInt16
    /// Whether it serves HTTPS.
    public let usesTLS: Bool
    /// The token every `/_emulator/` request must carry in `X-Emulator-Hook-Token` when the
    /// server listens on a non-loopback address; nil on loopback, where hooks need none.
    public let hookToken: String?
    private let daemon: Locked<OpaquePointer?>
    private let context: Unmanaged<ServerContext>

    /// Starts serving. `tlsCertificatePEM` and `tlsKeyPEM` together switch on HTTPS. A host that is
    /// not a loopback address needs TLS or `exposeInsecurely: true`.
    public init(
        router: EmulatorRouter, host: String = "127.0.0.1", port: UInt16 = 0,
        tlsCertificatePEM: String? = nil, tlsKeyPEM: String? = nil, exposeInsecurely: Bool = false
    ) throws {
        let tls = tlsCertificatePEM != nil && tlsKeyPEM != nil
        if tls, emu_supports_tls() == 0 { throw EmulatorError("this libmicrohttpd was built without TLS support") }
        let loopback = Self.isLoopback(host)
        if !loopback, !tls, !exposeInsecurely {
            throw EmulatorError(
                "refusing to serve plain HTTP on \(host), which is not a loopback address: the test hooks (every one-time code, "
                    + "users, faults, clock) would be on the network. Use TLS, or pass exposeInsecurely: true.")
        }
        let hookToken = loopback ? nil : Secrets.opaqueToken()
        let context = ServerContext(
            router: router, scheme: tls ? "https" : "http", maxBody: router.configuration.maxRequestBodyBytes, hookToken: hookToken)
        let retained = Unmanaged.passRetained(context)
        let started: OpaquePointer? = host.withCString { hostPointer in
            withOptionalCString(tlsCertificatePEM) { certificate in
                withOptionalCString(tlsKeyPEM) { key in
                    emu_start_daemon(
                        hostPointer, port, certificate, key, accessHandler, retained.toOpaque(),
                        completedHandler, nil, 30)
                }
            }
        }
        guard let started else {
            retained.release()
            throw EmulatorError("could not listen on \(host):\(port) (in use, or not a local IPv4 address)")
        }
        self.router = router
        self.host = host
        self.port = emu_daemon_port(started)
        usesTLS = tls
        self.hookToken = hookToken
        daemon = Locked(started)
        self.context = retained
    }

    deinit {
        stop()
        context.release()
    }

    /// `http://127.0.0.1:PORT` (or `https://…`). When the server listens on all interfaces
    /// (`0.0.0.0`), the loopback address: a URL that works from this machine.
    public var baseURL: String {
        let reachable = listensOnAllInterfaces ? (host.contains(":") ? "[::1]" : "127.0.0.1") : host.contains(":") ? "[\(host)]" : host
        return "\(usesTLS ? "https" : "http")://\(reachable):\(port)"
    }

    /// Whether the server is bound to the wildcard address (`0.0.0.0`).
    public var listensOnAllInterfaces: Bool { host == "0.0.0.0" || host == "::" }

    /// Whether `host` is a literal loopback address (`127.0.0.0/8` or `::1`). Names such as
    /// `localhost` are not: the server binds addresses, and a name could resolve elsewhere.
    public static func isLoopback(_ host: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        return withUnsafeBytes(of: &v6) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
    }

    /// The authority an SDK is configured with.
    public var authority: String { router.authority(baseURL: baseURL) }

    /// Stops listening and waits for the connection threads to finish. Safe to call twice.
    public func stop() {
        if let running = daemon.withLock({ slot in
            defer { slot = nil }
            return slot
        }) {
            MHD_stop_daemon(running)
        }
    }
}

private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}

/// What the C callbacks reach through their `cls` pointer.
private final class ServerContext: Sendable {
    let router: EmulatorRouter
    let scheme: String
    let maxBody: Int
    let hookToken: String?
    init(router: EmulatorRouter, scheme: String, maxBody: Int, hookToken: String?) {
        self.router = router
        self.scheme = scheme
        self.maxBody = maxBody
        self.hookToken = hookToken
    }

    /// Whether a request may reach the router: hooks need the token when there is one.
    func admits(path: String, headers: [String: String]) -> Bool {
        guard let hookToken, EmulatorRouter.isHookPath(path) else { return true }
        return Secrets.constantTimeEqual(headers["x-emulator-hook-token"] ?? "", hookToken)
    }
}

/// One request's body as it arrives in pieces.
private final class PendingRequest {
    var body = Data()
    var tooLarge = false
}

private let accessHandler: emu_access_handler = { cls, connection, url, method, _, uploadData, uploadSize, requestState in
    guard let cls, let connection, let url, let method, let uploadSize, let requestState else { return .NO }
    let server = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()

    // First call: only the headers have arrived.
    guard let statePointer = requestState.pointee else {
        requestState.pointee = Unmanaged.passRetained(PendingRequest()).toOpaque()
        return .YES
    }
    let pending = Unmanaged<PendingRequest>.fromOpaque(statePointer).takeUnretainedValue()

    // Body calls: append (or discard once too large) and ask for more.
    if uploadSize.pointee > 0 {
        if !pending.tooLarge, let uploadData {
            if pending.body.count + uploadSize.pointee > server.maxBody {
                pending.tooLarge = true
                pending.body = Data()
            } else {
                pending.body.append(UnsafeRawPointer(uploadData).assumingMemoryBound(to: UInt8.self), count: uploadSize.pointee)
            }
        }
        uploadSize.pointee = 0
        return .YES
    }

    // Final call: answer.
    var headers: [String: String] = [:]
    var query: [String: String] = [:]
    withUnsafeMutablePointer(to: &headers) { pointer in
        _ = MHD_get_connection_values(connection, .HEADER_KIND, collectValue, pointer)
    }
    withUnsafeMutablePointer(to: &query) { pointer in
        _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, collectValue, pointer)
    }
    let host = headers["host"] ?? "127.0.0.1"
    let path = String(cString: url)
    let response: EmulatorResponse
    if pending.tooLarge {
        response = .json(
            413, ["error": "invalid_request", "error_description": "The request body is larger than \(server.maxBody) bytes."])
    } else if !server.admits(path: path, headers: headers) {
        response = .json(
            401,
            [
                "error": "unauthorized",
                "error_description":
                    "This emulator listens on a non-loopback address: its test hooks need the X-Emulator-Hook-Token header printed at start.",
            ])
    } else {
        let request = EmulatorRequest(
            method: String(cString: method), path: path, query: query, headers: headers,
            body: pending.body, baseURL: "\(server.scheme)://\(host)")
        response = server.router.handle(request)
    }
    if response.delayMilliseconds > 0 {
        usleep(UInt32(min(response.delayMilliseconds, 600_000)) * 1000)
    }
    if response.dropConnection {
        return .NO
    }
    let answer = response.body.withUnsafeBytes { raw in
        MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let answer else { return .NO }
    for (name, value) in response.headers {
        _ = MHD_add_response_header(answer, name, value)
    }
    let queued = MHD_queue_response(connection, UInt32(response.status), answer)
    MHD_destroy_response(answer)
    return queued
}

private let collectValue: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return .YES }
    let table = cls.assumingMemoryBound(to: [String: String].self)
    table.pointee[String(cString: key).lowercased()] = value.map { String(cString: $0) } ?? ""
    return .YES
}

private let completedHandler: emu_completed_handler = { _, _, requestState, _ in
    guard let requestState, let pointer = requestState.pointee else { return }
    Unmanaged<PendingRequest>.fromOpaque(pointer).release()
    requestState.pointee = nil
}
