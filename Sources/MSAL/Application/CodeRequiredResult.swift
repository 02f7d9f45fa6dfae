import Foundation

/// A one-time code was sent: what the `async` form of a step that only ever sends a code returns
/// (`resendCode()` on every code state, `resetPassword(parameters:)`, an MFA state's
/// `requestChallenge(authMethod:)`).
///
/// ```swift
/// // given: state: SignInCodeRequiredState
/// let sent = try await state.resendCode()
/// print("A new code of \(sent.codeLength) characters went to \(sent.sentTo)")  // submit it on sent.newState
/// ```
public struct CodeRequiredResult<State: Sendable>: Sendable {
    /// Submit the code on this state.
    public let newState: State
    /// Where the code went, as the server masks it (for example `a***@co**o.com`).
    public let sentTo: String
    /// The channel the code went through, `email` or `sms`.
    public let channelTargetType: MSALNativeAuthChannelType
    /// How many characters the code has.
    public let codeLength: Int

    package init(newState: State, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int) {
        self.newState = newState
        self.sentTo = sentTo
        self.channelTargetType = channelTargetType
        self.codeLength = codeLength
    }

    /// The result for `sent`, with the state made from its continuation.
    package init(_ sent: CodeSent, _ makeState: (Continuation) -> State) {
        self.init(
            newState: makeState(sent.next), sentTo: sent.sentTo, channelTargetType: MSALNativeAuthChannelType(value: sent.channel),
            codeLength: sent.codeLength)
    }
}
