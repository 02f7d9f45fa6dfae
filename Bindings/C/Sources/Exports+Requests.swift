import MSAL

// The `_ex` operations of Bindings/C/include/msal_native_auth.h ("Request options"): sign-in,
// sign-up, password reset and access tokens with a JSON options object (claims, correlation id,
// refresh token). Each has a callback form and a `_wait` form, as in Exports+Flows.swift.

@_cdecl("msal_na_sign_in_ex")
public func msal_na_sign_in_ex(
    _ app: OpaquePointer?, _ username: CString?, _ password: CString?, _ options: CString?, _ callback: ResultCallback?,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.signInEx(app, username, password, options) }
}

@_cdecl("msal_na_sign_in_ex_wait")
public func msal_na_sign_in_ex_wait(
    _ app: OpaquePointer?, _ username: CString?, _ password: CString?, _ options: CString?, _ out: ResultOut?
)
    -> Int32
{
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.signInEx(app, username, password, options) }
}

@_cdecl("msal_na_sign_up_ex")
public func msal_na_sign_up_ex(
    _ app: OpaquePointer?, _ username: CString?, _ password: CString?, _ options: CString?, _ callback: ResultCallback?,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.signUpEx(app, username, password, options) }
}

@_cdecl("msal_na_sign_up_ex_wait")
public func msal_na_sign_up_ex_wait(
    _ app: OpaquePointer?, _ username: CString?, _ password: CString?, _ options: CString?, _ out: ResultOut?
)
    -> Int32
{
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.signUpEx(app, username, password, options) }
}

@_cdecl("msal_na_reset_password_ex")
public func msal_na_reset_password_ex(
    _ app: OpaquePointer?, _ username: CString?, _ options: CString?, _ callback: ResultCallback?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.resetPasswordEx(app, username, options) }
}

@_cdecl("msal_na_reset_password_ex_wait")
public func msal_na_reset_password_ex_wait(_ app: OpaquePointer?, _ username: CString?, _ options: CString?, _ out: ResultOut?) -> Int32 {
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.resetPasswordEx(app, username, options) }
}

@_cdecl("msal_na_account_get_access_token_ex")
public func msal_na_account_get_access_token_ex(
    _ account: OpaquePointer?, _ options: CString?, _ callback: ResultCallback?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.accessTokenEx(account, options) }
}

@_cdecl("msal_na_account_get_access_token_ex_wait")
public func msal_na_account_get_access_token_ex_wait(_ account: OpaquePointer?, _ options: CString?, _ out: ResultOut?) -> Int32 {
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.accessTokenEx(account, options) }
}

@_cdecl("msal_na_result_refresh_token")
public func msal_na_result_refresh_token(_ result: OpaquePointer?) -> CMutableString? {
    text { () throws(InterfaceError) in try Operations.result(result).refreshToken }
}

@_cdecl("msal_na_claims_from_challenge")
public func msal_na_claims_from_challenge(_ wwwAuthenticate: CString?) -> CMutableString? {
    text { () throws(InterfaceError) in
        let header = try CStrings.required(wwwAuthenticate, "www_authenticate")
        guard let claims = MSALClaimsRequest.fromClaimsChallenge(header) else {
            throw InterfaceError(.invalidArgument, "'www_authenticate' carries no claims challenge (no usable claims=\"…\" parameter)")
        }
        return claims.jsonString()
    }
}
