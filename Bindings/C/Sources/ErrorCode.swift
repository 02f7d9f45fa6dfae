import MSAL

/// `msal_na_error` of the header: stable numbers, never renumbered; new kinds get new numbers.
enum ErrorCode: Int32, CaseIterable, Sendable {
    case ok = 0
    // The call itself was wrong; nothing ran.
    case invalidArgument = 1
    case invalidHandle = 2
    case invalidConfig = 3
    case wrongState = 4
    // What the SDK reported.
    case general = 10
    case network = 11
    case browserRequired = 12
    case userNotFound = 13
    case invalidCredentials = 14
    case invalidUsername = 15
    case userAlreadyExists = 16
    case invalidPassword = 17
    case userDoesNotHavePassword = 18
    case invalidCode = 19
    case mfaRequired = 20
    case registrationRequired = 21
    case refreshTokenExpired = 22
    case invalidScope = 23
    case authMethodBlocked = 24
    case invalidInput = 25
    case verificationContactBlocked = 26
    case noAccount = 27
    case cache = 28
    case bufferTooSmall = 29
    // msal_na_app_restore_state (RestoreStateError's isXxx flags).
    case stateMalformed = 30
    case stateUnsupportedVersion = 31
    case stateExpired = 32
    case stateWrongApplication = 33
    case stateWrongKind = 34
    // msal_na_app_redis_take_state: no saved sign-in under the id (never saved, expired, taken before).
    case stateNotFound = 35
    // The browser, accounts and the keyring (Bindings/C/Sources/Outcome+Standard.swift, AccountDirectory.swift).
    case userCanceled = 40
    case noBrowser = 41
    case browserSessionRunning = 42
    case interactionRequired = 43
    case declinedScopes = 44
    case keyringUnavailable = 45
    case keyringLocked = 46
    // The token cache on Redis (Bindings/C/Sources/InterfaceConfiguration+Redis.swift).
    case redisUnavailable = 47
    // Native auth V2 (MSALNativeAuthFlowError.isInvalidAttributes); its other flags reuse the numbers above.
    case invalidAttributes = 50
    case `internal` = 99

    /// The name as in the header, without the `MSAL_NA_` prefix (`msal_na_error_name`).
    var name: String {
        switch self {
        case .ok: "OK"
        case .invalidArgument: "ERR_INVALID_ARGUMENT"
        case .invalidHandle: "ERR_INVALID_HANDLE"
        case .invalidConfig: "ERR_INVALID_CONFIG"
        case .wrongState: "ERR_WRONG_STATE"
        case .general: "ERR_GENERAL"
        case .network: "ERR_NETWORK"
        case .browserRequired: "ERR_BROWSER_REQUIRED"
        case .userNotFound: "ERR_USER_NOT_FOUND"
        case .invalidCredentials: "ERR_INVALID_CREDENTIALS"
        case .invalidUsername: "ERR_INVALID_USERNAME"
        case .userAlreadyExists: "ERR_USER_ALREADY_EXISTS"
        case .invalidPassword: "ERR_INVALID_PASSWORD"
        case .userDoesNotHavePassword: "ERR_USER_DOES_NOT_HAVE_PASSWORD"
        case .invalidCode: "ERR_INVALID_CODE"
        case .mfaRequired: "ERR_MFA_REQUIRED"
        case .registrationRequired: "ERR_REGISTRATION_REQUIRED"
        case .refreshTokenExpired: "ERR_REFRESH_TOKEN_EXPIRED"
        case .invalidScope: "ERR_INVALID_SCOPE"
        case .authMethodBlocked: "ERR_AUTH_METHOD_BLOCKED"
        case .invalidInput: "ERR_INVALID_INPUT"
        case .verificationContactBlocked: "ERR_VERIFICATION_CONTACT_BLOCKED"
        case .noAccount: "ERR_NO_ACCOUNT"
        case .cache: "ERR_CACHE"
        case .bufferTooSmall: "ERR_BUFFER_TOO_SMALL"
        case .stateMalformed: "ERR_STATE_MALFORMED"
        case .stateUnsupportedVersion: "ERR_STATE_UNSUPPORTED_VERSION"
        case .stateExpired: "ERR_STATE_EXPIRED"
        case .stateWrongApplication: "ERR_STATE_WRONG_APPLICATION"
        case .stateWrongKind: "ERR_STATE_WRONG_KIND"
        case .stateNotFound: "ERR_STATE_NOT_FOUND"
        case .userCanceled: "ERR_USER_CANCELED"
        case .noBrowser: "ERR_NO_BROWSER"
        case .browserSessionRunning: "ERR_BROWSER_SESSION_RUNNING"
        case .interactionRequired: "ERR_INTERACTION_REQUIRED"
        case .declinedScopes: "ERR_DECLINED_SCOPES"
        case .keyringUnavailable: "ERR_KEYRING_UNAVAILABLE"
        case .keyringLocked: "ERR_KEYRING_LOCKED"
        case .redisUnavailable: "ERR_REDIS_UNAVAILABLE"
        case .invalidAttributes: "ERR_INVALID_ATTRIBUTES"
        case .internal: "ERR_INTERNAL"
        }
    }

