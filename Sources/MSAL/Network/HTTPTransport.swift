import Foundation

/// One HTTP request as the SDK sends it.
public struct HTTPTransportRequest: Sendable, Equatable {
    /// The HTTP method, for example `POST`.
    public var method: String
    /// The full URL, query included.
    public var url: URL
    /// Header fields. Names are kept as given; look-ups on responses are case-insensitive.
    public var headers: [String: String]
    /// The body to send; empty for none.
    public var body: Data
    /// Seconds before the transport gives up on this request.
    public var timeout: TimeInterval
    /// Response bodies larger than this many bytes must be refused with `HTTPTransportError.Kind.responseTooLarge`.
    public var maxResponseBytes: Int

    /// A request to `url`. Defaults: no headers, an empty body, a 30-second timeout and a 1 MiB limit
    /// on the response body.
    public init(
        method: String, url: URL, headers: [String: String] = [:], body: Data = Data(),
        timeout: TimeInterval = 30, maxResponseBytes: Int = 1 << 20
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
    }
}

/// One HTTP response as a transport hands it back.
public struct HTTPTransportResponse: Sendable, Equatable {
    /// The HTTP status code.
    public var status: Int
    /// Header fields as the server sent them; `header(_:)` finds one without regard to case.
    public var headers: [String: String]
    /// The body, empty when the server sent none.
    public var body: Data

    /// A response with `status`; a transport builds one for every answer it receives, whatever the status.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of a header field, matched without regard to case.
    public func header(_ name: String) -> String? {
        if let exact = headers[name] { return exact }
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }
}

/// The seam between the SDK and the network.
///
/// The SDK uses `URLSessionTransport` unless the configuration names another one. Tests use a
/// stub (see the `NativeAuthTesting` product) or the emulator's router called in-process.
/// A transport throws `HTTPTransportError` for anything that prevented a complete response.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse
}
