// The operations of Bindings/C/include/msal_native_auth.h that talk to the service: each has a
// callback form (returns at once) and a `_wait` form (blocks the calling thread). See Operations.swift
// and its extensions (Operations+Starts.swift, +States, +StrongAuth, +Tokens).

public typealias CString = UnsafePointer<CChar>
public typealias ResultOut = UnsafeMutablePointer<OpaquePointer?>

@_cdecl("msal_na_sign_in")
public func msal_na_sign_in(
    _ app: OpaquePointer?, _ username: CString?, _ password: CString?, _ scopes: CString?, _ callback: ResultCallback?,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.signIn(app, username, password, scopes) }
}

@_cdecl("msal_na_sign_in_wait")
public func msal_na_sign_in_wait(_ app: OpaquePointer?, _ username: CString?, _ password: CString?, _ scopes: CString?, _ out: ResultOut?)
    -> Int32
{
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.signIn(app, username, password, scopes) }
}

@_cdecl("msal_na_sign_up")
public func msal_na_sign_up(
    _ app: OpaquePointer?, _ username: CString?, _ password: CString?, _ attributesJSON: CString?, _ callback: ResultCallback?,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.signUp(app, username, password, attributesJSON) }
}

@_cdecl("msal_na_sign_up_wait")
public func msal_na_sign_up_wait(
    _ app: OpaquePointer?, _ username: CString?, _ password: CString?, _ attributesJSON: CString?, _ out: ResultOut?
) -> Int32 {
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.signUp(app, username, password, attributesJSON) }
}

@_cdecl("msal_na_reset_password")
public func msal_na_reset_password(
    _ app: OpaquePointer?, _ username: CString?, _ callback: ResultCallback?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.resetPassword(app, username) }
}

@_cdecl("msal_na_reset_password_wait")
public func msal_na_reset_password_wait(_ app: OpaquePointer?, _ username: CString?, _ out: ResultOut?) -> Int32 {
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.resetPassword(app, username) }
}

@_cdecl("msal_na_state_submit_code")
public func msal_na_state_submit_code(
    _ state: OpaquePointer?, _ code: CString?, _ callback: ResultCallback?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.submitCode(state, code) }
}

@_cdecl("msal_na_state_submit_code_wait")
public func msal_na_state_submit_code_wait(_ state: OpaquePointer?, _ code: CString?, _ out: ResultOut?) -> Int32 {
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.submitCode(state, code) }
}

@_cdecl("msal_na_state_submit_password")
public func msal_na_state_submit_password(
    _ state: OpaquePointer?, _ password: CString?, _ callback: ResultCallback?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.submitPassword(state, password) }
}

@_cdecl("msal_na_state_submit_password_wait")
public func msal_na_state_submit_password_wait(_ state: OpaquePointer?, _ password: CString?, _ out: ResultOut?) -> Int32 {
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.submitPassword(state, password) }
}

@_cdecl("msal_na_state_submit_attributes")
public func msal_na_state_submit_attributes(
    _ state: OpaquePointer?, _ attributesJSON: CString?, _ callback: ResultCallback?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.submitAttributes(state, attributesJSON) }
}

@_cdecl("msal_na_state_submit_attributes_wait")
public func msal_na_state_submit_attributes_wait(_ state: OpaquePointer?, _ attributesJSON: CString?, _ out: ResultOut?) -> Int32 {
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.submitAttributes(state, attributesJSON) }
}

@_cdecl("msal_na_state_resend_code")
public func msal_na_state_resend_code(_ state: OpaquePointer?, _ callback: ResultCallback?, _ userData: UnsafeMutableRawPointer?) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.resendCode(state) }
}

@_cdecl("msal_na_state_resend_code_wait")
public func msal_na_state_resend_code_wait(_ state: OpaquePointer?, _ out: ResultOut?) -> Int32 {
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.resendCode(state) }
}

@_cdecl("msal_na_state_request_challenge")
public func msal_na_state_request_challenge(
    _ state: OpaquePointer?, _ authMethodId: CString?, _ callback: ResultCallback?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.requestChallenge(state, authMethodId) }
}

@_cdecl("msal_na_state_request_challenge_wait")
public func msal_na_state_request_challenge_wait(_ state: OpaquePointer?, _ authMethodId: CString?, _ out: ResultOut?) -> Int32 {
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.requestChallenge(state, authMethodId) }
}

@_cdecl("msal_na_state_register_method")
public func msal_na_state_register_method(
    _ state: OpaquePointer?, _ authMethodId: CString?, _ contact: CString?, _ callback: ResultCallback?,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.registerMethod(state, authMethodId, contact) }
}

@_cdecl("msal_na_state_register_method_wait")
public func msal_na_state_register_method_wait(_ state: OpaquePointer?, _ authMethodId: CString?, _ contact: CString?, _ out: ResultOut?)
    -> Int32
{
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.registerMethod(state, authMethodId, contact) }
}

@_cdecl("msal_na_state_sign_in")
public func msal_na_state_sign_in(
    _ state: OpaquePointer?, _ scopes: CString?, _ callback: ResultCallback?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.signInAfter(state, scopes) }
}

@_cdecl("msal_na_state_sign_in_wait")
public func msal_na_state_sign_in_wait(_ state: OpaquePointer?, _ scopes: CString?, _ out: ResultOut?) -> Int32 {
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.signInAfter(state, scopes) }
}

@_cdecl("msal_na_account_get_access_token")
public func msal_na_account_get_access_token(
    _ account: OpaquePointer?, _ scopes: CString?, _ forceRefresh: Int32, _ callback: ResultCallback?,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.accessToken(account, scopes, forceRefresh) }
}

@_cdecl("msal_na_account_get_access_token_wait")
public func msal_na_account_get_access_token_wait(_ account: OpaquePointer?, _ scopes: CString?, _ forceRefresh: Int32, _ out: ResultOut?)
    -> Int32
{
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.accessToken(account, scopes, forceRefresh) }
}
