import Foundation

/// `GET` and `POST /_emulator/v2` (docs/emulator.md#native-auth-v2-experimental): the V2 options, not part of Entra.
extension EmulatorRouter {
    func v2Hook(_ request: EmulatorRequest) -> EmulatorResponse {
        if request.method == "POST" {
            guard request.body.count <= configuration.maxRequestBodyBytes,
                let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]
            else { return hookError(400, "expected a JSON object of V2 settings") }
            var settings = world.withLock { $0.v2.settings }
            if let problem = Self.applyV2Settings(object, to: &settings) { return hookError(400, problem) }
            world.withLock { $0.v2.settings = settings }
        }
        let settings = world.withLock { $0.v2.settings }
        return .json(
            200,
            [
                "api_segment": settings.apiSegment, "href_style": settings.hrefStyle.rawValue, "poll_in_progress": settings.pollInProgress,
                "poll_interval_ms": settings.pollIntervalMs.map { $0 as Any } ?? NSNull(),
                "sms_risk_verification": settings.smsRiskVerification.map { $0.rawValue as Any } ?? NSNull(),
                "web_fallback_for": settings.webFallbackFor,
            ])
    }

    /// Applies the members present in `object` (null resets an optional one); the problem, or nil.
    static func applyV2Settings(_ object: [String: Any], to settings: inout V2Settings) -> String? {
        let known: Set<String> = [
            "api_segment", "href_style", "poll_in_progress", "poll_interval_ms", "sms_risk_verification", "web_fallback_for",
        ]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) { return "unknown setting '\(unknown)'" }
        if let value = object["api_segment"] {
            guard let segment = value as? String, !segment.isEmpty, segment.count <= 32,
                segment.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") })
            else { return "api_segment must be a path segment such as v2.0 or v0.1" }
            settings.apiSegment = segment
        }
        if let value = object["href_style"] {
            guard let raw = value as? String, let style = V2Settings.HrefStyle(rawValue: raw) else {
                return "href_style must be relative, absolute or templated"
            }
            settings.hrefStyle = style
        }
        if let value = object["poll_in_progress"] {
            guard let number = value as? NSNumber, !(value is Bool), number.intValue >= 0, number.intValue <= 100 else {
                return "poll_in_progress must be an integer from 0 to 100"
            }
            settings.pollInProgress = number.intValue
        }
        if let value = object["poll_interval_ms"] {
            if value is NSNull {
                settings.pollIntervalMs = nil
            } else {
                guard let number = value as? NSNumber, !(value is Bool), number.intValue >= 0 else {
                    return "poll_interval_ms must be a non-negative integer or null"
                }
                settings.pollIntervalMs = number.intValue
            }
        }
        if let value = object["sms_risk_verification"] {
            if value is NSNull {
                settings.smsRiskVerification = nil
            } else {
                guard let raw = value as? String, let policy = Seed.SMSRiskVerification(rawValue: raw) else {
                    return "sms_risk_verification must be always, never or null"
                }
                settings.smsRiskVerification = policy
            }
        }
        if let value = object["web_fallback_for"] {
            guard let names = value as? [String] else { return "web_fallback_for must be a list of usernames" }
            settings.webFallbackFor = names
        }
        return nil
    }
}
