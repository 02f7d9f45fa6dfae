import Dispatch
import Foundation
import MSAL

// The synchronous part of Bindings/C/include/msal_native_auth.h: applications, accounts, states,
// results, strings and errors. None of these calls the network.

public typealias CMutableString = UnsafeMutablePointer<CChar>

/// Runs a synchronous call: its error code, with the message kept for `msal_na_last_error_message`.
func guarded(_ body: () throws(InterfaceError) -> Void) -> Int32 {
    do {
        try body()
        LastError.set(nil)
        return ErrorCode.ok.rawValue
    } catch {
        return Dispatcher.fail(error)
    }
}

/// A string-returning call: NULL (and the message kept) on a bad argument.
func text(_ body: () throws(InterfaceError) -> String?) -> CMutableString? {
    do {
        LastError.set(nil)
        return CStrings.make(try body())
    } catch {
        _ = Dispatcher.fail(error)
        return nil
    }
}

// MARK: Application

@_cdecl("msal_na_app_create")
public func msal_na_app_create(_ configJSON: CString?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    return guarded { () throws(InterfaceError) in
        guard let out else { throw InterfaceError(.invalidArgument, "'out_app' is NULL") }
        let configuration = try InterfaceConfiguration.parse(try CStrings.required(configJSON, "config_json"))
        let application = try configuration.makeApplication()
        out.pointee = HandleRegistry.shared.insert(.app(AppEntry(application: application, configuration: configuration)))
    }
}

@_cdecl("msal_na_app_free")
public func msal_na_app_free(_ app: OpaquePointer?) -> Int32 {
    let entry = try? Operations.app(app)
    let code = freeHandle(app, "app", as: "an application") { if case .app = $0 { true } else { false } }
    // Its interceptor is not called after this returns (Bindings/C/Sources/RequestInterceptorBridge.swift).
    if code == ErrorCode.ok.rawValue { entry?.interceptor?.detach() }
    return code
}

@_cdecl("msal_na_app_current_account")
public func msal_na_app_current_account(_ app: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    return guarded { () throws(InterfaceError) in
        let entry = try Operations.app(app)
        guard let out else { throw InterfaceError(.invalidArgument, "'out_account' is NULL") }
        guard let account = entry.application.getNativeAuthUserAccount() else {
            throw InterfaceError(.noAccount, "no signed-in account in the cache")
        }
        out.pointee = HandleRegistry.shared.insert(.account(AccountEntry(account)))
    }
}

// MARK: Account

@_cdecl("msal_na_account_username")
public func msal_na_account_username(_ account: OpaquePointer?) -> CMutableString? {
    text { () throws(InterfaceError) in try Operations.account(account).result.account.username }
}

@_cdecl("msal_na_account_home_account_id")
public func msal_na_account_home_account_id(_ account: OpaquePointer?) -> CMutableString? {
    text { () throws(InterfaceError) in try Operations.account(account).result.account.identifier }
}

@_cdecl("msal_na_account_id_token")
public func msal_na_account_id_token(_ account: OpaquePointer?) -> CMutableString? {
    text { () throws(InterfaceError) in try Operations.account(account).result.idToken }
}