    /// The code for an SDK error, from the public `isXxx` flags of its class. `passwordMeansCredentials`:
    /// a refused password on a sign-in state is wrong credentials, not the password policy.
    static func of(_ error: MSALNativeAuthError, passwordMeansCredentials: Bool = false) -> ErrorCode {
        if error.isBrowserRequired {
            // The service's redirect when the app did not declare a capability the user needs.
            let text = (error.errorDescription ?? "").lowercased()
            if text.contains("mfa_required") { return .mfaRequired }
            if text.contains("registration_required") { return .registrationRequired }
            return .browserRequired
        }
        switch error {
        case let error as SignInStartError:
            if error.isUserNotFound { return .userNotFound }
            if error.isInvalidCredentials { return .invalidCredentials }
            if error.isInvalidUsername { return .invalidUsername }
        case let error as SignUpStartError:
            if error.isUserAlreadyExists { return .userAlreadyExists }
            if error.isInvalidPassword { return .invalidPassword }
            if error.isInvalidUsername { return .invalidUsername }
        case let error as ResetPasswordStartError:
            if error.isUserNotFound { return .userNotFound }
            if error.isUserDoesNotHavePassword { return .userDoesNotHavePassword }
            if error.isInvalidUsername { return .invalidUsername }
        case let error as PasswordRequiredError:
            if error.isInvalidPassword { return passwordMeansCredentials ? .invalidCredentials : .invalidPassword }
        case let error as VerifyCodeError:
            if error.isInvalidCode { return .invalidCode }
        case let error as MFARequestChallengeError:
            if error.isAuthMethodBlocked { return .authMethodBlocked }
        case let error as MFASubmitChallengeError:
            if error.isInvalidChallenge { return .invalidCode }
        case let error as RegisterStrongAuthChallengeError:
            if error.isInvalidInput { return .invalidInput }
            if error.isVerificationContactBlocked { return .verificationContactBlocked }
        case let error as RegisterStrongAuthSubmitChallengeError:
            if error.isInvalidChallenge { return .invalidCode }
        case let error as MSALNativeAuthFlowError:
            if let code = v2(error) { return code }
        case let error as RestoreStateError:
            if error.isMalformed { return .stateMalformed }
            if error.isUnsupportedVersion { return .stateUnsupportedVersion }
            if error.isExpired { return .stateExpired }
            if error.isWrongApplication { return .stateWrongApplication }
            if error.isWrongKind { return .stateWrongKind }
        case let error as RetrieveAccessTokenError:
            if error.isRefreshTokenExpired { return .refreshTokenExpired }
            if error.isInvalidScope { return .invalidScope }
            if error.declinedScopes != nil { return .declinedScopes }
            // AADSTS50076 / 50079: the token needs a second factor (or registering one) first.
            if error.errorCodes.contains(50076) { return .mfaRequired }
            if error.errorCodes.contains(50079) { return .registrationRequired }
        default:
            break
        }
        if let failure = error.underlyingError as? MSALNativeAuthNetworkFailure {
            switch failure.kind {
            case .transport, .unexpectedStatus, .redirected, .responseTooLarge: return .network
            case .invalidResponse, .cancelled: return .general
            }
        }
        return .general
    }

    /// A V2 error's flag as the number V1 gives the same situation (docs/protocol.md#errors): a wrong
    /// password, sign-in or policy, is `isInvalidPassword` in V2 (no `isInvalidCredentials` there);
    /// a wrong MFA or registration code is `isInvalidCode` too. Nil: a general or network error.
    private static func v2(_ error: MSALNativeAuthFlowError) -> ErrorCode? {
        if error.isUserNotFound { return .userNotFound }
        if error.isInvalidCode { return .invalidCode }
        if error.isInvalidPassword { return .invalidPassword }
        if error.isInvalidUsername { return .invalidUsername }
        if error.isInvalidAttributes { return .invalidAttributes }
        if error.isUserDoesNotHavePassword { return .userDoesNotHavePassword }
        if error.isUserAlreadyExists { return .userAlreadyExists }
        if error.isAuthMethodBlocked { return .authMethodBlocked }
        if error.isVerificationContactBlocked { return .verificationContactBlocked }
        if error.isInvalidInput { return .invalidInput }
        return nil
    }
}
