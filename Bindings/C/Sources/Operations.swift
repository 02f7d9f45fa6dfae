import Foundation
import MSAL

/// Each operation of the C interface once: checks its arguments (synchronously, on the caller's
/// thread) and returns the work that calls the SDK's `async` API and turns its answer into an
/// `Outcome`. The `@_cdecl` functions in `Exports*.swift` wrap each in a callback and a `_wait` form.
enum Operations {
    typealias Work = Dispatcher.Work

    // MARK: Handles

    static func app(_ handle: OpaquePointer?) throws(InterfaceError) -> AppEntry {
        guard case .app(let entry) = try object(handle, "app") else { throw wrongKind("app", "an application") }
        return entry
    }

    static func state(_ handle: OpaquePointer?) throws(InterfaceError) -> FlowState {
        guard case .state(let state) = try object(handle, "state") else { throw wrongKind("state", "a flow state") }
        return state
    }

    static func account(_ handle: OpaquePointer?) throws(InterfaceError) -> AccountEntry {
        guard case .account(let entry) = try object(handle, "account") else { throw wrongKind("account", "an account") }
        return entry
    }

    static func result(_ handle: OpaquePointer?) throws(InterfaceError) -> Outcome {
        guard case .result(let outcome) = try object(handle, "result") else { throw wrongKind("result", "a result") }
        return outcome
    }

    private static func object(_ handle: OpaquePointer?, _ name: String) throws(InterfaceError) -> HandleRegistry.Object {
        guard let handle else { throw InterfaceError(.invalidArgument, "'\(name)' is NULL") }
        guard let object = HandleRegistry.shared.lookup(handle) else {
            throw InterfaceError(.invalidHandle, "'\(name)' is not a live handle (already freed, or never one)")
        }
        return object
    }

    private static func wrongKind(_ name: String, _ expected: String) -> InterfaceError {
        InterfaceError(.invalidHandle, "'\(name)' is a live handle of another kind, not \(expected)")
    }

    /// Space-separated scopes (NULL or empty: none).
    static func scopes(_ pointer: UnsafePointer<CChar>?) throws(InterfaceError) -> [String]? {
        guard let text = try CStrings.read(pointer, "scopes", optional: true) else { return nil }
        let list = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        return list.isEmpty ? nil : list
    }

