import Foundation

/// A one-time code the emulator "sent".
public struct EmulatorMail: Sendable, Equatable {
    /// The account's username, whatever the channel (the mailbox hook lists codes by account).
    public var to: String
    /// The code itself, as the person would type it.
    public var code: String
    /// `sign_in`, `sign_up`, `reset_password`, `mfa`, `registration` or `browser_sign_in`.
    public var purpose: String
    /// When it was sent, on the emulator's clock.
    public var sentAt: Date
    /// `email` or `sms`.
    public var channel: String
    /// The address or phone number the code went to: the account's email for sign-in, sign-up and
    /// reset; the strong-auth method's target for `mfa`; the contact being registered for `registration`.
    public var target: String
    /// `v2` for a code of a native auth V2 flow; nil for V1.
    public var api: String?
}
