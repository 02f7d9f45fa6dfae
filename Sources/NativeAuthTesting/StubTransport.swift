import Foundation
import MSAL

/// A strict, ordered stand-in for the network, for tests of code that uses the SDK.
///
/// Queue the answers you expect, in order, each with a check of the request it answers. A request
/// that arrives when nothing is queued, or that does not match what its stub expects, fails the
/// send with `StubTransport.Mismatch`; `unusedStubs` lists what was queued but never asked for,
/// so a test can fail on both sides.
///
/// ```swift
/// let stub = StubTransport()
/// stub.expect(path: "/oauth2/v2.0/initiate", reply: .json(200, ["continuation_token": "T0"]))
/// ```
public final class StubTransport: HTTPTransport, Sendable {
    /// What a stub answers: a response, or a transport error.
    public enum Reply: Sendable {
        case response(HTTPTransportResponse)
        case failure(HTTPTransportError)

        /// A JSON body with the given status and `Content-Type: application/json`.
        public static func json(_ status: Int, _ object: [String: Any], headers: [String: String] = [:]) -> Reply {
            let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            return raw(status, body, headers: headers.merging(["Content-Type": "application/json"]) { mine, _ in mine })
        }

        /// Any body, as given.
        public static func raw(_ status: Int, _ body: Data, headers: [String: String] = [:]) -> Reply {
            .response(HTTPTransportResponse(status: status, headers: headers, body: body))
        }
    }

    /// A request the stub did not expect.
    public struct Mismatch: Error, CustomStringConvertible, Sendable {
        /// What was wrong: the request, and the stub it was checked against.
        public let description: String
    }

    private struct Stub: Sendable {
        var path: String
        var reply: Reply
        var check: (@Sendable (HTTPTransportRequest) -> String?)?
        var label: String
        var method = "POST"
    }

    private struct State: Sendable {
        var queue: [Stub] = []
        var received: [HTTPTransportRequest] = []
        var mismatches: [String] = []
    }

    private let state = Locked(State())

    /// A transport with nothing queued: every request fails until `expect` queues its answer.
    public init() {}

    /// Queues the answer to the next request, which must be a POST (or `method`) to a URL whose path ends
    /// with `path`. `check` may inspect the request further and return a complaint, or nil when it is fine.
    public func expect(
        path: String, reply: Reply, method: String = "POST", file: StaticString = #fileID, line: UInt = #line,
        check: (@Sendable (HTTPTransportRequest) -> String?)? = nil
    ) {
        state.withLock { $0.queue.append(Stub(path: path, reply: reply, check: check, label: "\(file):\(line)", method: method)) }
    }

    /// Every request received, in order.
    public var receivedRequests: [HTTPTransportRequest] { state.withLock { $0.received } }

    /// Stubs queued but never used, described by where they were queued.
    public var unusedStubs: [String] { state.withLock { $0.queue.map { "\($0.path) (queued at \($0.label))" } } }

    /// Requests that did not match their stub or came when none was queued.
    public var mismatches: [String] { state.withLock { $0.mismatches } }

    /// Takes the next queued stub and answers with its reply (a response, or the error it throws). A
    /// request when none is queued, or one its stub refuses, is recorded in `mismatches` and fails
    /// with an `HTTPTransportError` whose underlying error is a `Mismatch`.
    public func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        let outcome: Result<Reply, Mismatch> = state.withLock { state in
            state.received.append(request)
            guard !state.queue.isEmpty else {
                let text = "Unexpected request \(request.method) \(request.url.path): no stub queued"
                state.mismatches.append(text)
                return .failure(Mismatch(description: text))
            }
            let stub = state.queue.removeFirst()
            var complaint: String?
            if request.method != stub.method || !request.url.path.hasSuffix(stub.path) {
                complaint = "Expected \(stub.method) …\(stub.path) (queued at \(stub.label)), got \(request.method) \(request.url.path)"
            } else if let problem = stub.check?(request) {
                complaint = "Request to \(stub.path) (queued at \(stub.label)): \(problem)"
            }
            if let complaint {
                state.mismatches.append(complaint)
                return .failure(Mismatch(description: complaint))
            }
            return .success(stub.reply)
        }
        switch outcome {
        case .failure(let mismatch):
            throw HTTPTransportError(kind: .other, message: mismatch.description, underlyingError: mismatch)
        case .success(.failure(let error)):
            throw error
        case .success(.response(let response)):
            return response
        }
    }
}

extension HTTPTransportRequest {
    /// The form fields of the body, decoded (`+` and `%XX` undone). Later duplicates win.
    public var formFields: [String: String] {
        var fields: [String: String] = [:]
        let text = String(decoding: body, as: UTF8.self)
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String {
                s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s)
            }
            fields[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }
}
