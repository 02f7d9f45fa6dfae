import Foundation

/// Every mapping from a sign-in server answer to a public sign-in error (docs/error-mapping.md#sign-in-start, #sign-in-states).
extension SignInStartError {
    /// From the `initiate` answer: `user_not_found` is its own kind; anything else is general.
    static func fromInitiate(_ apiError: NativeAuthAPIError, correlationId: UUID) -> SignInStartError {
        if apiError.error == .userNotFound {
            return SignInStartError(
                type: .userNotFound,
                NativeAuthErrorDetails(
                    apiError, correlationId: correlationId, fallback: NativeAuthErrorMessage.userNotFound))
        }
        return general(apiError, correlationId: correlationId)
    }

    static func general(_ apiError: NativeAuthAPIError, correlationId: UUID) -> SignInStartError {
        SignInStartError(
            type: .generalError,
            NativeAuthErrorDetails(
                apiError, correlationId: correlationId, fallback: NativeAuthErrorMessage.generalError))
    }

    static func browserRequired(_ reason: String?, correlationId: UUID) -> SignInStartError {
        SignInStartError(type: .browserRequired, NativeAuthErrorDetails(redirectReason: reason, correlationId: correlationId))
    }

    static func general(_ failure: MSALNativeAuthNetworkFailure, correlationId: UUID) -> SignInStartError {
        SignInStartError(type: .generalError, NativeAuthErrorDetails(failure, correlationId: correlationId))
    }

    /// From the token step of a sign-in that started with a password.
    static func fromToken(_ failure: TokenRedemptionFailure) -> SignInStartError {
        switch failure {
        case .browserRequired(let details): return SignInStartError(type: .browserRequired, details)
        case .invalidCredentials(let details): return SignInStartError(type: .invalidCredentials, details)
        case .userNotFound(let details): return SignInStartError(type: .userNotFound, details)
        case .invalidCode(let details), .mfaRequired(_, let details), .registrationRequired(_, let details), .general(let details):
            return SignInStartError(type: .generalError, details)
        }
    }
}

extension PasswordRequiredError {
    /// From the token step of `SignInPasswordRequiredState.submitPassword`. A wrong password uses
    /// MSAL's fixed text `Invalid password` rather than the server's description.
    static func fromSignInToken(_ failure: TokenRedemptionFailure) -> PasswordRequiredError {
        switch failure {
        case .browserRequired(let details):
            return PasswordRequiredError(type: .browserRequired, details)
        case .invalidCredentials(var details):
            details.message = NativeAuthErrorMessage.invalidPassword
            return PasswordRequiredError(type: .invalidPassword, details)
        case .userNotFound(let details), .invalidCode(let details), .mfaRequired(_, let details), .registrationRequired(_, let details),
            .general(let details):
            return PasswordRequiredError(type: .generalError, details)
        }
    }
}

extension VerifyCodeError {
    /// From the token step of `SignInCodeRequiredState.submitCode`.
    static func fromSignInToken(_ failure: TokenRedemptionFailure) -> VerifyCodeError {
        switch failure {
        case .browserRequired(let details):
            return VerifyCodeError(type: .browserRequired, details)
        case .invalidCode(var details):
            if details.message == NativeAuthErrorMessage.generalError { details.message = NativeAuthErrorMessage.invalidCode }
            return VerifyCodeError(type: .invalidCode, details)
        case .invalidCredentials(let details), .userNotFound(let details), .mfaRequired(_, let details),
            .registrationRequired(_, let details), .general(let details):
            return VerifyCodeError(type: .generalError, details)
        }
    }
}

extension ResendCodeError {
    static func general(_ details: NativeAuthErrorDetails) -> ResendCodeError {
        ResendCodeError(type: .generalError, details)
    }

    static func browserRequired(_ reason: String?, correlationId: UUID) -> ResendCodeError {
        ResendCodeError(type: .browserRequired, NativeAuthErrorDetails(redirectReason: reason, correlationId: correlationId))
    }
}