@_cdecl("msal_na_account_claims_json")
public func msal_na_account_claims_json(_ account: OpaquePointer?) -> CMutableString? {
    text { () throws(InterfaceError) in
        let claims = try Operations.account(account).result.account.accountClaims ?? [:]
        guard let data = try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

@_cdecl("msal_na_account_sign_out")
public func msal_na_account_sign_out(_ account: OpaquePointer?) -> Int32 {
    guarded { () throws(InterfaceError) in try Operations.account(account).result.signOut() }
}

@_cdecl("msal_na_account_free")
public func msal_na_account_free(_ account: OpaquePointer?) -> Int32 {
    freeHandle(account, "account", as: "an account") { if case .account = $0 { true } else { false } }
}

// MARK: State

@_cdecl("msal_na_state_kind")
public func msal_na_state_kind(_ state: OpaquePointer?) -> Int32 {
    (try? Operations.state(state).kind.rawValue) ?? 0
}

@_cdecl("msal_na_state_free")
public func msal_na_state_free(_ state: OpaquePointer?) -> Int32 {
    freeHandle(state, "state", as: "a flow state") { if case .state = $0 { true } else { false } }
}

// MARK: Result

@_cdecl("msal_na_result_error")
public func msal_na_result_error(_ result: OpaquePointer?) -> Int32 {
    do { return try Operations.result(result).code.rawValue } catch { return error.code.rawValue }
}

@_cdecl("msal_na_result_outcome")
public func msal_na_result_outcome(_ result: OpaquePointer?) -> Int32 {
    (try? Operations.result(result).kind.rawValue) ?? Outcome.Kind.error.rawValue
}

@_cdecl("msal_na_result_message")
public func msal_na_result_message(_ result: OpaquePointer?) -> CMutableString? {
    text { () throws(InterfaceError) in try Operations.result(result).message }
}

@_cdecl("msal_na_result_correlation_id")
public func msal_na_result_correlation_id(_ result: OpaquePointer?) -> CMutableString? {
    text { () throws(InterfaceError) in try Operations.result(result).correlationId }
}

@_cdecl("msal_na_result_sent_to")
public func msal_na_result_sent_to(_ result: OpaquePointer?) -> CMutableString? {
    text { () throws(InterfaceError) in try Operations.result(result).sentTo }
}

@_cdecl("msal_na_result_channel")
public func msal_na_result_channel(_ result: OpaquePointer?) -> CMutableString? {
    text { () throws(InterfaceError) in try Operations.result(result).channel }
}

@_cdecl("msal_na_result_code_length")
public func msal_na_result_code_length(_ result: OpaquePointer?) -> Int32 {
    Int32(clamping: (try? Operations.result(result).codeLength) ?? 0)
}

@_cdecl("msal_na_result_access_token")
public func msal_na_result_access_token(_ result: OpaquePointer?) -> CMutableString? {
    text { () throws(InterfaceError) in try Operations.result(result).accessToken }
}

@_cdecl("msal_na_result_expires_on")
public func msal_na_result_expires_on(_ result: OpaquePointer?) -> Int64 {
    guard let date = try? Operations.result(result).expiresOn else { return 0 }
    return Int64(date.timeIntervalSince1970)
}

@_cdecl("msal_na_result_scopes")
public func msal_na_result_scopes(_ result: OpaquePointer?) -> CMutableString? {
    text { () throws(InterfaceError) in
        let scopes = try Operations.result(result).scopes
        return scopes.isEmpty ? nil : scopes.joined(separator: " ")
    }
}

@_cdecl("msal_na_result_auth_method_count")
public func msal_na_result_auth_method_count(_ result: OpaquePointer?) -> Int {
    (try? Operations.result(result).authMethods.count) ?? 0
}

@_cdecl("msal_na_result_auth_method")
public func msal_na_result_auth_method(_ result: OpaquePointer?, _ index: Int, _ field: Int32) -> CMutableString? {
    text { () throws(InterfaceError) in
        try authMethodField(Operations.result(result).authMethods, index, field)
    }
}

/// One field (`msal_na_auth_method_field`) of one of a result's or a state's auth methods.
func authMethodField(_ methods: [MSALAuthMethod], _ index: Int, _ field: Int32) throws(InterfaceError) -> String? {
    guard methods.indices.contains(index) else { throw InterfaceError(.invalidArgument, "'index' is out of range") }
    let method = methods[index]
    switch field {
    case 0: return method.id
    case 1: return method.challengeType
    case 2: return method.channelTargetType.value
    case 3: return method.loginHint
    default: throw InterfaceError(.invalidArgument, "'field' is not an msal_na_auth_method_field")
    }
}

@_cdecl("msal_na_result_attribute_count")
public func msal_na_result_attribute_count(_ result: OpaquePointer?) -> Int {
    (try? Operations.result(result).attributes.count) ?? 0
}

@_cdecl("msal_na_result_attribute")
public func msal_na_result_attribute(_ result: OpaquePointer?, _ index: Int, _ field: Int32) -> CMutableString? {
    text { () throws(InterfaceError) in try attributeField(Operations.result(result).attributes, index, field) }
}

/// One field (`msal_na_attribute_field`) of one of a result's or a state's attributes.
func attributeField(_ attributes: [Outcome.Attribute], _ index: Int, _ field: Int32) throws(InterfaceError) -> String? {
    guard attributes.indices.contains(index) else { throw InterfaceError(.invalidArgument, "'index' is out of range") }
    let attribute = attributes[index]
    switch field {
    case 0: return attribute.name
    case 1: return attribute.type
    case 2: return attribute.required ? "true" : "false"
    case 3: return attribute.regex
    default: throw InterfaceError(.invalidArgument, "'field' is not an msal_na_attribute_field")
    }
}

@_cdecl("msal_na_result_json")
public func msal_na_result_json(_ result: OpaquePointer?) -> CMutableString? {
    text { () throws(InterfaceError) in try Operations.result(result).json }
}

@_cdecl("msal_na_result_take_state")
public func msal_na_result_take_state(_ result: OpaquePointer?) -> OpaquePointer? {
    guard let state = try? Operations.result(result).takeState() else { return nil }
    return HandleRegistry.shared.insert(.state(state))
}

@_cdecl("msal_na_result_take_account")
public func msal_na_result_take_account(_ result: OpaquePointer?) -> OpaquePointer? {
    guard let account = try? Operations.result(result).takeAccount() else { return nil }
    return HandleRegistry.shared.insert(.account(AccountEntry(account)))
}

@_cdecl("msal_na_result_free")
public func msal_na_result_free(_ result: OpaquePointer?) -> Int32 {
    freeHandle(result, "result", as: "a result") { if case .result = $0 { true } else { false } }
}

// MARK: Logging

/// `msal_na_log_callback`: level, the line (valid during the call), whether it shows personal data, user data.
public typealias LogCallback = @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafeMutableRawPointer?) -> Void

/// Log lines go to the C callback on a thread of their own, in order: never on the Swift
/// concurrency pool where the SDK writes them (a callback that blocks delays only later lines).
private let logQueue = DispatchQueue(label: "msal-native-auth.log")

private struct LogTarget: @unchecked Sendable {
    let callback: LogCallback
    let userData: UnsafeMutableRawPointer?
}

@_cdecl("msal_na_set_log_callback")
public func msal_na_set_log_callback(_ level: Int32, _ pii: Int32, _ callback: LogCallback?, _ userData: UnsafeMutableRawPointer?) -> Int32
{
    guarded { () throws(InterfaceError) in
        guard let threshold = MSALLogLevel(rawValue: Int(level)) else {
            throw InterfaceError(.invalidArgument, "'level' must be 0 (nothing) to 4 (verbose), not \(level)")
        }
        guard pii == 0 || pii == 1 else { throw InterfaceError(.invalidArgument, "'pii' must be 0 or 1, not \(pii)") }
        let logger = MSALGlobalConfig.loggerConfig
        guard let callback else {
            logger.setLogCallback(nil)
            return
        }
        let target = LogTarget(callback: callback, userData: userData)
        logger.logLevel = threshold
        logger.piiEnabled = pii == 1
        logger.setLogCallback { level, message, containsPII in
            let line = message ?? ""
            logQueue.async {
                HostCallbacks.shared.call {
                    line.withCString { target.callback(Int32(level.rawValue), $0, containsPII ? 1 : 0, target.userData) }
                }
            }
        }
    }
}

/// Waits until every log line written so far has been handed to the callback (tests, and a program
/// about to exit).
@_cdecl("msal_na_flush_log")
public func msal_na_flush_log() {
    logQueue.sync {}
}

// MARK: Detaching every callback

/// Stops every call from the library into the app, for good (HostCallbacks.swift): for a program
/// or a language runtime that goes away with operations still running.
@_cdecl("msal_na_detach_callbacks")
public func msal_na_detach_callbacks() {
    HostCallbacks.shared.detach()
}

// MARK: Strings, errors, diagnostics

@_cdecl("msal_na_string_free")
public func msal_na_string_free(_ string: CMutableString?) -> Int32 {
    CStrings.free(string)
        ? ErrorCode.ok.rawValue
        : Dispatcher.fail(InterfaceError(.invalidHandle, "the pointer is not a live string of this library (freed already, or never one)"))
}

@_cdecl("msal_na_last_error_message")
public func msal_na_last_error_message() -> CMutableString? {
    CStrings.make(LastError.message)
}

/// C strings made once and never freed or written: the error names and the version.
private struct StaticStrings: @unchecked Sendable {
    let errorNames: [Int32: UnsafeMutablePointer<CChar>] = Dictionary(
        uniqueKeysWithValues: ErrorCode.allCases.map { ($0.rawValue, strdup("MSAL_NA_" + $0.name)!) })
    let unknownErrorName = strdup("MSAL_NA_ERR_UNKNOWN")!
    let version = strdup(MSALNativeAuthSDK.version)!

    static let shared = StaticStrings()
}

@_cdecl("msal_na_error_name")
public func msal_na_error_name(_ code: Int32) -> CString {
    UnsafePointer(StaticStrings.shared.errorNames[code] ?? StaticStrings.shared.unknownErrorName)
}

@_cdecl("msal_na_version")
public func msal_na_version() -> CString {
    UnsafePointer(StaticStrings.shared.version)
}

@_cdecl("msal_na_live_handles")
public func msal_na_live_handles() -> Int {
    HandleRegistry.shared.count
}

@_cdecl("msal_na_live_strings")
public func msal_na_live_strings() -> Int {
    CStrings.liveCount
}

/// Frees a handle of one kind; a live handle of another kind is left alone and reported.
private func freeHandle(_ handle: OpaquePointer?, _ name: String, as expected: String, matches: (HandleRegistry.Object) -> Bool) -> Int32 {
    guarded { () throws(InterfaceError) in
        guard let handle else { throw InterfaceError(.invalidArgument, "'\(name)' is NULL") }
        switch HandleRegistry.shared.remove(handle, if: matches) {
        case .removed: return
        case .notLive: throw InterfaceError(.invalidHandle, "'\(name)' is not a live handle (already freed, or never one)")
        case .otherKind(let object): throw InterfaceError(.invalidHandle, "'\(name)' is \(object.kindName), not \(expected)")
        }
    }
}
