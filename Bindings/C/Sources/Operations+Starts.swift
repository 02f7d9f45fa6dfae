import Foundation
import MSAL

/// The starts of the three flows: sign-in, sign-up and password reset, each with the shared work
/// its `_ex` form (Operations+Requests.swift) hands its parameters to.
extension Operations {
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
}
