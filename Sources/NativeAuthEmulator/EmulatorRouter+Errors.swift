import Foundation

/// The error bodies of the native-auth API (docs/protocol.md#error-envelope), complete with `AADSTS` descriptions.
extension EmulatorRouter {
    struct Failure: Error {
        var response: EmulatorResponse
    }

    func apiError(
        _ error: String, _ code: Int, _ message: String, suberror: String? = nil, status: Int = 400,
        extra: [String: Any] = [:], context: RequestContext
    ) -> Failure {
        let timestamp = Self.timestamp(context.now)
        let traceId = UUID().uuidString.lowercased()
        var body: [String: Any] = [
            "error": error,
            "error_description":
                "AADSTS\(code): \(message) Trace ID: \(traceId) Correlation ID: \(context.correlationId) Timestamp: \(timestamp)",
            "error_codes": [code],
            "timestamp": timestamp,
            "trace_id": traceId,
            "correlation_id": context.correlationId,
            "error_uri": "\(context.request.baseURL)/error?code=\(code)",
        ]
        if let suberror { body["suberror"] = suberror }
        body.merge(extra) { _, new in new }
        return Failure(response: .json(status, body))
    }

    func missingParameter(_ name: String, _ context: RequestContext) -> Failure {
        apiError("invalid_request", 900144, "The request body must contain the following parameter: '\(name)'.", context: context)
    }

    func invalidContinuationToken(_ context: RequestContext, grant: Bool = false) -> Failure {
        apiError(grant ? "invalid_grant" : "invalid_request", 55200, "The continuation_token is invalid.", context: context)
    }

    func expiredContinuationToken(_ context: RequestContext, code: Int = 552003) -> Failure {
        apiError("expired_token", code, "The continuation_token has expired.", context: context)
    }

    func wrongEndpointToken(_ context: RequestContext) -> Failure {
        apiError("invalid_request", 901007, "The continuation_token is not valid for this endpoint.", context: context)
    }

    func redirect(_ reason: String) -> EmulatorResponse {
        .json(200, ["challenge_type": "redirect", "redirect_reason": reason])
    }

    /// `yyyy-MM-dd HH:mm:ssZ` in UTC, as the service writes `timestamp`.
    static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
