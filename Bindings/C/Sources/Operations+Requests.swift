import Foundation
import MSAL

/// The `_ex` forms: the same operations with a JSON options object for what the SDK's parameter
/// classes carry beyond the basic arguments (a claims request, a correlation id, a refresh token in
/// the result). Each builds the SDK's parameters and hands them to the shared work in
/// Operations+Starts.swift and Operations+Tokens.swift.
extension Operations {
    static func signInEx(
        _ app: OpaquePointer?, _ username: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?, _ options: UnsafePointer<CChar>?
    ) throws(InterfaceError) -> Work {
        let application = try Self.app(app).application
        let parameters = MSALNativeAuthSignInParameters(username: try CStrings.required(username, "username"))
        parameters.password = try CStrings.read(password, "password", optional: true)
        let options = try RequestOptions(options, allowed: ["scopes", "claims", "correlation_id"])
        parameters.scopes = try options.scopes()
        parameters.claimsRequest = try options.claims()
        parameters.correlationId = try options.correlationId()
        return signIn(application, parameters)
    }

    static func signUpEx(
        _ app: OpaquePointer?, _ username: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?, _ options: UnsafePointer<CChar>?
    ) throws(InterfaceError) -> Work {
        let application = try Self.app(app).application
        let parameters = MSALNativeAuthSignUpParameters(username: try CStrings.required(username, "username"))
        parameters.password = try CStrings.read(password, "password", optional: true)
        let options = try RequestOptions(options, allowed: ["attributes", "correlation_id"])
        parameters.attributes = try options.jsonObject("attributes")
        parameters.correlationId = try options.correlationId()
        return signUp(application, parameters)
    }

    static func resetPasswordEx(_ app: OpaquePointer?, _ username: UnsafePointer<CChar>?, _ options: UnsafePointer<CChar>?)
        throws(InterfaceError) -> Work
    {
        let application = try Self.app(app).application
        let parameters = MSALNativeAuthResetPasswordParameters(username: try CStrings.required(username, "username"))
        parameters.correlationId = try RequestOptions(options, allowed: ["correlation_id"]).correlationId()
        return resetPassword(application, parameters)
    }

    static func accessTokenEx(_ handle: OpaquePointer?, _ options: UnsafePointer<CChar>?) throws(InterfaceError) -> Work {
        let account = try Self.account(handle).result
        let options = try RequestOptions(
            options, allowed: ["scopes", "force_refresh", "claims", "correlation_id", "return_refresh_token"])
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = try options.scopes()
        parameters.forceRefresh = try options.bool("force_refresh") ?? false
        parameters.claimsRequest = try options.claims()
        parameters.correlationId = try options.correlationId()
        parameters.returnRefreshToken = try options.bool("return_refresh_token") ?? false
        return accessToken(account, parameters)
    }
}
