/// Where a native auth V2 call left the flow: the result of every `async` V2 call
/// (`signInV2(parameters:)`, `submitCode(_:)`, ...). The name mirrors MSAL's internal V2 result.
///
/// The enum is open: later releases may add cases, so keep a `default` (or `@unknown default`) in
/// a `switch` over it.
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public enum MSALNativeAuthFlowResult: Sendable {
    /// The user is signed in (the tokens are cached).
    case completed(MSALNativeAuthUserAccountResult, scenario: MSALNativeAuthFlowScenario)
    /// A one-time code was sent; submit it on the state.
    case codeRequired(MSALNativeAuthCodeRequiredState)
    /// The service asks for the password.
    case passwordRequired(MSALNativeAuthPasswordRequiredState)
    /// A password reset, or an inline recovery in a sign-in, asks for the new password.
    case newPasswordRequired(MSALNativeAuthNewPasswordRequiredState)
    /// A sign-up asks for attributes the parameters did not give.
    case attributesRequired(MSALNativeAuthAttributesRequiredState)
    /// The user must choose a method; the state's `purpose` says why.
    case authMethodSelectionRequired(MSALNativeAuthAuthMethodSelectionRequiredState)
    /// A second-factor code was sent.
    case mfaVerificationRequired(MSALNativeAuthMFAVerificationRequiredState)
    /// The user must register a strong-auth method.
    case strongAuthRegistrationRequired(MSALNativeAuthStrongAuthRegistrationRequiredState)
    /// A code was sent to the method being registered.
    case strongAuthVerificationRequired(MSALNativeAuthStrongAuthVerificationRequiredState)
    /// A sign-up finished; the state's `signIn` gets the tokens.
    case signInAfterSignUp(MSALNativeAuthSignInAfterSignUpState)
    /// A password reset finished; the state's `signIn` gets the tokens.
    case signInAfterResetPassword(MSALNativeAuthSignInAfterResetPasswordState)

    /// The flow the result comes from.
    public var scenario: MSALNativeAuthFlowScenario {
        switch self {
        case .completed(_, let scenario): scenario
        case .codeRequired(let state as MSALNativeAuthState), .passwordRequired(let state as MSALNativeAuthState),
            .newPasswordRequired(let state as MSALNativeAuthState), .attributesRequired(let state as MSALNativeAuthState),
            .authMethodSelectionRequired(let state as MSALNativeAuthState), .mfaVerificationRequired(let state as MSALNativeAuthState),
            .strongAuthRegistrationRequired(let state as MSALNativeAuthState),
            .strongAuthVerificationRequired(let state as MSALNativeAuthState), .signInAfterSignUp(let state as MSALNativeAuthState),
            .signInAfterResetPassword(let state as MSALNativeAuthState):
            state.scenario
        }
    }
}

/// How a V2 result reaches a delegate: the one place that opens the per-state protocols
/// (docs/usage.md#native-auth-v2-experimental). Every V2 call, entry or continuation, goes
/// through `run`, so each reports exactly once, on the main actor.
enum V2Delivery {
    /// Runs `step` (the `async` form of the call) and reports its result or error to `delegate`.
    static func run(
        _ delegate: any MSALNativeAuthFlowDelegate, scenario: MSALNativeAuthFlowScenario,
        _ step: @escaping @Sendable () async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult
    ) {
        withDelegateOnMainActor(delegate) { delegate in
            do throws(MSALNativeAuthFlowError) {
                deliver(try await step(), to: delegate)
            } catch {
                delegate.onFlowError(error: error, scenario: scenario)
            }
        }
    }

    @MainActor
    static func deliver(_ result: MSALNativeAuthFlowResult, to delegate: any MSALNativeAuthFlowDelegate) {
        switch result {
        case .completed(let account, let scenario):
            delegate.onFlowCompleted(result: account, scenario: scenario)
        case .codeRequired(let state):
            offer(state, to: delegate) { (d: any MSALNativeAuthCodeRequiredDelegate) in
                d.onCodeRequired(state: state, scenario: state.scenario)
            }
        case .passwordRequired(let state):
            offer(state, to: delegate) { (d: any MSALNativeAuthPasswordRequiredDelegate) in
                d.onPasswordRequired(state: state, scenario: state.scenario)
            }
        case .newPasswordRequired(let state):
            offer(state, to: delegate) { (d: any MSALNativeAuthNewPasswordRequiredDelegate) in
                d.onNewPasswordRequired(state: state, scenario: state.scenario)
            }
        case .attributesRequired(let state):
            offer(state, to: delegate) { (d: any MSALNativeAuthAttributesRequiredDelegate) in
                d.onAttributesRequired(state: state, scenario: state.scenario)
            }
        case .authMethodSelectionRequired(let state):
            offer(state, to: delegate) { (d: any MSALNativeAuthAuthMethodSelectionRequiredDelegate) in
                d.onAuthMethodSelectionRequired(state: state, scenario: state.scenario)
            }
        case .mfaVerificationRequired(let state):
            offer(state, to: delegate) { (d: any MSALNativeAuthMFAVerificationRequiredDelegate) in
                d.onMFAVerificationRequired(state: state, scenario: state.scenario)
            }
        case .strongAuthRegistrationRequired(let state):
            offer(state, to: delegate) { (d: any MSALNativeAuthStrongAuthRegistrationRequiredDelegate) in
                d.onStrongAuthRegistrationRequired(state: state, scenario: state.scenario)
            }
        case .strongAuthVerificationRequired(let state):
            offer(state, to: delegate) { (d: any MSALNativeAuthStrongAuthVerificationRequiredDelegate) in
                d.onStrongAuthVerificationRequired(state: state, scenario: state.scenario)
            }
        case .signInAfterSignUp(let state):
            offer(state, to: delegate) { (d: any MSALNativeAuthSignInAfterSignUpRequiredDelegate) in
                d.onSignInAfterSignUpRequired(state: state, scenario: state.scenario)
            }
        case .signInAfterResetPassword(let state):
            offer(state, to: delegate) { (d: any MSALNativeAuthSignInAfterResetPasswordRequiredDelegate) in
                d.onSignInAfterResetPasswordRequired(state: state, scenario: state.scenario)
            }
        }
    }

    /// Calls `callback` when `delegate` conforms to `Protocol`; else `onFlowError` with
    /// `isNotImplemented`, naming the protocol.
    @MainActor
    private static func offer<Protocol>(
        _ state: MSALNativeAuthState, to delegate: any MSALNativeAuthFlowDelegate, _ callback: @MainActor (Protocol) -> Void
    ) {
        if let opted = delegate as? Protocol {
            callback(opted)
            return
        }
        var name = String(describing: Protocol.self)
        if name.hasPrefix("any ") { name.removeFirst(4) }
        delegate.onFlowError(error: .notImplemented(name, correlationId: state.correlationId), scenario: state.scenario)
    }
}
