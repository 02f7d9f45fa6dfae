import MSAL

// Several accounts (Bindings/C/include/msal_native_auth.h, "Accounts"): every account of the
// token cache, look-ups by username and home account id, and the cache's last problem. No network.

@_cdecl("msal_na_app_accounts")
public func msal_na_app_accounts(
    _ app: OpaquePointer?, _ outAccounts: UnsafeMutablePointer<OpaquePointer?>?, _ capacity: Int, _ outCount: UnsafeMutablePointer<Int>?
) -> Int32 {
    outCount?.pointee = 0
    return guarded { () throws(InterfaceError) in
        let application = try Operations.app(app).application
        guard let outCount else { throw InterfaceError(.invalidArgument, "'out_count' is NULL") }
        guard capacity >= 0, capacity == 0 || outAccounts != nil else {
            throw InterfaceError(.invalidArgument, "'out_accounts' is NULL while 'capacity' is \(capacity)")
        }
        let accounts = try AccountDirectory.all(application)
        for (index, account) in accounts.prefix(capacity).enumerated() {
            outAccounts?[index] = HandleRegistry.shared.insert(.account(AccountEntry(account)))
        }
        outCount.pointee = accounts.count
    }
}

@_cdecl("msal_na_app_account_for_username")
public func msal_na_app_account_for_username(_ app: OpaquePointer?, _ username: CString?, _ out: UnsafeMutablePointer<OpaquePointer?>?)
    -> Int32
{
    findAccount(app, out) { () throws(InterfaceError) in
        let wanted = try CStrings.required(username, "username").lowercased()
        return { $0.account.username?.lowercased() == wanted }
    }
}

@_cdecl("msal_na_app_account_for_id")
public func msal_na_app_account_for_id(_ app: OpaquePointer?, _ identifier: CString?, _ out: UnsafeMutablePointer<OpaquePointer?>?)
    -> Int32
{
    out?.pointee = nil
    return guarded { () throws(InterfaceError) in
        let application = try Operations.app(app).application
        let wanted = try CStrings.required(identifier, "home_account_id")
        guard let out else { throw InterfaceError(.invalidArgument, "'out_account' is NULL") }
        // That account alone is read: the cost does not grow with the accounts (AccountDirectory.swift).
        guard let account = try AccountDirectory.account(application, identifier: wanted) else {
            throw InterfaceError(.noAccount, "no cached account matches")
        }
        out.pointee = HandleRegistry.shared.insert(.account(AccountEntry(account)))
    }
}

@_cdecl("msal_na_app_last_cache_error")
public func msal_na_app_last_cache_error(_ app: OpaquePointer?) -> Int32 {
    guarded { () throws(InterfaceError) in
        if let error = try Operations.app(app).application.lastTokenCacheError { throw AccountDirectory.cacheProblem(error) }
    }
}

/// The first account `matching` accepts, into `*out`; `MSAL_NA_ERR_NO_ACCOUNT` when none does.
private func findAccount(
    _ app: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?,
    _ matching: () throws(InterfaceError) -> (MSALNativeAuthUserAccountResult) -> Bool
) -> Int32 {
    out?.pointee = nil
    return guarded { () throws(InterfaceError) in
        let application = try Operations.app(app).application
        let accepts = try matching()
        guard let out else { throw InterfaceError(.invalidArgument, "'out_account' is NULL") }
        guard let account = try AccountDirectory.all(application).first(where: accepts) else {
            throw InterfaceError(.noAccount, "no cached account matches")
        }
        out.pointee = HandleRegistry.shared.insert(.account(AccountEntry(account)))
    }
}
