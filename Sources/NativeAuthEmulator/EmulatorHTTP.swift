import Foundation

/// One HTTP request as the emulator's router sees it, whatever carried it (a socket or an
/// in-process call).
public struct EmulatorRequest: Sendable {
    /// The request method as sent, for example `GET` or `POST`.
    public var method: String
    /// The path without the query, for example `/contoso.onmicrosoft.com/oauth2/v2.0/token`.
    public var path: String
    /// Query parameters, decoded.
    public var query: [String: String]
    /// Header fields with lower-cased names.
    public var headers: [String: String]
    /// The request body as received (a form for every native-auth endpoint).
    public var body: Data
    /// `scheme://host[:port]` the client used, for URLs in discovery documents.
    public var baseURL: String

    /// A request; the header names are lower-cased.
    public init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: Data = Data(),
        baseURL: String
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
        self.baseURL = baseURL
    }
}

/// What the router answers: a response, possibly after a delay, or a dropped connection.
public struct EmulatorResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The header fields to send, by name.
    public var headers: [String: String]
    /// The response body (JSON for the native-auth endpoints, HTML for the sign-in pages).
    public var body: Data
    /// Wait this long before answering (fault injection).
    public var delayMilliseconds: Int = 0
    /// Close the connection without any answer (fault injection).
    public var dropConnection = false

    /// A response sent at once, without any fault.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    static func json(_ status: Int, _ object: Any, headers: [String: String] = [:]) -> EmulatorResponse {
        let body =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        var all = headers
        all["Content-Type"] = "application/json; charset=utf-8"
        all["Cache-Control"] = "no-store, no-cache"
        return EmulatorResponse(status: status, headers: all, body: body)
    }
}
