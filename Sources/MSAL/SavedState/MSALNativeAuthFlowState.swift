import Foundation

/// A flow state that can be saved as bytes and continued later, in this process or another one,
/// through `MSALNativeAuthPublicClientApplication.restoreState(serialized:)`. Every state a
/// sign-in, sign-up or password reset hands the app adopts it. A Linux addition to MSAL's surface
/// (docs/saved-states.md).
///
/// The bytes hold the flow's continuation token, a secret for the minutes the service accepts
/// it: keep them as you would a password (a file only the user can read, a server-side session),
/// and never log them.
public protocol MSALNativeAuthSerializableState: AnyObject, Sendable {
    /// The state as a versioned JSON document (docs/saved-states.md#format).
    func serialized() -> Data
}

/// A restored flow state, one case per state class: what `restoreState(serialized:)` returns.
///
/// ```swift
/// // given: app: MSALNativeAuthPublicClientApplication
/// // given: saved: Data
/// switch try app.restoreState(serialized: saved) {
/// case .signInCodeRequired(let state):
///     _ = try await state.submitCode(code: "12345678")
/// case let other:
///     print("The saved flow waits for something else:", other.kind)
/// }
/// ```
public enum MSALNativeAuthFlowState: Sendable {
    case signInCodeRequired(SignInCodeRequiredState)
    case signInPasswordRequired(SignInPasswordRequiredState)
    case signInAfterSignUp(SignInAfterSignUpState)
    case signInAfterResetPassword(SignInAfterResetPasswordState)
    case signUpCodeRequired(SignUpCodeRequiredState)
    case signUpPasswordRequired(SignUpPasswordRequiredState)
    case signUpAttributesRequired(SignUpAttributesRequiredState)
    case resetPasswordCodeRequired(ResetPasswordCodeRequiredState)
    case resetPasswordRequired(ResetPasswordRequiredState)
    case awaitingMFA(AwaitingMFAState)
    case mfaRequired(MFARequiredState)
    case registerStrongAuth(RegisterStrongAuthState)
    case registerStrongAuthVerificationRequired(RegisterStrongAuthVerificationRequiredState)

    /// The state object itself.
    public var state: any MSALNativeAuthSerializableState {
        switch self {
        case .signInCodeRequired(let state): state
        case .signInPasswordRequired(let state): state
        case .signInAfterSignUp(let state): state
        case .signInAfterResetPassword(let state): state
        case .signUpCodeRequired(let state): state
        case .signUpPasswordRequired(let state): state
        case .signUpAttributesRequired(let state): state
        case .resetPasswordCodeRequired(let state): state
        case .resetPasswordRequired(let state): state
        case .awaitingMFA(let state): state
        case .mfaRequired(let state): state
        case .registerStrongAuth(let state): state
        case .registerStrongAuthVerificationRequired(let state): state
        }
    }

    /// The case's name, as the saved document's `kind` field spells it (for example
    /// `signInCodeRequired`): stable across versions, for logs and for other languages.
    public var kind: String { SavedFlowState.Kind(self).rawValue }

    /// The state as a versioned JSON document; the same bytes as `state.serialized()`.
    public func serialized() -> Data { SavedFlowState(self).encoded() }
}

// Each state saves itself through the one document shape in SavedFlowState.swift.

extension SignInCodeRequiredState: MSALNativeAuthSerializableState {
    /// The state as a versioned JSON document holding its continuation token (a secret; docs/saved-states.md).
    public func serialized() -> Data { MSALNativeAuthFlowState.signInCodeRequired(self).serialized() }
}

extension SignInPasswordRequiredState: MSALNativeAuthSerializableState {
    /// The state as a versioned JSON document holding its continuation token (a secret; docs/saved-states.md).
    public func serialized() -> Data { MSALNativeAuthFlowState.signInPasswordRequired(self).serialized() }
}

extension SignInAfterSignUpState: MSALNativeAuthSerializableState {
    /// The state as a versioned JSON document holding its continuation token (a secret; docs/saved-states.md).
    public func serialized() -> Data { MSALNativeAuthFlowState.signInAfterSignUp(self).serialized() }
}

extension SignInAfterResetPasswordState: MSALNativeAuthSerializableState {
    /// The state as a versioned JSON document holding its continuation token (a secret; docs/saved-states.md).
    public func serialized() -> Data { MSALNativeAuthFlowState.signInAfterResetPassword(self).serialized() }
}

extension SignUpCodeRequiredState: MSALNativeAuthSerializableState {
    /// The state as a versioned JSON document holding its continuation token (a secret; docs/saved-states.md).
    public func serialized() -> Data { MSALNativeAuthFlowState.signUpCodeRequired(self).serialized() }
}

extension SignUpPasswordRequiredState: MSALNativeAuthSerializableState {
    /// The state as a versioned JSON document holding its continuation token (a secret; docs/saved-states.md).
    public func serialized() -> Data { MSALNativeAuthFlowState.signUpPasswordRequired(self).serialized() }
}

extension SignUpAttributesRequiredState: MSALNativeAuthSerializableState {
    /// The state as a versioned JSON document holding its continuation token (a secret; docs/saved-states.md).
    public func serialized() -> Data { MSALNativeAuthFlowState.signUpAttributesRequired(self).serialized() }
}

extension ResetPasswordCodeRequiredState: MSALNativeAuthSerializableState {
    /// The state as a versioned JSON document holding its continuation token (a secret; docs/saved-states.md).
    public func serialized() -> Data { MSALNativeAuthFlowState.resetPasswordCodeRequired(self).serialized() }
}

extension ResetPasswordRequiredState: MSALNativeAuthSerializableState {
    /// The state as a versioned JSON document holding its continuation token (a secret; docs/saved-states.md).
    public func serialized() -> Data { MSALNativeAuthFlowState.resetPasswordRequired(self).serialized() }
}

extension AwaitingMFAState: MSALNativeAuthSerializableState {
    /// The state as a versioned JSON document holding its continuation token (a secret; docs/saved-states.md).
    public func serialized() -> Data { MSALNativeAuthFlowState.awaitingMFA(self).serialized() }
}

extension MFARequiredState: MSALNativeAuthSerializableState {
    /// The state as a versioned JSON document holding its continuation token (a secret; docs/saved-states.md).
    public func serialized() -> Data { MSALNativeAuthFlowState.mfaRequired(self).serialized() }
}

extension RegisterStrongAuthState: MSALNativeAuthSerializableState {
    /// The state as a versioned JSON document holding its continuation token (a secret; docs/saved-states.md).
    public func serialized() -> Data { MSALNativeAuthFlowState.registerStrongAuth(self).serialized() }
}

extension RegisterStrongAuthVerificationRequiredState: MSALNativeAuthSerializableState {
    /// The state as a versioned JSON document holding its continuation token (a secret; docs/saved-states.md).
    public func serialized() -> Data { MSALNativeAuthFlowState.registerStrongAuthVerificationRequired(self).serialized() }
}
