/// Where a one-time code was sent. Mirrors MSAL's `MSALNativeAuthChannelType`.
public final class MSALNativeAuthChannelType: Sendable, CustomStringConvertible {
    /// The server's `challenge_channel`, for example `email`.
    public let value: String

    public init(value: String) {
        self.value = value
    }

    public var isEmailType: Bool { value.lowercased() == "email" }
    public var isSMSType: Bool { value.lowercased() == "sms" }

    public var description: String { value }
}
