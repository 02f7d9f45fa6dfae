/// An attribute the sign-up still needs. Mirrors MSAL's `MSALNativeAuthRequiredAttribute`.
public final class MSALNativeAuthRequiredAttribute: Sendable, CustomStringConvertible {
    /// The attribute's programmatic name, e.g. `displayName` or `extension_<appid>_age`.
    public let name: String
    /// Its type as the server names it, e.g. `string`.
    public let type: String
    /// Whether the user flow insists on a value; an attribute that is not required may still be sent.
    public let required: Bool
    /// A regular expression the value must match, when the user flow sets one.
    public let regex: String?

    /// The display text the user flow gives the attribute (native auth V2 only; nil in V1).
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public let label: String?
    /// Whether the attribute is not shown to the user (native auth V2 only; false in V1).
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public let isHidden: Bool
    /// Whether the user may edit the value (native auth V2 only; true in V1).
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public let canChange: Bool
    /// The choices of a select attribute (native auth V2 only; nil when the service lists none).
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public let options: [String]?
    /// How the value is confirmed, e.g. `retype` for a password (native auth V2 only).
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public let confirmationInput: String?

    package init(
        name: String, type: String, required: Bool, regex: String?, label: String? = nil, isHidden: Bool = false,
        canChange: Bool = true, options: [String]? = nil, confirmationInput: String? = nil
    ) {
        self.name = name
        self.type = type
        self.required = required
        self.regex = regex
        self.label = label
        self.isHidden = isHidden
        self.canChange = canChange
        self.options = options
        self.confirmationInput = confirmationInput
    }

    package convenience init(_ wire: NativeAuthAPIError.RequiredAttribute) {
        self.init(name: wire.name, type: wire.type, required: wire.required, regex: wire.regex)
    }

    /// The name and type, with `required` when it is, for logs and debugging.
    public var description: String { "\(name) (\(type)\(required ? ", required" : ""))" }
}
