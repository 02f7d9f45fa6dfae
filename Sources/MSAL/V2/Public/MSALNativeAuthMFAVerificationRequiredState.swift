import Foundation

/// A second-factor code was sent.
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthMFAVerificationRequiredState: MSALNativeAuthState, @unchecked Sendable {
    /// The masked destination of the code.
    public var sentTo: String { challenge.info.sentTo }
    /// The channel the code went through.
    public var channel: MSALNativeAuthChannelType { challenge.info.channel }
    /// The expected length of the code.
    public var codeLength: Int { challenge.info.codeLength }
    let challenge: V2Challenge

    init(_ core: V2StateCore, _ challenge: V2Challenge) {
        self.challenge = challenge
        super.init(core)
    }

    /// A short description of the state, without personal data.
    public override var description: String { "mfaVerificationRequired (channel: \(channel), length: \(codeLength))" }

    /// Submits the code the user typed.
    public func submitChallenge(_ code: String) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        try await challenge.submit(code, on: core)
    }

    /// Submits the code the user typed and reports to `delegate`.
    public func submitChallenge(_ code: String, delegate: any MSALNativeAuthFlowDelegate) {
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in try await self.submitChallenge(code) }
    }

    /// Asks the service to send a new code.
    public func resendChallenge() async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        try await challenge.resend(on: core)
    }

    /// Asks the service to send a new code and reports to `delegate`.
    public func resendChallenge(delegate: any MSALNativeAuthFlowDelegate) {
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in try await self.resendChallenge() }
    }
}
