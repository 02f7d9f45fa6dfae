import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The SDK's default transport, over `URLSession`. The only file in the SDK that knows URLSession.
///
/// Linux caveats (FoundationNetworking runs on libcurl, measured on this toolchain):
/// - transport failures carry codes that differ from Apple's; `HTTPTransportError.fromURLSession`
///   maps them in one place;
/// - only the system CA bundle is trusted (no per-session trust evaluation), which is why the SDK
///   allows `http` for loopback hosts, where a local emulator listens;
/// - a body without `Content-Type` is sent as form data anyway; the SDK always sets the header.
///
/// Bodies are read through a data delegate so that a response larger than the request's
/// `maxResponseBytes` is cut off as soon as it is seen, never held in memory whole.
///
/// Redirects are never followed: a 3xx answer is handed back as the response, and nothing is sent
/// to the address it names (a continuation token or a code must reach only the authority; the
/// SDK turns the answer into an error, docs/decisions.md).
public final class URLSessionTransport: HTTPTransport {
    /// Made at the first request: a process that only serves cached tokens never starts libcurl
    /// and its TLS stack (about 4 MB resident, measured here).
    private let madeSession = Locked<OwnedURLSession?>(nil)
    private let receiver: Receiver

    /// A transport with a session of its own, which is made at the first request.
    public init() {
        receiver = Receiver()
    }

    private var session: URLSession {
        madeSession.withLock { made in
            if let made { return made.session }
            let foundationDirectories = UnusedFoundationDirectories.snapshot()
            let configuration = URLSessionConfiguration.ephemeral
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.urlCache = nil
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            let owned = OwnedURLSession(configuration: configuration, delegate: receiver)
            foundationDirectories.removeNew()
            made = owned
            return owned.session
        }
    }

    /// Sends `request` and returns the complete response, whatever its status. Throws
    /// `HTTPTransportError` when no complete response arrived, `.responseTooLarge` when the body
    /// passes `request.maxResponseBytes`; cancelling the calling task cancels the request.
    public func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: request.timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        if !request.body.isEmpty {
            urlRequest.httpBody = request.body
        }
        let task = session.dataTask(with: urlRequest)
        let limit = request.maxResponseBytes
        let receiver = self.receiver
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                receiver.register(task.taskIdentifier, limit: limit, continuation: continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// Collects each task's bytes and finishes its continuation exactly once.
    private final class Receiver: NSObject, URLSessionDataDelegate, URLSessionTaskDelegate, Sendable {
        private struct Pending {
            var limit: Int
            var continuation: CheckedContinuation<HTTPTransportResponse, any Error>
            var response: HTTPURLResponse?
            var body = Data()
            var tooLarge = false
        }

        private let pending = Locked<[Int: Pending]>([:])

        func register(_ id: Int, limit: Int, continuation: CheckedContinuation<HTTPTransportResponse, any Error>) {
            pending.withLock { $0[id] = Pending(limit: limit, continuation: continuation) }
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            let proceed = pending.withLock { table -> Bool in
                guard var entry = table[dataTask.taskIdentifier] else { return false }
                entry.response = response as? HTTPURLResponse
                if response.expectedContentLength > Int64(entry.limit) { entry.tooLarge = true }
                table[dataTask.taskIdentifier] = entry
                return !entry.tooLarge
            }
            completionHandler(proceed ? .allow : .cancel)
        }

        /// Refuses every redirect: the 3xx answer itself becomes the response. Kept here as well as
        /// in `didReceive response`, because FoundationNetworking may finish the task without
        /// reporting the redirect's response there.
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            pending.withLock { table in
                guard var entry = table[task.taskIdentifier] else { return }
                if entry.response == nil { entry.response = response }
                table[task.taskIdentifier] = entry
            }
            completionHandler(nil)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let overflow = pending.withLock { table -> Bool in
                guard var entry = table[dataTask.taskIdentifier], !entry.tooLarge else { return false }
                if entry.body.count + data.count > entry.limit {
                    entry.tooLarge = true
                    entry.body = Data()
                } else {
                    entry.body.append(data)
                }
                table[dataTask.taskIdentifier] = entry
                return entry.tooLarge
            }
            if overflow { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let entry = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
            if entry.tooLarge {
                entry.continuation.resume(
                    throwing: HTTPTransportError(
                        kind: .responseTooLarge, message: "The response body is larger than \(entry.limit) bytes"))
            } else if let error {
                entry.continuation.resume(throwing: HTTPTransportError.fromURLSession(error))
            } else if let response = entry.response {
                var headers: [String: String] = [:]
                for (name, value) in response.allHeaderFields {
                    if let name = name as? String, let value = value as? String { headers[name] = value }
                }
                entry.continuation.resume(returning: HTTPTransportResponse(status: response.statusCode, headers: headers, body: entry.body))
            } else {
                entry.continuation.resume(
                    throwing: HTTPTransportError(
                        kind: .badServerResponse, message: "The server sent no HTTP response"))
            }
        }
    }
}
