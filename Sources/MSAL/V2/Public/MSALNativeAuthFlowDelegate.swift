/// The delegate of every native auth V2 flow. Mirrors MSAL's `MSALNativeAuthFlowDelegate`.
///
/// Each call reports exactly once, on the main actor: `onFlowCompleted`, `onFlowError`, or the
/// callback of the state the flow reached, when the delegate also conforms to that state's protocol
/// (`MSALNativeAuthCodeRequiredDelegate`, ...). A delegate that does not gets `onFlowError` with
/// `isNotImplemented`, the description naming the protocol. `@MainActor` is on each requirement,
/// not on the protocol, and there is no `Sendable` requirement (docs/usage.md#native-auth-v2-experimental).
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public protocol MSALNativeAuthFlowDelegate: AnyObject {
    /// The user is signed in.
    @MainActor func onFlowCompleted(result: MSALNativeAuthUserAccountResult, scenario: MSALNativeAuthFlowScenario)
    /// The step failed; when the error leaves the state usable, call the same state again.
    @MainActor func onFlowError(error: MSALNativeAuthFlowError, scenario: MSALNativeAuthFlowScenario)
}

/// Opt-in to `MSALNativeAuthCodeRequiredState`: A one-time code was sent (first factor, sign-up or recovery). Continue with
/// `submitCode(_:delegate:)` or `resendCode(delegate:)`.
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public protocol MSALNativeAuthCodeRequiredDelegate: MSALNativeAuthFlowDelegate {
    /// The flow reached `MSALNativeAuthCodeRequiredState`.
    @MainActor func onCodeRequired(state: MSALNativeAuthCodeRequiredState, scenario: MSALNativeAuthFlowScenario)
}

/// Opt-in to `MSALNativeAuthPasswordRequiredState`: The service asks for the password. Continue with `submitPassword(_:delegate:)`.
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public protocol MSALNativeAuthPasswordRequiredDelegate: MSALNativeAuthFlowDelegate {
    /// The flow reached `MSALNativeAuthPasswordRequiredState`.
    @MainActor func onPasswordRequired(state: MSALNativeAuthPasswordRequiredState, scenario: MSALNativeAuthFlowScenario)
}

/// Opt-in to `MSALNativeAuthNewPasswordRequiredState`: A password reset asks for the new password (not reached by this release's sign-in).
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public protocol MSALNativeAuthNewPasswordRequiredDelegate: MSALNativeAuthFlowDelegate {
    /// The flow reached `MSALNativeAuthNewPasswordRequiredState`.
    @MainActor func onNewPasswordRequired(state: MSALNativeAuthNewPasswordRequiredState, scenario: MSALNativeAuthFlowScenario)
}

/// Opt-in to `MSALNativeAuthAttributesRequiredState`: A sign-up asks for attributes (not reached by this release's sign-in).
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public protocol MSALNativeAuthAttributesRequiredDelegate: MSALNativeAuthFlowDelegate {
    /// The flow reached `MSALNativeAuthAttributesRequiredState`.
    @MainActor func onAttributesRequired(state: MSALNativeAuthAttributesRequiredState, scenario: MSALNativeAuthFlowScenario)
}

/// Opt-in to `MSALNativeAuthAuthMethodSelectionRequiredState`: The user must choose a method (several first factors, or a second factor).
/// Continue with `selectAuthMethod(_:delegate:)`.
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public protocol MSALNativeAuthAuthMethodSelectionRequiredDelegate: MSALNativeAuthFlowDelegate {
    /// The flow reached `MSALNativeAuthAuthMethodSelectionRequiredState`.
    @MainActor func onAuthMethodSelectionRequired(
        state: MSALNativeAuthAuthMethodSelectionRequiredState, scenario: MSALNativeAuthFlowScenario)
}

/// Opt-in to `MSALNativeAuthMFARequiredState`: Declared for source compatibility; the SDK routes second-factor choices to
/// `onAuthMethodSelectionRequired` and never calls this.
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public protocol MSALNativeAuthMFARequiredDelegate: MSALNativeAuthFlowDelegate {
    /// The flow reached `MSALNativeAuthMFARequiredState`.
    @MainActor func onMFARequired(state: MSALNativeAuthMFARequiredState, scenario: MSALNativeAuthFlowScenario)
}

/// Opt-in to `MSALNativeAuthMFAVerificationRequiredState`: A second-factor code was sent. Continue with `submitChallenge(_:delegate:)` or
/// `resendChallenge(delegate:)`.
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public protocol MSALNativeAuthMFAVerificationRequiredDelegate: MSALNativeAuthFlowDelegate {
    /// The flow reached `MSALNativeAuthMFAVerificationRequiredState`.
    @MainActor func onMFAVerificationRequired(state: MSALNativeAuthMFAVerificationRequiredState, scenario: MSALNativeAuthFlowScenario)
}

/// Opt-in to `MSALNativeAuthStrongAuthRegistrationRequiredState`: The user must register a strong-auth method first. Continue with
/// `selectAuthMethod(_:verificationContact:delegate:)`.
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public protocol MSALNativeAuthStrongAuthRegistrationRequiredDelegate: MSALNativeAuthFlowDelegate {
    /// The flow reached `MSALNativeAuthStrongAuthRegistrationRequiredState`.
    @MainActor func onStrongAuthRegistrationRequired(
        state: MSALNativeAuthStrongAuthRegistrationRequiredState, scenario: MSALNativeAuthFlowScenario)
}

/// Opt-in to `MSALNativeAuthStrongAuthVerificationRequiredState`: A code was sent to the method being registered. Continue with
/// `submitChallenge(_:delegate:)` or `resendChallenge(delegate:)`.
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public protocol MSALNativeAuthStrongAuthVerificationRequiredDelegate: MSALNativeAuthFlowDelegate {
    /// The flow reached `MSALNativeAuthStrongAuthVerificationRequiredState`.
    @MainActor func onStrongAuthVerificationRequired(
        state: MSALNativeAuthStrongAuthVerificationRequiredState, scenario: MSALNativeAuthFlowScenario)
}

/// Opt-in to `MSALNativeAuthSignInAfterSignUpState`: A sign-up finished; sign the user in with the state (not reached by this release's
/// sign-in).
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public protocol MSALNativeAuthSignInAfterSignUpRequiredDelegate: MSALNativeAuthFlowDelegate {
    /// The flow reached `MSALNativeAuthSignInAfterSignUpState`.
    @MainActor func onSignInAfterSignUpRequired(state: MSALNativeAuthSignInAfterSignUpState, scenario: MSALNativeAuthFlowScenario)
}

/// Opt-in to `MSALNativeAuthSignInAfterResetPasswordState`: A password reset finished; sign the user in with the state (not reached by this
/// release's sign-in).
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public protocol MSALNativeAuthSignInAfterResetPasswordRequiredDelegate: MSALNativeAuthFlowDelegate {
    /// The flow reached `MSALNativeAuthSignInAfterResetPasswordState`.
    @MainActor func onSignInAfterResetPasswordRequired(
        state: MSALNativeAuthSignInAfterResetPasswordState, scenario: MSALNativeAuthFlowScenario)
}
