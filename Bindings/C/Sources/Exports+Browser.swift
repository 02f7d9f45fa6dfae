// The browser sign-in of Bindings/C/include/msal_native_auth.h ("Browser sign-in"): MSAL's
// acquireToken(with:) with the system browser or the app's URL callback, and its cancellation.
// See BrowserSignIn.swift.

@_cdecl("msal_na_app_acquire_token")
public func msal_na_app_acquire_token(
    _ app: OpaquePointer?, _ options: CString?, _ urlCallback: SignInURLCallback?, _ urlUserData: UnsafeMutableRawPointer?,
    _ callback: ResultCallback?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    Dispatcher.run(callback, userData) { () throws(InterfaceError) in
        try BrowserSignIn.acquireToken(app, options, urlCallback, urlUserData)
    }
}

@_cdecl("msal_na_app_acquire_token_wait")
public func msal_na_app_acquire_token_wait(
    _ app: OpaquePointer?, _ options: CString?, _ urlCallback: SignInURLCallback?, _ urlUserData: UnsafeMutableRawPointer?,
    _ out: ResultOut?
) -> Int32 {
    Dispatcher.runWaiting(out) { () throws(InterfaceError) in try BrowserSignIn.acquireToken(app, options, urlCallback, urlUserData) }
}

@_cdecl("msal_na_cancel_browser")
public func msal_na_cancel_browser() -> Int32 {
    Int32(clamping: BrowserCancellation.cancelAll())
}
