import Foundation

/// Reads the body of every V2 answer, whatever its status (docs/protocol.md#how-the-sdk-reads-an-answer), into a
/// `V2Answer`. Never throws and never traps: a body it cannot use is `.invalid` with the reason.
package struct V2AnswerDecoder: Sendable {
    /// Which request the answer is to: it decides what success looks like.
    package enum Request: Sendable {
        /// `authorize-challenge` without a token: success is a token and journey links.
        case entry
        /// An href of an earlier answer: a HAL answer.
        case interaction
        /// `authorize-challenge` with the token: success is a code.
        case resume
    }

    package let links: V2Links
    package let logger: MSALLoggerConfig

    package init(links: V2Links, logger: MSALLoggerConfig) {
        self.links = links
        self.logger = logger
    }

    /// The method types the SDK knows; others are skipped with a warning.
    static let knownMethodTypes: Set<String> = ["password", "email", "sms"]

    package func decode(status: Int, body: Data, as request: Request) -> V2Answer {
        guard !body.isEmpty, let json = try? JSONSerialization.jsonObject(with: body), let object = json as? [String: Any] else {
            return .invalid("The server answered HTTP \(status) with a body that is not a JSON object")
        }
        if let message = Self.browserFallback(object) { return .browserRequired(message: message) }
        let token = Self.string(object["continuationToken"]) ?? Self.string(object["continuation_token"])
        switch request {
        case .entry:
            // Success is "a token and the link", whatever the status and the flat `error` (docs/protocol.md#how-the-sdk-reads-an-answer).
            if let token { return .entryInvitation(token: token, journeys(object)) }
            return Self.serverError(object).map(V2Answer.error) ?? .invalid("The entry answer has no continuation token")
        case .resume:
            if let error = Self.serverError(object) { return .error(error) }
            if let code = Self.string(object["code"]) ?? Self.string(object["authorizationCode"]) { return .code(code) }
            return .invalid("The resume answer has no authorization code")
        case .interaction:
            if let error = Self.serverError(object) { return .error(error) }
            return interaction(object, token: token)
        }
    }

    // MARK: HAL answers

    private func interaction(_ object: [String: Any], token: String?) -> V2Answer {
        let state = Self.string(object["state"])
        if state == "continue" {
            guard let token else { return .invalid("The answer says continue but has no continuation token") }
            switch link("continue", in: object) {
            case .success(let url): return .resume(token: token, link: url)
            case .failure(let refusal): return .invalid(refusal.message)
            }
        }
        guard let token else { return .invalid("The answer has no continuation token") }
        let action = Self.string(object["action"]) ?? ""
        do throws(V2Links.Refusal) {
            switch action {
            case "challenge":
                let context = object["challengeContext"] as? [String: Any]
                guard let factor = V2Factor(rawValue: Self.string(context?["authenticationFactor"]) ?? "") else {
                    return .invalid("The challenge answer has no known authentication factor")
                }
                return .challenge(factor, try methods(object, relations: ["challenge"]), token: token)
            case "verify":
                guard let verification = try verification(object, relation: "verify") else {
                    return .invalid("The verify answer has no verify link")
                }
                return .verify(verification, token: token)
            case "activate":
                guard let verification = try verification(object, relation: "activate") else {
                    return .invalid("The activate answer has no activate link")
                }
                return .activate(verification, token: token)
            case "riskverify":
                guard let url = try link("riskverify", in: object).get() else { return .invalid("The riskverify answer has no link") }
                return .riskVerify(url, token: token)
            case "collectAttributes", "update", "poll":
                return try signUpOrReset(action, object, token: token)
            case "register", "enroll":
                return .register(try methods(object, relations: ["enroll", "register"]), token: token)
            default:
                let shown = action.isEmpty ? "none" : String(action.prefix(40))
                return .invalid("The server asked for an action the SDK does not support (\(shown))")
            }
        } catch {
            return .invalid(error.message)
        }
    }

    /// `_embedded.methods` of a supported type with one of `relations` as link, server order kept.
    private func methods(_ object: [String: Any], relations: [String]) throws(V2Links.Refusal) -> [V2Method] {
        let embedded = object["_embedded"] as? [String: Any]
        var found: [V2Method] = []
        for case let item as [String: Any] in embedded?["methods"] as? [Any] ?? [] {
            let type = Self.string(item["type"]) ?? ""
            guard Self.knownMethodTypes.contains(type) else {
                logger.warning("Skipped a V2 authentication method of unsupported type '\(String(type.prefix(40)))'")
                continue
            }
            guard let id = Self.string(item["id"]) else {
                logger.warning("Skipped a V2 authentication method without an id")
                continue
            }
            var url: URL?
            for relation in relations where url == nil { url = try link(relation, in: item).get() }
            guard let url else {
                logger.warning("Skipped a V2 authentication method without a \(relations[0]) link")
                continue
            }
            found.append(V2Method(id: id, type: type, hint: Self.string(item["hint"]), link: url))
        }
        return found
    }

    private func verification(_ object: [String: Any], relation: String) throws(V2Links.Refusal) -> V2Verification? {
        guard let submit = try link(relation, in: object).get() else { return nil }
        let payload = object["payload"] as? [String: Any]
        return V2Verification(
            methodId: Self.string(object["id"]), type: Self.string(object["type"]), hint: Self.string(object["hint"]),
            codeLength: Self.int(object["codeLength"]) ?? Self.int(payload?["codeLength"]),
            submit: submit, resend: try link("resend", in: object).get(), recover: try link("recover", in: object).get())
    }

    /// `_links[relation].href`, resolved; nil when absent.
    func link(_ relation: String, in object: [String: Any]) -> Result<URL?, V2Links.Refusal> {
        let all = object["_links"] as? [String: Any]
        guard let entry = all?[relation] as? [String: Any], let href = Self.string(entry["href"]) else { return .success(nil) }
        return Result { () throws(V2Links.Refusal) in try links.resolve(href) }.map(Optional.some)
    }

    // MARK: The entry

    /// Flat `sign_in` / `sign_up` / `reset_password`, and the HAL `_links` relations
    /// (`signIn`, `signUp`, `resetPassword`), which win on conflict.
    private func journeys(_ object: [String: Any]) -> V2Journeys {
        let hal = object["_links"] as? [String: Any]
        var found: [String: Result<URL, V2Links.Refusal>] = [:]
        for (flat, relation) in [("sign_in", "signIn"), ("sign_up", "signUp"), ("reset_password", "resetPassword")] {
            let fromHAL = (hal?[relation] as? [String: Any]).flatMap { Self.string($0["href"]) }
            let flatSpelling = flat == "reset_password" ? Self.string(object["resetPassword"]) : nil
            guard let href = fromHAL ?? Self.string(object[flat]) ?? flatSpelling else { continue }
            found[flat] = Result { () throws(V2Links.Refusal) in try links.resolve(href) }
        }
        return V2Journeys(links: found)
    }

    // MARK: Errors

    /// The server's text when the answer sends the user to a browser (docs/protocol.md#how-the-sdk-reads-an-answer, rule 1).
    static func browserFallback(_ object: [String: Any]) -> String?? {
        let nested = object["error"] as? [String: Any]
        let code = string(object["error"]) ?? string(nested?["code"])
        let inner = string(object["suberror"]) ?? string((nested?["innerError"] as? [String: Any])?["code"])
        let message = string(object["error_description"]) ?? string(nested?["message"])
        if string(object["state"]) == "webFallbackRequired" || code == "redirect_to_web" { return .some(message) }
        if code == "invalid_grant" || code == "invalidGrant", inner == "web_redirect_required" { return .some(message) }
        return nil
    }

    /// A nested HAL error or a flat OAuth error; nil when the body has no `error`.
    static func serverError(_ object: [String: Any]) -> V2ServerError? {
        if let nested = object["error"] as? [String: Any] {
            guard let code = string(nested["code"]) else { return V2ServerError(code: "unknown", message: nil) }
            let inner = nested["innerError"] as? [String: Any]
            let details = (inner?["details"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
            let message = string(nested["message"])
            return V2ServerError(
                code: code, innerCode: string(inner?["code"]), message: message, errorCodes: aadsts(in: message, after: []),
                correlationId: uuid(nested["correlationId"] ?? nested["correlation_id"] ?? object["correlationId"]),
                detailCodes: details.compactMap { string($0["code"]) },
                attributeIds: details.flatMap { ($0["attributeIds"] as? [Any] ?? []).compactMap { string($0) } })
        }
        guard let code = string(object["error"]) else { return nil }
        let listed = (object["error_codes"] as? [Any] ?? []).compactMap { int($0) }
        let message = string(object["error_description"])
        return V2ServerError(
            code: code, innerCode: string(object["suberror"]), message: message, errorCodes: aadsts(in: message, after: listed),
            errorURI: string(object["error_uri"]), correlationId: uuid(object["correlation_id"] ?? object["correlationId"]))
    }

    /// `codes`, then every `AADSTS<digits>` of `message` not among them.
    static func aadsts(in message: String?, after codes: [Int]) -> [Int] {
        var all = codes
        guard let message else { return all }
        var rest = Substring(message)
        while let range = rest.range(of: "AADSTS") {
            let digits = rest[range.upperBound...].prefix(while: { $0.isASCII && $0.isNumber }).prefix(12)
            if let code = Int(digits), !all.contains(code) { all.append(code) }
            rest = rest[range.upperBound...]
        }
        return all
    }

    // MARK: Values

    static func string(_ value: Any?) -> String? {
        guard let text = value as? String, !text.isEmpty else { return nil }
        return text
    }

    static func int(_ value: Any?) -> Int? {
        guard !(value is Bool), let number = value as? NSNumber else { return nil }
        let double = number.doubleValue
        guard double.isFinite, double >= 0, double <= 1_000_000, double == double.rounded() else { return nil }
        return Int(double)
    }

    static func uuid(_ value: Any?) -> UUID? {
        string(value).flatMap(UUID.init(uuidString:))
    }
}
