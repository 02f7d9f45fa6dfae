import Foundation

/// Where a V2 link points: an interaction route under `/T/api/{segment}/` or an OAuth endpoint under
/// `/T/oauth2/v2.0/`.
enum V2LinkTarget {
    case api(String)
    case oauth(String)
}

/// One HAL interaction answer (docs/protocol.md#native-auth-v2-experimental): every V2 success body is made
/// here, by `EmulatorRouter.halResponse`, so the envelope (`state`, `action`, `scenario`,
/// `continuationToken`, `_links` with `self`, `_embedded.methods`) has one shape.
struct HALAnswer {
    /// `interactionRequired` or `continue`.
    var state = "interactionRequired"
    /// What the client does next; nil on `continue`.
    var action: String?
    var scenario = "signin"
    var continuationToken: String
    /// `singleFactor` or `multiFactor`, sent with method lists.
    var authenticationFactor: String?
    /// Relation → target, besides `self` (the request's own route).
    var links: [(String, V2LinkTarget)] = []
    /// `_embedded.methods`, in server order.
    var methods: [V2Method]?
    /// The relation each listed method carries (`challenge`; `enroll` for registration).
    var methodRelation = "challenge"
    /// `id`, `type`, `hint` of the method being verified or activated.
    var method: V2Method?
    /// The code length, sent both top-level and as `payload.codeLength`; `payload` alone (empty) for a password.
    var codeLength: Int?
    /// `attributes` of a `collectAttributes` answer.
    var attributes: [V2Attribute]?
    /// `pollInterval` (milliseconds) of a `poll` answer, when the hook sets `poll_interval_ms`.
    var pollInterval: Int?

    /// The `continue` answer: the token resumes at the authorize-challenge endpoint.
    static func resume(token: String, scenario: String) -> HALAnswer {
        HALAnswer(state: "continue", scenario: scenario, continuationToken: token, links: [("continue", .oauth("authorize-challenge"))])
    }
}

/// How a V2 request is answered: the tenant segment the client used, the hook settings, the request's route.
struct V2Request {
    var context: EmulatorRouter.RequestContext
    /// The first path segment as the client wrote it; every href carries it.
    var tenant: String
    var settings: V2Settings
    /// The route after `/T/api/{segment}/`, for the `self` link.
    var route: String
    /// The JSON body (empty for form requests).
    var body: [String: Any] = [:]

    /// `continuationToken`, the only spelling the service's camelCase interaction routes read: a
    /// `continuation_token` member is unknown, so the token is missing (docs/protocol.md#native-auth-v2-experimental).
    var continuationToken: String? { body["continuationToken"] as? String }

    /// A string member of the body.
    func string(_ name: String) -> String? { body[name] as? String }
}

extension EmulatorRouter {
    /// The href of `target` in the style the hook set: relative (default), absolute or templated.
    func v2Href(_ target: V2LinkTarget, _ r: V2Request) -> (href: String, templated: Bool) {
        let tenant = r.settings.hrefStyle == .templated ? "{tenant}" : r.tenant
        let path: String
        switch target {
        case .api(let route): path = "/\(tenant)/api/\(r.settings.apiSegment)/\(route)"
        case .oauth(let endpoint): path = "/\(tenant)/oauth2/v2.0/\(endpoint)"
        }
        switch r.settings.hrefStyle {
        case .relative: return (path, false)
        case .absolute: return (r.context.request.baseURL + path, false)
        case .templated: return (path, true)
        }
    }

    /// A `_links` entry.
    func v2Link(_ target: V2LinkTarget, _ r: V2Request) -> [String: Any] {
        let (href, templated) = v2Href(target, r)
        return templated ? ["href": href, "templated": true] : ["href": href]
    }

    /// The method's route prefix: `auth/methods/{type}/{id}`.
    static func v2MethodRoute(_ method: V2Method) -> String { "auth/methods/\(method.type)/\(method.id)" }

