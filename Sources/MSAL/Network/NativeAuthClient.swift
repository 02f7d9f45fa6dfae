import Foundation

/// What the SDK resolved from the app's configuration, immutable for the application's lifetime.
/// A class: flows, states and account results all hold it, and a copy is one reference, not two
/// dozen (a struct copy retained every member; measured on the cached `getAccessToken` path).
package final class NativeAuthEnvironment: Sendable {
    package let clientId: String
    package let authorityURL: URL
    package let challengeTypes: MSALNativeAuthChallengeTypes
    package let capabilities: MSALNativeAuthCapabilities
    package let dc: String?
    package let interceptor: (any MSALNativeAuthRequestInterceptor)?
    package let transport: any HTTPTransport
    package let logger: MSALLoggerConfig
    package let clock: any NativeAuthClock
    package let requestTimeout: TimeInterval
    package let maxResponseBodyBytes: Int
    package let retryPolicy: MSALNativeAuthRetryPolicy
    package let appName: String?
    package let appVersion: String?
    package let uuid: @Sendable () -> UUID
    package let cache: TokenCache
    package let tokenExpirationBuffer: TimeInterval
    package let allowsMultipleAccounts: Bool
    /// The standard surface's redirect URI as configured (nil: `http://localhost`).
    package let redirectUri: String?
    /// `clientApplicationCapabilities`, sent as `xms_cc` in `claims`.
    package let clientCapabilities: [String]
    package let multipleCloudsSupported: Bool

    package init(
        clientId: String,
        authorityURL: URL,
        challengeTypes: MSALNativeAuthChallengeTypes,
        capabilities: MSALNativeAuthCapabilities,
        dc: String?,
        interceptor: (any MSALNativeAuthRequestInterceptor)?,
        transport: any HTTPTransport,
        logger: MSALLoggerConfig,
        clock: any NativeAuthClock,
        requestTimeout: TimeInterval,
        maxResponseBodyBytes: Int,
        retryPolicy: MSALNativeAuthRetryPolicy,
        appName: String?,
        appVersion: String?,
        uuid: @escaping @Sendable () -> UUID,
        cache: TokenCache,
        tokenExpirationBuffer: TimeInterval,
        allowsMultipleAccounts: Bool,
        redirectUri: String?,
        clientCapabilities: [String],
        multipleCloudsSupported: Bool
    ) {
        self.clientId = clientId
        self.authorityURL = authorityURL
        self.challengeTypes = challengeTypes
        self.capabilities = capabilities
        self.dc = dc
        self.interceptor = interceptor
        self.transport = transport
        self.logger = logger
        self.clock = clock
        self.requestTimeout = requestTimeout
        self.maxResponseBodyBytes = maxResponseBodyBytes
        self.retryPolicy = retryPolicy
        self.appName = appName
        self.appVersion = appVersion
        self.uuid = uuid
        self.cache = cache
        self.tokenExpirationBuffer = tokenExpirationBuffer
        self.allowsMultipleAccounts = allowsMultipleAccounts
        self.redirectUri = redirectUri
        self.clientCapabilities = clientCapabilities
        self.multipleCloudsSupported = multipleCloudsSupported
    }
}

/// The answer to one native-auth request after retries: the raw response or why there is none,
/// and the correlation id the flow continues with (the server's echo when it sent one, docs/protocol.md#correlation-ids).
package struct NativeAuthExchange: Sendable {
    package var correlationId: UUID
    package var result: Result<HTTPTransportResponse, MSALNativeAuthNetworkFailure>
}

