import Foundation

/// A sent code: where it went and its length, from the `verify` or `activate` answer.
struct V2CodeInfo: Sendable {
    let sentTo: String
    let channel: MSALNativeAuthChannelType
    let codeLength: Int

    init(_ verification: V2Verification) {
        sentTo = verification.hint ?? ""
        channel = MSALNativeAuthChannelType(value: verification.type ?? "email")
        // MSAL's V1 default when the server gives none (docs/protocol.md#success-bodies).
        codeLength = verification.codeLength ?? 8
    }
}

/// A sent code and the two continuations on it, shared by the code, MFA and registration code states.
struct V2Challenge: Sendable {
    let verification: V2Verification
    let purpose: V2FlowMachine.Purpose
    let info: V2CodeInfo

    init(_ verification: V2Verification, _ purpose: V2FlowMachine.Purpose) {
        self.verification = verification
        self.purpose = purpose
        info = V2CodeInfo(verification)
    }

    func submit(_ code: String, on core: V2StateCore) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        try await core.step { $0.submitCode(code, verification: verification, purpose: purpose, on: core.continuation) }
    }

    func resend(on core: V2StateCore) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        try await core.step { $0.resend(verification, purpose: purpose, on: core.continuation) }
    }
}

/// The methods of a selection state. Like every V2 state it is a snapshot: each selection sends a
/// request with the state's token, however often the app selects on it, and the service decides
/// (MSAL has no local guard either: docs/decisions.md#native-auth-v2).
final class V2Selection: Sendable {
    let methods: [V2Method]
    let purpose: V2FlowMachine.Purpose
    let authMethods: [MSALAuthMethod]

    init(_ methods: [V2Method], _ purpose: V2FlowMachine.Purpose) {
        self.methods = methods
        self.purpose = purpose
        authMethods = methods.map {
            MSALAuthMethod(
                id: $0.id, challengeType: $0.type, channelTargetType: MSALNativeAuthChannelType(value: $0.type), loginHint: $0.hint)
        }
    }

    func select(_ method: MSALAuthMethod, contact: String?, on core: V2StateCore) async throws(MSALNativeAuthFlowError)
        -> MSALNativeAuthFlowResult
    {
        let chosen = methods.first { $0.id == method.id }
        return try await core.step { $0.select(chosen, contact: contact, purpose: purpose, on: core.continuation) }
    }
}
