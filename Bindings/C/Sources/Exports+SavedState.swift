import Foundation
import MSAL
import MSALRedis

// Saved flow states for C (docs/saved-states.md): a state handle saved as a string and restored,
// in this process or another, to a state handle of the saved kind; the auth methods a restored
// MFA or registration state carries. Over MSAL's `serialized()` and `restoreState(serialized:)`.

@_cdecl("msal_na_state_save")
public func msal_na_state_save(_ state: OpaquePointer?) -> CMutableString? {
    text { () throws(InterfaceError) in
        let flow = try Operations.state(state)
        guard let serializable = flow.serializable else {
            throw InterfaceError(
                .wrongState, "a state of kind \(flow.kind.rawValue) cannot be saved (the SDK does not save this V2 kind yet)")
        }
        return String(decoding: serializable.serialized(), as: UTF8.self)
    }
}

@_cdecl("msal_na_app_restore_state")
public func msal_na_app_restore_state(
    _ app: OpaquePointer?, _ saved: CString?, _ expectedKind: Int32, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    out?.pointee = nil
    return guarded { () throws(InterfaceError) in
        let application = try Operations.app(app).application
        guard let out else { throw InterfaceError(.invalidArgument, "'out_state' is NULL") }
        let text = try CStrings.required(saved, "saved")
        try checkExpectedKind(expectedKind)
        out.pointee = try restoredHandle(application, Data(text.utf8), expectedKind)
    }
}

private func checkExpectedKind(_ expectedKind: Int32) throws(InterfaceError) {
    guard expectedKind == 0 || FlowState.Kind(rawValue: expectedKind) != nil else {
        throw InterfaceError(.invalidArgument, "'expected_kind' is neither 0 nor an msal_na_state_type")
    }
}

/// The saved bytes as a live state handle of the expected kind (0: any).
private func restoredHandle(
    _ application: MSALNativeAuthPublicClientApplication, _ data: Data, _ expectedKind: Int32
) throws(InterfaceError) -> OpaquePointer {
    let state: FlowState
    do throws(RestoreStateError) {
        state = try restore(application, data)
    } catch {
        throw InterfaceError(ErrorCode.of(error), error.errorDescription ?? "the saved state cannot be restored")
    }
    if expectedKind != 0, state.kind.rawValue != expectedKind {
        throw InterfaceError(
            .stateWrongKind, "the saved state is of kind \(state.kind.rawValue), not \(expectedKind) (msal_na_state_type)")
    }
    return HandleRegistry.shared.insert(.state(state))
}

// Saved sign-ins on the application's Redis ("cache": "redis"; docs/redis.md#saved-sign-ins):
// the state saved under a new id any process of the app can take, once.

@_cdecl("msal_na_app_redis_save_state")
public func msal_na_app_redis_save_state(
    _ app: OpaquePointer?, _ state: OpaquePointer?, _ outID: UnsafeMutablePointer<CMutableString?>?
) -> Int32 {
    outID?.pointee = nil
    return guarded { () throws(InterfaceError) in
        let entry = try Operations.app(app)
        guard let outID else { throw InterfaceError(.invalidArgument, "'out_id' is NULL") }
        let flow = try Operations.state(state)
        guard let serializable = flow.serializable else {
            throw InterfaceError(
                .wrongState, "a state of kind \(flow.kind.rawValue) cannot be saved (the SDK does not save this V2 kind yet)")
        }
        let saved = serializable.serialized()
        let id = try entry.redisSignIns.with { store throws(MSALRedisError) in try store.save(saved) }
        outID.pointee = CStrings.make(id)
    }
}

@_cdecl("msal_na_app_redis_take_state")
public func msal_na_app_redis_take_state(
    _ app: OpaquePointer?, _ id: CString?, _ expectedKind: Int32, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    out?.pointee = nil
    return guarded { () throws(InterfaceError) in
        let entry = try Operations.app(app)
        guard let out else { throw InterfaceError(.invalidArgument, "'out_state' is NULL") }
        let text = try CStrings.required(id, "id")
        try checkExpectedKind(expectedKind)
        let data = try entry.redisSignIns.with { store throws(MSALRedisError) in try store.take(text) }
        out.pointee = try restoredHandle(entry.application, data, expectedKind)
    }
}

/// A V1 document restores to a V1 state; a V2 one (which `restoreState` refuses as of the wrong
/// kind) to a V2 state through `restoreStateV2`.
private func restore(_ application: MSALNativeAuthPublicClientApplication, _ data: Data) throws(RestoreStateError) -> FlowState {
    do throws(RestoreStateError) {
        return FlowState(try application.restoreState(serialized: data))
    } catch  where error.isWrongKind {
        guard let state = FlowState(v2: try application.restoreStateV2(serialized: data)) else { throw error }
        return state
    }
}

@_cdecl("msal_na_state_auth_method_count")
public func msal_na_state_auth_method_count(_ state: OpaquePointer?) -> Int {
    (try? Operations.state(state).methods.count) ?? 0
}

@_cdecl("msal_na_state_auth_method")
public func msal_na_state_auth_method(_ state: OpaquePointer?, _ index: Int, _ field: Int32) -> CMutableString? {
    text { () throws(InterfaceError) in try authMethodField(Operations.state(state).methods, index, field) }
}

extension FlowState {
    /// The C interface's state for a restored one; a strong-auth state brings the methods it was offered.
    init(_ flow: MSALNativeAuthFlowState) {
        switch flow {
        case .signInCodeRequired(let state): self = .signInCode(state)
        case .signInPasswordRequired(let state): self = .signInPassword(state)
        case .signInAfterSignUp(let state): self = .signInAfterSignUp(state)
        case .signInAfterResetPassword(let state): self = .signInAfterReset(state)
        case .signUpCodeRequired(let state): self = .signUpCode(state)
        case .signUpPasswordRequired(let state): self = .signUpPassword(state)
        case .signUpAttributesRequired(let state): self = .signUpAttributes(state)
        case .resetPasswordCodeRequired(let state): self = .resetCode(state)
        case .resetPasswordRequired(let state): self = .resetPassword(state)
        case .awaitingMFA(let state): self = .awaitingMFA(state, methods: state.authMethods)
        case .mfaRequired(let state): self = .mfaRequired(state, methods: state.authMethods)
        case .registerStrongAuth(let state): self = .registerStrongAuth(state, methods: state.authMethods)
        case .registerStrongAuthVerificationRequired(let state): self = .registerVerification(state, methods: state.authMethods)
        }
    }

    /// The SDK's state object, which saves itself; nil for the V2 kinds the SDK cannot save yet.
    var serializable: (any MSALNativeAuthSerializableState)? {
        switch self {
        case .signInCode(let state): state
        case .signInPassword(let state): state
        case .signUpCode(let state): state
        case .signUpPassword(let state): state
        case .signUpAttributes(let state): state
        case .signInAfterSignUp(let state): state
        case .resetCode(let state): state
        case .resetPassword(let state): state
        case .signInAfterReset(let state): state
        case .awaitingMFA(let state, _): state
        case .mfaRequired(let state, _): state
        case .registerStrongAuth(let state, _): state
        case .registerVerification(let state, _): state
        default: v2State as? any MSALNativeAuthSerializableState
        }
    }
}