/// Sends native-auth requests: builds the URL, the form body and every header (docs/protocol.md#transport), retries
/// as MSAL does, enforces the body cap, adopts the echoed correlation id, and logs without secrets.
package struct NativeAuthClient: Sendable {
    package let environment: NativeAuthEnvironment

    package init(environment: NativeAuthEnvironment) {
        self.environment = environment
    }

    /// The SDK's name and version on the wire (`x-client-SKU`, `x-client-Ver`).
    package static let sku = "MSAL.Swift.Linux"

    package func url(for endpoint: NativeAuthEndpoint) -> URL {
        // Appended to the authority path as a string (docs/protocol.md#endpoint-urls); `dc` is the only query parameter
        // (docs/protocol.md#endpoint-urls).
        var components = URLComponents(url: environment.authorityURL, resolvingAgainstBaseURL: false)!
        components.path += endpoint.path
        if let dc = environment.dc {
            components.queryItems = [URLQueryItem(name: "dc", value: dc)]
        }
        return components.url!
    }

    package func makeRequest(_ endpoint: NativeAuthEndpoint, fields: [(String, String?)], correlationId: UUID) async -> HTTPTransportRequest
    {
        await makeRequest(
            url: url(for: endpoint), body: FormEncoding.encode(fields), telemetry: endpoint.currentTelemetry, correlationId: correlationId)
    }

    /// A request with every header the SDK sends (docs/protocol.md#request-headers): a form POST
    /// answered in JSON unless `method`, `contentType` and `accept` say otherwise (native auth V2's
    /// interaction requests, docs/decisions.md#native-auth-v2).
    package func makeRequest(
        method: String = "POST", url: URL, body: Data, contentType: String = "application/x-www-form-urlencoded",
        accept: String = "application/json", telemetry: String, correlationId: UUID
    ) async -> HTTPTransportRequest {
        var headers: [String: String] = [
            "Content-Type": contentType,
            "Accept": accept,
            "client-request-id": correlationId.uuidString,
            "return-client-request-id": "true",
            "x-client-SKU": Self.sku,
            "x-client-Ver": MSALNativeAuthSDK.version,
            "x-client-OS": Self.operatingSystemVersion,
            "x-client-CPU": MemoryLayout<Int>.size == 8 ? "64" : "32",
            "x-client-current-telemetry": telemetry,
            "x-client-last-telemetry": "4|0|||",
        ]
        if let name = environment.appName, !name.isEmpty { headers["x-app-name"] = name }
        if let version = environment.appVersion, !version.isEmpty { headers["x-app-ver"] = version }
        if let interceptor = environment.interceptor {
            let extra = await interceptor.headers(for: url, clock: environment.clock, logger: environment.logger)
            for (name, value) in extra { headers[name] = value }
        }
        return HTTPTransportRequest(
            method: method, url: url, headers: headers, body: body, timeout: environment.requestTimeout,
            maxResponseBytes: environment.maxResponseBodyBytes)
    }

    /// Sends a POST to `endpoint` with the form `fields` (nil values omitted). `client_id` is added first.
    package func post(_ endpoint: NativeAuthEndpoint, fields: [(String, String?)], correlationId: UUID) async -> NativeAuthExchange {
        let allFields = [("client_id", Optional(environment.clientId))] + fields
        let request = await makeRequest(endpoint, fields: allFields, correlationId: correlationId)
        let logger = environment.logger
        let fieldNames = allFields.compactMap { $0.1 == nil ? nil : $0.0 }.joined(separator: ",")
        logger.info("POST \(endpoint.path) correlation \(correlationId.uuidString) fields \(fieldNames)")
        return await send(request, label: endpoint.path, retrying: true, correlationId: correlationId)
    }

    /// Sends `request`, retrying once as MSAL does (a transient transport failure, 5xx, a short
    /// 429) when `retrying`; enforces the body cap and adopts the echoed correlation id. `label`
    /// names the request in logs (a path: never a secret). With `everyStatus`, a 5xx or 429 that is
    /// not retried again comes back as the response, for its body to be read (native auth V2).
    package func send(
        _ request: HTTPTransportRequest, label: String, retrying: Bool, everyStatus: Bool = false, correlationId: UUID
    ) async -> NativeAuthExchange {
        let logger = environment.logger
        let policy = environment.retryPolicy
        var attempt = 0
        while true {
            attempt += 1
            let mayRetry = retrying && attempt == 1
            let response: HTTPTransportResponse
            do {
                response = try await environment.transport.send(request)
            } catch {
                let transportError =
                    (error as? HTTPTransportError)
                    ?? (error is CancellationError
                        ? HTTPTransportError(kind: .cancelled, message: "The request was cancelled", underlyingError: error)
                        : HTTPTransportError(kind: .other, message: String(describing: error), underlyingError: error))
                logger.warning("\(label) transport failure (attempt \(attempt)): \(transportError.kind.rawValue)")
                if mayRetry, transportError.isTransient {
                    let delay = transportError.kind == .notConnectedToInternet ? policy.offlineRetryDelay : policy.retryDelay
                    if await pause(delay) { continue }
                    return exchange(correlationId, .failure(cancelled()))
                }
                return exchange(correlationId, .failure(failure(for: transportError)))
            }

            logger.info("\(label) answered HTTP \(response.status) (attempt \(attempt))")
            if response.body.count > environment.maxResponseBodyBytes {
                return exchange(
                    correlationId,
                    .failure(
                        MSALNativeAuthNetworkFailure(
                            kind: .responseTooLarge,
                            message: "The response body is larger than \(environment.maxResponseBodyBytes) bytes")))
            }
            let adopted = Self.echoedCorrelationId(response) ?? correlationId
            switch response.status {
            case 300...399:
                // Never followed, never retried: the token or code in the request is for the authority alone.
                logger.warning("\(label) answered with a redirect (HTTP \(response.status)); not followed")
                return exchange(adopted, .failure(Self.redirected(response, from: request.url)))
            case 500...599:
                if mayRetry {
                    if await pause(policy.retryDelay) { continue }
                    return exchange(adopted, .failure(cancelled()))
                }
                if everyStatus { return exchange(adopted, .success(response)) }
                return exchange(
                    adopted,
                    .failure(
                        MSALNativeAuthNetworkFailure(
                            kind: .unexpectedStatus(response.status), message: "The server answered HTTP \(response.status)")))
            case 429:
                let wait = Self.retryAfter(response, now: environment.clock.now())
                if mayRetry, (wait ?? policy.defaultRetryAfter) <= policy.maxRetryAfter {
                    if await pause(wait ?? policy.defaultRetryAfter) { continue }
                    return exchange(adopted, .failure(cancelled()))
                }
                if everyStatus { return exchange(adopted, .success(response)) }
                let said = wait.map { " and asked to wait \(Int($0.rounded(.up))) s" } ?? ""
                return exchange(
                    adopted,
                    .failure(
                        MSALNativeAuthNetworkFailure(
                            kind: .unexpectedStatus(429), message: "The server answered HTTP 429 (too many requests)\(said)",
                            retryAfter: wait)))
            default:
                return exchange(adopted, .success(response))
            }
        }
    }

    private func exchange(_ id: UUID, _ result: Result<HTTPTransportResponse, MSALNativeAuthNetworkFailure>) -> NativeAuthExchange {
        NativeAuthExchange(correlationId: id, result: result)
    }

    /// Waits before a retry; false when the task was cancelled meanwhile.
    private func pause(_ seconds: TimeInterval) async -> Bool {
        do {
            try await environment.clock.sleep(seconds: seconds)
            return !Task.isCancelled
        } catch {
            return false
        }
    }

    private func cancelled() -> MSALNativeAuthNetworkFailure {
        MSALNativeAuthNetworkFailure(kind: .cancelled, message: "The operation was cancelled")
    }

    private func failure(for error: HTTPTransportError) -> MSALNativeAuthNetworkFailure {
        switch error.kind {
        case .responseTooLarge:
            return MSALNativeAuthNetworkFailure(kind: .responseTooLarge, message: error.message, transportError: error)
        case .cancelled:
            return MSALNativeAuthNetworkFailure(kind: .cancelled, message: error.message, transportError: error)
        default:
            return MSALNativeAuthNetworkFailure(kind: .transport, message: "The request failed: \(error.message)", transportError: error)
        }
    }

    /// A redirect answer as a failure naming its status and the host its `Location` points at
    /// (resolved against the request's URL; only the host and port, never the path or query).
    static func redirected(_ response: HTTPTransportResponse, from url: URL) -> MSALNativeAuthNetworkFailure {
        let target = response.header("Location").flatMap { URL(string: $0.trimmingCharacters(in: .whitespaces), relativeTo: url) }
        let host = target.flatMap { target -> String? in
            guard let name = target.host, !name.isEmpty else { return nil }
            return target.port.map { "\(name):\($0)" } ?? name
        }
        let place = host.map { "to \($0)" } ?? "without a usable address"
        return MSALNativeAuthNetworkFailure(
            kind: .redirected(status: response.status, host: host),
            message:
                "The server answered HTTP \(response.status), a redirect \(place); redirects are not followed and nothing was sent there")
    }

    /// The server's `client-request-id` when it is a UUID (docs/protocol.md#correlation-ids).
    static func echoedCorrelationId(_ response: HTTPTransportResponse) -> UUID? {
        response.header("client-request-id").flatMap { UUID(uuidString: $0.trimmingCharacters(in: .whitespaces)) }
    }

    /// `Retry-After` as seconds from now: either delta-seconds or an HTTP date.
    static func retryAfter(_ response: HTTPTransportResponse, now: Date) -> TimeInterval? {
        guard let raw = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        if let seconds = Double(raw), seconds.isFinite, seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: raw) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    static let operatingSystemVersion: String = {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        return "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
    }()
}
