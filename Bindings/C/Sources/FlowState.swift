import MSAL

/// A flow state behind a `msal_na_state` handle, with the auth methods an MFA or registration state
/// was offered (the C caller names a method by its id). The `v2` cases hold native auth V2 states
/// (experimental; Operations+V2.swift), kinds 20 and up.
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
    case v2Code(MSALNativeAuthCodeRequiredState)
    case v2Password(MSALNativeAuthPasswordRequiredState)
    case v2NewPassword(MSALNativeAuthNewPasswordRequiredState)
    case v2Attributes(MSALNativeAuthAttributesRequiredState)
    case v2Selection(MSALNativeAuthAuthMethodSelectionRequiredState)
    case v2MFAVerification(MSALNativeAuthMFAVerificationRequiredState)
    case v2Registration(MSALNativeAuthStrongAuthRegistrationRequiredState)
    case v2RegistrationVerification(MSALNativeAuthStrongAuthVerificationRequiredState)
    case v2SignInAfterSignUp(MSALNativeAuthSignInAfterSignUpState)
    case v2SignInAfterReset(MSALNativeAuthSignInAfterResetPasswordState)

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
        // Native auth V2 (experimental).
        case v2CodeRequired = 20
        case v2PasswordRequired = 21
        case v2NewPasswordRequired = 22
        case v2AttributesRequired = 23
        case v2AuthMethodSelectionRequired = 24
        case v2MFAVerificationRequired = 25
        case v2StrongAuthRegistrationRequired = 26
        case v2StrongAuthVerificationRequired = 27
        case v2SignInAfterSignUp = 28
        case v2SignInAfterResetPassword = 29
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
        case .v2Code: .v2CodeRequired
        case .v2Password: .v2PasswordRequired
        case .v2NewPassword: .v2NewPasswordRequired
        case .v2Attributes: .v2AttributesRequired
        case .v2Selection: .v2AuthMethodSelectionRequired
        case .v2MFAVerification: .v2MFAVerificationRequired
        case .v2Registration: .v2StrongAuthRegistrationRequired
        case .v2RegistrationVerification: .v2StrongAuthVerificationRequired
        case .v2SignInAfterSignUp: .v2SignInAfterSignUp
        case .v2SignInAfterReset: .v2SignInAfterResetPassword
        }
    }

    /// The auth methods an MFA, registration or V2 selection state carries; empty for the others.
    var methods: [MSALAuthMethod] {
        switch self {
        case .awaitingMFA(_, let methods), .mfaRequired(_, let methods), .registerStrongAuth(_, let methods),
            .registerVerification(_, let methods):
            methods
        case .v2Selection(let state): state.authMethods
        case .v2Registration(let state): state.authMethods
        default: []
        }
    }
}
