import Foundation

/// One attribute descriptor of a `collectAttributes` answer (docs/protocol.md#answers).
package struct V2AttributeDescriptor: Sendable, Equatable {
    package var id: String
    package var inputType: String
    package var required: Bool
    package var hidden: Bool
    package var canChange: Bool
    package var label: String?
    /// `regex` or `validationRegex`.
    package var regex: String?
    package var options: [String]?
    package var confirmationInput: String?

    package init(
        id: String, inputType: String = "text", required: Bool = false, hidden: Bool = false, canChange: Bool = true,
        label: String? = nil, regex: String? = nil, options: [String]? = nil, confirmationInput: String? = nil
    ) {
        self.id = id
        self.inputType = inputType
        self.required = required
        self.hidden = hidden
        self.canChange = canChange
        self.label = label
        self.regex = regex
        self.options = options
        self.confirmationInput = confirmationInput
    }
}

extension MSALNativeAuthRequiredAttribute {
    /// The public attribute of a descriptor.
    convenience init(_ descriptor: V2AttributeDescriptor) {
        self.init(
            name: descriptor.id, type: descriptor.inputType, required: descriptor.required, regex: descriptor.regex,
            label: descriptor.label, isHidden: descriptor.hidden, canChange: descriptor.canChange, options: descriptor.options,
            confirmationInput: descriptor.confirmationInput)
    }

    /// The descriptor the attribute was made from (a saved state writes it).
    var descriptor: V2AttributeDescriptor {
        V2AttributeDescriptor(
            id: name, inputType: type, required: required, hidden: isHidden, canChange: canChange, label: label, regex: regex,
            options: options, confirmationInput: confirmationInput)
    }
}

/// A sign-up attribute value as JSON can carry it (docs/protocol.md#answers): a string (text, date), a
/// boolean, a number or an array of strings (multi-select).
package enum V2AttributeValue: Sendable, Equatable {
    case string(String)
    case bool(Bool)
    case number(Double)
    case strings([String])

    /// The value of an app's `[String: Any]`; nil for anything JSON attributes cannot carry.
    package init?(_ value: Any) {
        switch value {
        case let text as String: self = .string(text)
        case let flag as Bool: self = .bool(flag)
        case let integer as Int: self = .number(Double(integer))
        case let number as Double:
            guard number.isFinite else { return nil }
            self = .number(number)
        case let texts as [String]: self = .strings(texts)
        default: return nil
        }
    }

    /// The JSON value sent.
    var json: Any {
        switch self {
        case .string(let text): text
        case .bool(let flag): flag
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? Int(number) as Any : number as Any
        case .strings(let texts): texts
        }
    }

    /// Converts an app's attributes: `email` and `password` (any case) are dropped with a warning
    /// (docs/usage.md#v2-sign-up-and-password-reset), as are values JSON attributes cannot carry.
    static func convert(_ attributes: [String: Any]?, logger: MSALLoggerConfig) -> [String: V2AttributeValue] {
        var values: [String: V2AttributeValue] = [:]
        for (name, value) in attributes ?? [:] {
            if ["email", "password"].contains(name.lowercased()) {
                logger.warning("Ignored the sign-up attribute '\(name)': the email is the username, the password is asked for")
                continue
            }
            guard let converted = V2AttributeValue(value) else {
                logger.warning(
                    "Ignored the sign-up attribute '\(String(name.prefix(60)))': its value is not a string, boolean, number or strings")
                continue
            }
            values[name] = converted
        }
        return values
    }
}

extension V2AnswerDecoder {
    /// `collectAttributes`, `update` and `poll` (docs/protocol.md#answers).
    func signUpOrReset(_ action: String, _ object: [String: Any], token: String) throws(V2Links.Refusal) -> V2Answer {
        switch action {
        case "collectAttributes":
            let fallback = try link("self", in: object).get()
            guard let submit = try link("submitAttributes", in: object).get() ?? fallback else {
                return .invalid("The collectAttributes answer has no submitAttributes link")
            }
            let descriptors = (object["attributes"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }.compactMap(Self.descriptor)
            return .collectAttributes(descriptors, submit: submit, token: token)
        case "update":
            let fallback = try link("self", in: object).get()
            guard let update = try link("update", in: object).get() ?? fallback else {
                return .invalid("The update answer has no update link")
            }
            let verification = V2Verification(
                methodId: Self.string(object["id"]), type: Self.string(object["type"]) ?? "password", hint: nil, codeLength: nil,
                submit: update, resend: nil, recover: nil)
            return .update(verification, token: token)
        default:
            guard let poll = try link("poll", in: object).get() else { return .invalid("The poll answer has no poll link") }
            return .poll(poll, intervalMilliseconds: Self.int(object["pollInterval"]), token: token)
        }
    }

    static func descriptor(_ item: [String: Any]) -> V2AttributeDescriptor? {
        guard let id = string(item["attributeId"]) ?? string(item["name"]) else { return nil }
        let options = (item["options"] as? [Any])?.compactMap { option -> String? in
            string(option) ?? (option as? [String: Any]).flatMap { string($0["value"]) ?? string($0["label"]) }
        }
        return V2AttributeDescriptor(
            id: id, inputType: string(item["inputType"]) ?? string(item["type"]) ?? "text", required: item["required"] as? Bool ?? false,
            hidden: item["hidden"] as? Bool ?? false, canChange: item["canChange"] as? Bool ?? true, label: string(item["label"]),
            regex: string(item["regex"]) ?? string(item["validationRegex"]), options: options,
            confirmationInput: string(item["confirmationInput"]))
    }
}
