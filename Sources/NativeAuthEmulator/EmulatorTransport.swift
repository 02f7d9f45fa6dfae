import Foundation
import MSAL

/// The router as an `HTTPTransport`: the SDK talks to the emulator in-process, with no socket.
/// Injected faults behave as on the wire: delays wait, a dropped connection is a transport error,
/// an oversize body is refused at the request's cap.
public struct EmulatorTransport: HTTPTransport {
    /// The router each request goes to.
    public let router: EmulatorRouter

    /// A transport that hands every request to `router`.
    public init(router: EmulatorRouter) {
        self.router = router
    }

    /// Answers `request` through the router, applying its injected faults as a socket would.
    public func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        var base = "\(request.url.scheme ?? "http")://\(request.url.host ?? "127.0.0.1")"
        if let port = request.url.port { base += ":\(port)" }
        let query = request.url.query.map { QueryString.parse(Substring($0)) } ?? [:]
        let emulated = EmulatorRequest(
            method: request.method, path: request.url.path, query: query, headers: request.headers,
            body: request.body, baseURL: base)
        let response = router.handle(emulated)
        if response.delayMilliseconds > 0 {
            if Double(response.delayMilliseconds) / 1000 >= request.timeout {
                try await Task.sleep(nanoseconds: UInt64(request.timeout * 1_000_000_000))
                throw HTTPTransportError(kind: .timedOut, message: "The request timed out")
            }
            try await Task.sleep(nanoseconds: UInt64(response.delayMilliseconds) * 1_000_000)
        }
        if response.dropConnection {
            throw HTTPTransportError(kind: .connectionLost, message: "The emulator dropped the connection")
        }
        if response.body.count > request.maxResponseBytes {
            throw HTTPTransportError(kind: .responseTooLarge, message: "The response body is larger than \(request.maxResponseBytes) bytes")
        }
        return HTTPTransportResponse(status: response.status, headers: response.headers, body: response.body)
    }
}
