/// A strong-authentication method of the user: where a second-factor code can be sent, or (during
/// registration) a kind of method the user may register. Mirrors MSAL's `MSALAuthMethod`.
///
/// The SDK makes these from the server's introspect answers; pass one back to
/// `AwaitingMFAState.requestChallenge(authMethod:)` or, with a contact, to
/// `RegisterStrongAuthState.challengeAuthMethod(parameters:)`.
public final class MSALAuthMethod: Sendable, CustomStringConvertible {
    /// The server's id of the method (MFA: an opaque id; registration: for example `email`).
    public let id: String
    /// How the method proves the user, for example `oob` (a one-time code sent out of band).
    public let challengeType: String
    /// Where codes go: `email` or `sms`.
    public let channelTargetType: MSALNativeAuthChannelType
    /// The masked contact the server shows for the method (for example `a***n@ex*****e.net`), when it sent one.
    public let loginHint: String?

    package init(id: String, challengeType: String, channelTargetType: MSALNativeAuthChannelType, loginHint: String?) {
        self.id = id
        self.challengeType = challengeType
        self.channelTargetType = channelTargetType
        self.loginHint = loginHint
    }

    /// The id and channel only: the login hint is the user's (masked) contact, personal data.
    public var description: String { "MSALAuthMethod(id: \(id), \(challengeType) via \(channelTargetType.value))" }
}

/// What `RegisterStrongAuthState.challengeAuthMethod(parameters:)` needs: the kind of method and the
/// contact (an email address or a phone number) the user typed. Mirrors MSAL's
/// `MSALNativeAuthChallengeAuthMethodParameters`.
public final class MSALNativeAuthChallengeAuthMethodParameters: Sendable {
    /// The kind of method to register: one of the `authMethods` the sign-in step offered.
    public let authMethod: MSALAuthMethod
    /// The email address or phone number the user typed; the verification code goes there.
    public let verificationContact: String

    /// Pairs one of the offered methods with the contact the user typed for it.
    public init(authMethod: MSALAuthMethod, verificationContact: String) {
        self.authMethod = authMethod
        self.verificationContact = verificationContact
    }
}
