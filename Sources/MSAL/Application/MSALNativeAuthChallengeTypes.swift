/// The ways of proving identity this app can handle natively. Mirrors MSAL's
/// `MSALNativeAuthChallengeTypes`. `redirect` is always added on the wire, last.
public struct MSALNativeAuthChallengeTypes: OptionSet, Sendable, Hashable {
    /// The set as bits, one per challenge type.
    public let rawValue: Int
    /// A set from its bits; the static members name the valid ones.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A one-time code sent out of band (by email).
    public static let OOB = MSALNativeAuthChallengeTypes(rawValue: 1 << 0)
    /// A password.
    public static let password = MSALNativeAuthChallengeTypes(rawValue: 1 << 1)

    /// The wire value, in the fixed order `oob password redirect` (docs/protocol.md#challenge-types).
    package var wireValue: String {
        var parts: [String] = []
        if contains(.OOB) { parts.append("oob") }
        if contains(.password) { parts.append("password") }
        parts.append("redirect")
        return parts.joined(separator: " ")
    }
}

/// Extra abilities the app declares to the server. Mirrors MSAL's `MSALNativeAuthCapabilities`.
/// Sent as `capabilities` only when not empty (docs/protocol.md#capabilities).
public struct MSALNativeAuthCapabilities: OptionSet, Sendable, Hashable {
    /// The set as bits, one per capability.
    public let rawValue: Int
    /// A set from its bits; the static members name the valid ones.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The app can complete multifactor authentication natively.
    public static let mfaRequired = MSALNativeAuthCapabilities(rawValue: 1 << 0)
    /// The app can register a strong-authentication method natively.
    public static let registrationRequired = MSALNativeAuthCapabilities(rawValue: 1 << 1)

    package var wireValue: String? {
        var parts: [String] = []
        if contains(.mfaRequired) { parts.append("mfa_required") }
        if contains(.registrationRequired) { parts.append("registration_required") }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}
