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

    package init(name: String, type: String, required: Bool, regex: String?) {
        self.name = name
        self.type = type
        self.required = required
        self.regex = regex
    }

    package convenience init(_ wire: NativeAuthAPIError.RequiredAttribute) {
        self.init(name: wire.name, type: wire.type, required: wire.required, regex: wire.regex)
    }

    /// The name and type, with `required` when it is, for logs and debugging.
    public var description: String { "\(name) (\(type)\(required ? ", required" : ""))" }
}
