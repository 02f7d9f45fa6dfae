/// Where a one-time code was sent. Mirrors MSAL's `MSALNativeAuthChannelType`.
public final class MSALNativeAuthChannelType: Sendable, CustomStringConvertible {
    /// The server's `challenge_channel`, for example `email`.
    public let value: String

    /// A channel named as the server names it, for example `email`.
    public init(value: String) {
        self.value = value
    }

    /// Whether the code went by email (the name compared without regard to case).
    public var isEmailType: Bool { value.lowercased() == "email" }
    /// Whether the code went by text message (the name compared without regard to case).
    public var isSMSType: Bool { value.lowercased() == "sms" }

    /// The channel's name, `value`.
    public var description: String { value }
}
