import CMicroHTTPD
import Foundation
import MSAL
import Synchronization

/// Serves an `EmulatorRouter` over HTTP (or HTTPS) with libmicrohttpd, one thread per connection,
/// bound to a loopback address by default.
///
/// ```swift
/// let server = try EmulatorServer(router: EmulatorRouter(), port: 0)   // 0: any free port
/// print(server.baseURL)                                                 // http://127.0.0.1:40123
/// defer { server.stop() }
/// ```
public final class EmulatorServer: Sendable {
    public let router: EmulatorRouter
    public let host: String
    public let port: UInt16
    public let usesTLS: Bool
    private let daemon: Locked<OpaquePointer?>
    private let context: Unmanaged<ServerContext>

    /// Starts serving. `tlsCertificatePEM` and `tlsKeyPEM` together switch on HTTPS.
    public init(
        router: EmulatorRouter, host: String = "127.0.0.1", port: UInt16 = 0,
        tlsCertificatePEM: String? = nil, tlsKeyPEM: String? = nil
    ) throws {
        let tls = tlsCertificatePEM != nil && tlsKeyPEM != nil
        if tls, emu_supports_tls() == 0 { throw EmulatorError("this libmicrohttpd was built without TLS support") }
        let context = ServerContext(router: router, scheme: tls ? "https" : "http", maxBody: router.configuration.maxRequestBodyBytes)
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
        daemon = Locked(started)
        self.context = retained
    }

    deinit {
        stop()
        context.release()
    }

    /// `http://127.0.0.1:PORT` (or `https://…`).
    public var baseURL: String { "\(usesTLS ? "https" : "http")://\(host):\(port)" }

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
    init(router: EmulatorRouter, scheme: String, maxBody: Int) {
        self.router = router
        self.scheme = scheme
        self.maxBody = maxBody
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
    let response: EmulatorResponse
    if pending.tooLarge {
        response = .json(
            413, ["error": "invalid_request", "error_description": "The request body is larger than \(server.maxBody) bytes."])
    } else {
        let request = EmulatorRequest(
            method: String(cString: method), path: String(cString: url), query: query, headers: headers,
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
