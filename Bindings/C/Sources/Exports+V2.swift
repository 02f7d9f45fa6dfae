// Native auth V2 (experimental) in Bindings/C/include/msal_native_auth.h: the three starts, the
// steps only V2 states take, and what a V2 state or result shows. The steps V1 and V2 share
// (submit code, password, attributes, resend code, sign in) are the V1 functions (Exports+Flows.swift).
// The work itself: Operations+V2.swift.

@_cdecl("msal_na_sign_in_v2")
public func msal_na_sign_in_v2(
    _ app: OpaquePointer?, _ username: CString?, _ optionsJSON: CString?, _ callback: ResultCallback?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.signInV2(app, username, optionsJSON) }
}

@_cdecl("msal_na_sign_in_v2_wait")
public func msal_na_sign_in_v2_wait(_ app: OpaquePointer?, _ username: CString?, _ optionsJSON: CString?, _ out: ResultOut?) -> Int32 {
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.signInV2(app, username, optionsJSON) }
}

@_cdecl("msal_na_sign_up_v2")
public func msal_na_sign_up_v2(
    _ app: OpaquePointer?, _ username: CString?, _ optionsJSON: CString?, _ callback: ResultCallback?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.signUpV2(app, username, optionsJSON) }
}

@_cdecl("msal_na_sign_up_v2_wait")
public func msal_na_sign_up_v2_wait(_ app: OpaquePointer?, _ username: CString?, _ optionsJSON: CString?, _ out: ResultOut?) -> Int32 {
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.signUpV2(app, username, optionsJSON) }
}

@_cdecl("msal_na_reset_password_v2")
public func msal_na_reset_password_v2(
    _ app: OpaquePointer?, _ username: CString?, _ optionsJSON: CString?, _ callback: ResultCallback?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.resetPasswordV2(app, username, optionsJSON) }
}

@_cdecl("msal_na_reset_password_v2_wait")
public func msal_na_reset_password_v2_wait(_ app: OpaquePointer?, _ username: CString?, _ optionsJSON: CString?, _ out: ResultOut?)
    -> Int32
{
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.resetPasswordV2(app, username, optionsJSON) }
}

@_cdecl("msal_na_state_submit_new_password")
public func msal_na_state_submit_new_password(
    _ state: OpaquePointer?, _ password: CString?, _ callback: ResultCallback?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.submitNewPassword(state, password) }
}

@_cdecl("msal_na_state_submit_new_password_wait")
public func msal_na_state_submit_new_password_wait(_ state: OpaquePointer?, _ password: CString?, _ out: ResultOut?) -> Int32 {
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.submitNewPassword(state, password) }
}

@_cdecl("msal_na_state_select_auth_method")
public func msal_na_state_select_auth_method(
    _ state: OpaquePointer?, _ index: Int, _ contact: CString?, _ callback: ResultCallback?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.selectAuthMethod(state, index, contact) }
}

@_cdecl("msal_na_state_select_auth_method_wait")
public func msal_na_state_select_auth_method_wait(_ state: OpaquePointer?, _ index: Int, _ contact: CString?, _ out: ResultOut?) -> Int32 {
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.selectAuthMethod(state, index, contact) }
}

@_cdecl("msal_na_state_submit_challenge")
public func msal_na_state_submit_challenge(
    _ state: OpaquePointer?, _ code: CString?, _ callback: ResultCallback?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.submitChallenge(state, code) }
}

@_cdecl("msal_na_state_submit_challenge_wait")
public func msal_na_state_submit_challenge_wait(_ state: OpaquePointer?, _ code: CString?, _ out: ResultOut?) -> Int32 {
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.submitChallenge(state, code) }
}

@_cdecl("msal_na_state_resend_challenge")
public func msal_na_state_resend_challenge(_ state: OpaquePointer?, _ callback: ResultCallback?, _ userData: UnsafeMutableRawPointer?)
    -> Int32
{
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.resendChallenge(state) }
}

@_cdecl("msal_na_state_resend_challenge_wait")
public func msal_na_state_resend_challenge_wait(_ state: OpaquePointer?, _ out: ResultOut?) -> Int32 {
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.resendChallenge(state) }
}

@_cdecl("msal_na_state_recover_password")
public func msal_na_state_recover_password(_ state: OpaquePointer?, _ callback: ResultCallback?, _ userData: UnsafeMutableRawPointer?)
    -> Int32
{
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in try Operations.recoverPassword(state) }
}

@_cdecl("msal_na_state_recover_password_wait")
public func msal_na_state_recover_password_wait(_ state: OpaquePointer?, _ out: ResultOut?) -> Int32 {
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try Operations.recoverPassword(state) }
}

// MARK: What a V2 result or state shows (no network)

@_cdecl("msal_na_result_scenario")
public func msal_na_result_scenario(_ result: OpaquePointer?) -> Int32 {
    Int32((try? Operations.result(result).scenario) ?? 0)
}

@_cdecl("msal_na_state_scenario")
public func msal_na_state_scenario(_ state: OpaquePointer?) -> Int32 {
    Int32((try? Operations.state(state).v2State?.scenario.rawValue) ?? 0)
}

@_cdecl("msal_na_state_selection_purpose")
public func msal_na_state_selection_purpose(_ state: OpaquePointer?) -> Int32 {
    (try? Operations.state(state).selectionPurpose) ?? 0
}

@_cdecl("msal_na_state_sent_to")
public func msal_na_state_sent_to(_ state: OpaquePointer?) -> CMutableString? {
    text { () throws(InterfaceError) in try Operations.state(state).sentCode?.sentTo }
}

@_cdecl("msal_na_state_channel")
public func msal_na_state_channel(_ state: OpaquePointer?) -> CMutableString? {
    text { () throws(InterfaceError) in try Operations.state(state).sentCode?.channel }
}

@_cdecl("msal_na_state_code_length")
public func msal_na_state_code_length(_ state: OpaquePointer?) -> Int32 {
    Int32(clamping: (try? Operations.state(state).sentCode?.codeLength) ?? 0)
}

@_cdecl("msal_na_state_attribute_count")
public func msal_na_state_attribute_count(_ state: OpaquePointer?) -> Int {
    (try? Operations.state(state).requiredAttributes.count) ?? 0
}

@_cdecl("msal_na_state_attribute")
public func msal_na_state_attribute(_ state: OpaquePointer?, _ index: Int, _ field: Int32) -> CMutableString? {
    text { () throws(InterfaceError) in try attributeField(Operations.state(state).requiredAttributes, index, field) }
}

@_cdecl("msal_na_state_can_recover_password")
public func msal_na_state_can_recover_password(_ state: OpaquePointer?) -> Int32 {
    guard case .v2Password(let password) = try? Operations.state(state) else { return 0 }
    return password.canRecoverPassword ? 1 : 0
}