    /// Renders `answer` as `application/hal+json`.
    func halResponse(_ answer: HALAnswer, _ r: V2Request) -> EmulatorResponse {
        var body: [String: Any] = ["state": answer.state, "scenario": answer.scenario, "continuationToken": answer.continuationToken]
        if let action = answer.action { body["action"] = action }
        if let factor = answer.authenticationFactor { body["challengeContext"] = ["authenticationFactor": factor] }
        var links: [String: Any] = ["self": v2Link(.api(r.route), r)]
        for (relation, target) in answer.links { links[relation] = v2Link(target, r) }
        body["_links"] = links
        if let methods = answer.methods {
            body["_embedded"] = [
                "methods": methods.map { method -> [String: Any] in
                    var item: [String: Any] = ["id": method.id, "type": method.type]
                    if let hint = Self.v2Hint(method) { item["hint"] = hint }
                    let route =
                        method.role == .registration ? "auth/methods/\(method.type)/register" : Self.v2MethodRoute(method) + "/challenge"
                    var links = [answer.methodRelation: v2Link(.api(route), r)]
                    // A sign-in's password method offers inline recovery.
                    if method.type == "password", method.role == .firstFactor {
                        links["recover"] = v2Link(.api(Self.v2MethodRoute(method) + "/recover"), r)
                    }
                    item["_links"] = links
                    return item
                }
            ]
        }
        if let method = answer.method {
            body["id"] = method.id
            body["type"] = method.type
            if let hint = Self.v2Hint(method) { body["hint"] = hint }
        }
        if let length = answer.codeLength {
            body["codeLength"] = length
            body["payload"] = ["codeLength": length]
        } else if answer.method?.type == "password" {
            body["payload"] = [String: Any]()
        }
        if let attributes = answer.attributes {
            body["attributes"] = attributes.map { attribute -> [String: Any] in
                var item: [String: Any] = [
                    "attributeId": attribute.id, "inputType": attribute.inputType, "required": attribute.required, "hidden": false,
                    "canChange": true, "label": attribute.label,
                ]
                if let regex = attribute.regex { item["regex"] = regex }
                if let confirmation = attribute.confirmationInput { item["confirmationInput"] = confirmation }
                return item
            }
        }
        if let interval = answer.pollInterval { body["pollInterval"] = interval }
        var response = EmulatorResponse.json(200, body)
        response.headers["Content-Type"] = "application/hal+json; charset=utf-8"
        response.headers["x-ms-request-id"] = UUID().uuidString.lowercased()
        return response
    }

    /// A nested HAL error (docs/protocol.md#native-auth-v2-experimental): `{"error": {code, message, timestamp,
    /// traceId, correlationId, innerError: {code}}}`, the AADSTS number only inside `message`.
    /// `details` (`[{attributeIds, code, message}]`) go inside `innerError`.
    func halError(
        _ code: String, _ innerCode: String?, _ aadsts: Int?, _ message: String, status: Int = 400, state: String? = nil,
        details: [[String: Any]] = [], context: RequestContext
    ) -> Failure {
        var error: [String: Any] = [
            "code": code, "message": aadsts.map { "AADSTS\($0): \(message)" } ?? message, "timestamp": Self.timestamp(context.now),
            "traceId": UUID().uuidString.lowercased(), "correlationId": context.correlationId,
        ]
        if let innerCode { error["innerError"] = details.isEmpty ? ["code": innerCode] : ["code": innerCode, "details": details] }
        var body: [String: Any] = ["error": error]
        if let state { body["state"] = state }
        var response = EmulatorResponse.json(status, body)
        response.headers["x-ms-request-id"] = UUID().uuidString.lowercased()
        return Failure(response: response)
    }

    /// The masked destination of a method: V2 email rule (`margaret@example.com` → `m****t@e****e`) or the
    /// V1 phone rule (`+*******0101`); nil without a destination.
    static func v2Hint(_ method: V2Method) -> String? {
        guard let target = method.target, method.type != "password" else { return nil }
        return method.type == "sms" ? maskedPhone(target) : v2MaskedEmail(target)
    }

    /// First and last character of the local part and of the first domain label, `****` between, no
    /// suffix (a one-character part keeps its character and gets the `****`).
    static func v2MaskedEmail(_ address: String) -> String {
        let parts = address.split(separator: "@", maxSplits: 1)
        guard parts.count == 2, let label = parts[1].split(separator: ".").first else { return "****" }
        func mask(_ text: Substring) -> String {
            guard let first = text.first, let last = text.last else { return "****" }
            return text.count == 1 ? "\(first)****" : "\(first)****\(last)"
        }
        return mask(parts[0]) + "@" + mask(label)
    }
}