    /// A JSON object of sign-up attributes (NULL: none).
    static func attributes(_ pointer: UnsafePointer<CChar>?, optional: Bool) throws(InterfaceError) -> [String: Any]? {
        guard let text = try CStrings.read(pointer, "attributes_json", optional: optional) else { return nil }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            throw InterfaceError(.invalidArgument, "'attributes_json' is not a JSON object")
        }
        return object
    }

    private struct Attributes: @unchecked Sendable {
        // A JSON object from JSONSerialization: strings, numbers, booleans, arrays, dictionaries, NSNull; never mutated.
        let value: [String: Any]?
    }

    private static func wrongState(_ operation: String, _ state: FlowState) -> InterfaceError {
        InterfaceError(.wrongState, "\(operation) does not apply to a state of kind \(state.kind.rawValue) (see msal_na_state_kind)")
    }

    // MARK: Starts

    static func signIn(
        _ app: OpaquePointer?, _ username: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?, _ scopes: UnsafePointer<CChar>?
    ) throws(InterfaceError) -> Work {
        let application = try Self.app(app).application
        let parameters = MSALNativeAuthSignInParameters(username: try CStrings.required(username, "username"))
        parameters.password = try CStrings.read(password, "password", optional: true)
        parameters.scopes = try Self.scopes(scopes)
        return signIn(application, parameters)
    }

    /// The sign-in itself, for `msal_na_sign_in` and `msal_na_sign_in_ex`.
    static func signIn(_ application: MSALNativeAuthPublicClientApplication, _ parameters: MSALNativeAuthSignInParameters) -> Work {
        let request = UncheckedParameters(value: parameters)
        return {
            do throws(SignInStartError) {
                switch try await application.signIn(parameters: request.value) {
                case .completed(let account): return Outcome(kind: .signedIn, account: account)
                case .codeRequired(let state, let sentTo, let channel, let length):
                    return .codeRequired(.signInCode(state), sentTo: sentTo, channel: channel, codeLength: length)
                case .passwordRequired(let state): return Outcome(kind: .passwordRequired, state: .signInPassword(state))
                case .awaitingMFA(let methods, let state): return .step(.awaitingMFA(authMethods: methods, newState: state))
                case .strongAuthMethodRegistration(let methods, let state):
                    return .step(.strongAuthMethodRegistration(authMethods: methods, newState: state))
                }
            } catch {
                return Outcome(error)
            }
        }
    }

    static func signUp(
        _ app: OpaquePointer?, _ username: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?, _ attributes: UnsafePointer<CChar>?
    ) throws(InterfaceError) -> Work {
        let application = try Self.app(app).application
        let parameters = MSALNativeAuthSignUpParameters(username: try CStrings.required(username, "username"))
        parameters.password = try CStrings.read(password, "password", optional: true)
        parameters.attributes = try Self.attributes(attributes, optional: true)
        return signUp(application, parameters)
    }

    /// The sign-up itself, for `msal_na_sign_up` and `msal_na_sign_up_ex`.
    static func signUp(_ application: MSALNativeAuthPublicClientApplication, _ parameters: MSALNativeAuthSignUpParameters) -> Work {
        let request = UncheckedParameters(value: parameters)
        return {
            do throws(SignUpStartError) {
                switch try await application.signUp(parameters: request.value) {
                case .codeRequired(let state, let sentTo, let channel, let length):
                    return .codeRequired(.signUpCode(state), sentTo: sentTo, channel: channel, codeLength: length)
                case .attributesInvalid(let names): return .attributesInvalid(names, nil)
                }
            } catch {
                return Outcome(error)
            }
        }
    }

    static func resetPassword(_ app: OpaquePointer?, _ username: UnsafePointer<CChar>?) throws(InterfaceError) -> Work {
        let application = try Self.app(app).application
        let parameters = MSALNativeAuthResetPasswordParameters(username: try CStrings.required(username, "username"))
        return resetPassword(application, parameters)
    }

    /// The reset itself, for `msal_na_reset_password` and `msal_na_reset_password_ex`.
    static func resetPassword(_ application: MSALNativeAuthPublicClientApplication, _ parameters: MSALNativeAuthResetPasswordParameters)
        -> Work
    {
        let request = UncheckedParameters(value: parameters)
        return {
            do throws(ResetPasswordStartError) {
                return .codeRequired(try await application.resetPassword(parameters: request.value), FlowState.resetCode)
            } catch {
                return Outcome(error)
            }
        }
    }

    // MARK: States

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
            throw wrongState("msal_na_state_submit_code", state)
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
            throw wrongState("msal_na_state_submit_password", state)
        }
    }

    static func submitAttributes(_ handle: OpaquePointer?, _ json: UnsafePointer<CChar>?) throws(InterfaceError) -> Work {
        let state = try Self.state(handle)
        let attributes = Attributes(value: try Self.attributes(json, optional: false))
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
            throw wrongState("msal_na_state_resend_code", state)
        }
    }

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
            throw wrongState("msal_na_state_sign_in", state)
        }
    }

    // MARK: Tokens

    static func accessToken(_ handle: OpaquePointer?, _ scopes: UnsafePointer<CChar>?, _ forceRefresh: Int32) throws(InterfaceError) -> Work
    {
        let account = try Self.account(handle).result
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = try Self.scopes(scopes)
        parameters.forceRefresh = forceRefresh != 0
        return accessToken(account, parameters)
    }

    /// The token itself, for `msal_na_account_get_access_token` and `_ex`.
    static func accessToken(_ account: MSALNativeAuthUserAccountResult, _ parameters: MSALNativeAuthGetAccessTokenParameters) -> Work {
        let request = UncheckedParameters(value: parameters)
        return {
            do throws(RetrieveAccessTokenError) {
                let token = try await account.getAccessToken(parameters: request.value)
                return Outcome(
                    kind: .accessToken, correlationId: token.correlationId.uuidString.lowercased(), accessToken: token.accessToken,
                    expiresOn: token.expiresOn, scopes: token.scopes, refreshToken: token.refreshToken)
            } catch {
                return Outcome(error)
            }
        }
    }

    /// The SDK's parameter classes are mutable and not `Sendable`; each is made here, filled, and
    /// only read by the one task it is handed to.
    struct UncheckedParameters<Value>: @unchecked Sendable {
        let value: Value
    }
}
