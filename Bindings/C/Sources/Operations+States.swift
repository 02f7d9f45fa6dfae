import Foundation
import MSAL

/// The steps on a waiting flow state: a code, a password, attributes, a new code, the sign-in after
/// a sign-up or a reset. Each refuses a state of a kind it does not apply to; V2 states go to
/// Operations+V2.swift.
extension Operations {
    private struct Attributes: @unchecked Sendable {
        // A JSON object from JSONSerialization: strings, numbers, booleans, arrays, dictionaries, NSNull; never mutated.
        let value: [String: Any]?
    }

    static func submitCode(_ handle: OpaquePointer?, _ code: UnsafePointer<CChar>?) throws(InterfaceError) -> Work {
        let state = try Self.state(handle)
        let code = try CStrings.required(code, "code")
        switch state {
        case .signInCode(let state):
            return {
                do throws(VerifyCodeError) { return .step(try await state.submitCode(code: code)) } catch { return Outcome(error) }
            }
        case .signUpCode(let state):
            return {
                do throws(VerifyCodeError) {
                    switch try await state.submitCode(code: code) {
                    case .completed(let next): return Outcome(kind: .signUpCompleted, state: .signInAfterSignUp(next))
                    case .passwordRequired(let next): return Outcome(kind: .passwordRequired, state: .signUpPassword(next))
                    case .attributesRequired(let attributes, let next): return .attributesRequired(attributes, next)
                    }
                } catch {
                    return Outcome(error)
                }
            }
        case .resetCode(let state):
            return {
                do throws(VerifyCodeError) {
                    return Outcome(kind: .passwordRequired, state: .resetPassword(try await state.submitCode(code: code)))
                } catch {
                    return Outcome(error)
                }
            }
        case .mfaRequired(let state, _):
            return {
                do throws(MFASubmitChallengeError) {
                    return Outcome(kind: .signedIn, account: try await state.submitChallenge(challenge: code))
                } catch {
                    return Outcome(error)
                }
            }
        case .registerVerification(let state, _):
            return {
                do throws(RegisterStrongAuthSubmitChallengeError) {
                    return Outcome(kind: .signedIn, account: try await state.submitChallenge(challenge: code))
                } catch {
                    return Outcome(error)
                }
            }
        default:
            guard let work = v2SubmitCode(state, code) else { throw wrongState("msal_na_state_submit_code", state) }
            return work
        }
    }

    static func submitPassword(_ handle: OpaquePointer?, _ password: UnsafePointer<CChar>?) throws(InterfaceError) -> Work {
        let state = try Self.state(handle)
        let password = try CStrings.required(password, "password")
        switch state {
        case .signInPassword(let state):
            return {
                do throws(PasswordRequiredError) {
                    return .step(try await state.submitPassword(password: password))
                } catch {
                    return Outcome(error, passwordMeansCredentials: true)
                }
            }
        case .signUpPassword(let state):
            return {
                do throws(PasswordRequiredError) {
                    switch try await state.submitPassword(password: password) {
                    case .completed(let next): return Outcome(kind: .signUpCompleted, state: .signInAfterSignUp(next))
                    case .attributesRequired(let attributes, let next): return .attributesRequired(attributes, next)
                    }
                } catch {
                    return Outcome(error)
                }
            }
        case .resetPassword(let state):
            return {
                do throws(PasswordRequiredError) {
                    return Outcome(
                        kind: .resetPasswordCompleted, state: .signInAfterReset(try await state.submitPassword(password: password)))
                } catch {
                    return Outcome(error)
                }
            }
        default:
            guard let work = v2SubmitPassword(state, password) else { throw wrongState("msal_na_state_submit_password", state) }
            return work
        }
    }

    static func submitAttributes(_ handle: OpaquePointer?, _ json: UnsafePointer<CChar>?) throws(InterfaceError) -> Work {
        let state = try Self.state(handle)
        let attributes = Attributes(value: try Self.attributes(json, optional: false))
        if let work = v2SubmitAttributes(state, attributes.value ?? [:]) { return work }
        guard case .signUpAttributes(let state) = state else { throw wrongState("msal_na_state_submit_attributes", state) }
        return {
            do throws(AttributesRequiredError) {
                switch try await state.submitAttributes(attributes: attributes.value ?? [:]) {
                case .completed(let next): return Outcome(kind: .signUpCompleted, state: .signInAfterSignUp(next))
                case .attributesRequired(let attributes, let next): return .attributesRequired(attributes, next)
                case .attributesInvalid(let names, let next): return .attributesInvalid(names, next)
                }
            } catch {
                return Outcome(error)
            }
        }
    }

    static func resendCode(_ handle: OpaquePointer?) throws(InterfaceError) -> Work {
        let state = try Self.state(handle)
        switch state {
        case .signInCode(let state):
            return {
                do throws(ResendCodeError) {
                    return .codeRequired(try await state.resendCode(), FlowState.signInCode)
                } catch {
                    return Outcome(error)
                }
            }
        case .signUpCode(let state):
            return {
                do throws(ResendCodeError) {
                    return .codeRequired(try await state.resendCode(), FlowState.signUpCode)
                } catch {
                    return Outcome(error)
                }
            }
        case .resetCode(let state):
            return {
                do throws(ResendCodeError) {
                    return .codeRequired(try await state.resendCode(), FlowState.resetCode)
                } catch {
                    return Outcome(error)
                }
            }
        default:
            guard let work = v2ResendCode(state) else { throw wrongState("msal_na_state_resend_code", state) }
            return work
        }
    }

    /// Sign-in after a sign-up or a password reset.
    static func signInAfter(_ handle: OpaquePointer?, _ scopes: UnsafePointer<CChar>?) throws(InterfaceError) -> Work {
        let state = try Self.state(handle)
        let scopes = try Self.scopes(scopes)
        switch state {
        case .signInAfterSignUp(let state):
            return {
                let parameters = MSALNativeAuthSignInAfterSignUpParameters()
                parameters.scopes = scopes
                do throws(SignInAfterSignUpError) { return .step(try await state.signIn(parameters: parameters)) } catch {
                    return Outcome(error)
                }
            }
        case .signInAfterReset(let state):
            return {
                let parameters = MSALNativeAuthSignInAfterResetPasswordParameters()
                parameters.scopes = scopes
                do throws(SignInAfterResetPasswordError) { return .step(try await state.signIn(parameters: parameters)) } catch {
                    return Outcome(error)
                }
            }
        default:
            guard let work = v2SignIn(state, scopes) else { throw wrongState("msal_na_state_sign_in", state) }
            return work
        }
    }
}
