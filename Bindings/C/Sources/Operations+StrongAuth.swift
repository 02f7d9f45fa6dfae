import Foundation
import MSAL

/// The steps of MFA and strong-auth registration on a state that carries auth methods.
extension Operations {
    /// MFA: sends a code to one of the methods the state carries.
    static func requestChallenge(_ handle: OpaquePointer?, _ methodId: UnsafePointer<CChar>?) throws(InterfaceError) -> Work {
        let state = try Self.state(handle)
        let id = try CStrings.required(methodId, "auth_method_id")
        let mfa: MFABaseState
        switch state {
        case .awaitingMFA(let awaiting, _): mfa = awaiting
        case .mfaRequired(let required, _): mfa = required
        default: throw wrongState("msal_na_state_request_challenge", state)
        }
        let methods = state.methods
        guard let method = methods.first(where: { $0.id == id }) else {
            throw InterfaceError(.invalidArgument, "'auth_method_id' is not one of the state's auth methods")
        }
        return {
            do throws(MFARequestChallengeError) {
                let sent = try await mfa.requestChallenge(authMethod: method)
                return .codeRequired(sent, { .mfaRequired($0, methods: methods) }, methods: methods)
            } catch {
                return Outcome(error)
            }
        }
    }

    /// Strong-auth registration: sends a code to `contact` for one of the kinds of method offered.
    static func registerMethod(_ handle: OpaquePointer?, _ methodId: UnsafePointer<CChar>?, _ contact: UnsafePointer<CChar>?)
        throws(InterfaceError) -> Work
    {
        let state = try Self.state(handle)
        let id = try CStrings.required(methodId, "auth_method_id")
        let contact = try CStrings.required(contact, "verification_contact")
        let register: RegisterStrongAuthBaseState
        switch state {
        case .registerStrongAuth(let base, _): register = base
        case .registerVerification(let base, _): register = base
        default: throw wrongState("msal_na_state_register_method", state)
        }
        let methods = state.methods
        guard let method = methods.first(where: { $0.id == id }) else {
            throw InterfaceError(.invalidArgument, "'auth_method_id' is not one of the state's auth methods")
        }
        let parameters = MSALNativeAuthChallengeAuthMethodParameters(authMethod: method, verificationContact: contact)
        return {
            do throws(RegisterStrongAuthChallengeError) {
                switch try await register.challengeAuthMethod(parameters: parameters) {
                case .verificationRequired(let result):
                    return .codeRequired(
                        .registerVerification(result.newState, methods: methods), sentTo: result.sentTo, channel: result.channelTargetType,
                        codeLength: result.codeLength, methods: methods)
                case .completed(let account): return Outcome(kind: .signedIn, account: account)
                }
            } catch {
                return Outcome(error)
            }
        }
    }
}
