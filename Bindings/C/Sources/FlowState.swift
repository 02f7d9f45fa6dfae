import MSAL

/// A flow state behind a `msal_na_state` handle, with the auth methods an MFA or registration state
/// was offered (the C caller names a method by its id).
enum FlowState: Sendable {
    case signInCode(SignInCodeRequiredState)
    case signInPassword(SignInPasswordRequiredState)
    case signUpCode(SignUpCodeRequiredState)
    case signUpPassword(SignUpPasswordRequiredState)
    case signUpAttributes(SignUpAttributesRequiredState)
    case signInAfterSignUp(SignInAfterSignUpState)
    case resetCode(ResetPasswordCodeRequiredState)
    case resetPassword(ResetPasswordRequiredState)
    case signInAfterReset(SignInAfterResetPasswordState)
    case awaitingMFA(AwaitingMFAState, methods: [MSALAuthMethod])
    case mfaRequired(MFARequiredState, methods: [MSALAuthMethod])
    case registerStrongAuth(RegisterStrongAuthState, methods: [MSALAuthMethod])
    case registerVerification(RegisterStrongAuthVerificationRequiredState, methods: [MSALAuthMethod])

    /// `msal_na_state_kind` of the header.
    enum Kind: Int32 {
        case signInCodeRequired = 1
        case signInPasswordRequired = 2
        case signUpCodeRequired = 3
        case signUpPasswordRequired = 4
        case signUpAttributesRequired = 5
        case signInAfterSignUp = 6
        case resetPasswordCodeRequired = 7
        case resetPasswordRequired = 8
        case signInAfterResetPassword = 9
        case awaitingMFA = 10
        case mfaRequired = 11
        case registerStrongAuth = 12
        case registerStrongAuthVerificationRequired = 13
    }

    var kind: Kind {
        switch self {
        case .signInCode: .signInCodeRequired
        case .signInPassword: .signInPasswordRequired
        case .signUpCode: .signUpCodeRequired
        case .signUpPassword: .signUpPasswordRequired
        case .signUpAttributes: .signUpAttributesRequired
        case .signInAfterSignUp: .signInAfterSignUp
        case .resetCode: .resetPasswordCodeRequired
        case .resetPassword: .resetPasswordRequired
        case .signInAfterReset: .signInAfterResetPassword
        case .awaitingMFA: .awaitingMFA
        case .mfaRequired: .mfaRequired
        case .registerStrongAuth: .registerStrongAuth
        case .registerVerification: .registerStrongAuthVerificationRequired
        }
    }

    /// The auth methods an MFA or registration state carries; empty for the others.
    var methods: [MSALAuthMethod] {
        switch self {
        case .awaitingMFA(_, let methods), .mfaRequired(_, let methods), .registerStrongAuth(_, let methods),
            .registerVerification(_, let methods):
            methods
        default: []
        }
    }
}
