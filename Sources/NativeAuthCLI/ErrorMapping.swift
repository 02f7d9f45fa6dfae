import Foundation
import MSAL

/// SDK errors as the tool reports them: a message and an exit status (docs/cli.md#exit-codes), in
/// one place for every command.
enum ErrorMapping {
    /// A native-auth flow's or `getAccessToken`'s error.
    static func native(_ error: MSALNativeAuthError) -> CLIError {
        let text = error.errorDescription ?? "the service refused"
        if error.isBrowserRequired { return CLIError(.browserRequired, "the service requires a browser sign-in: \(text)") }
        if let failure = error.underlyingError as? MSALNativeAuthNetworkFailure {
            if failure.kind == .cancelled { return CLIError(.failure, "cancelled") }
            return CLIError(.network, "the service could not be reached or did not answer usably: \(failure.message)")
        }
        if isExpiredFlow(error) {
            return CLIError(.noSavedFlow, "the sign-in expired: start again with native-auth login (\(text))")
        }
        switch error {
        case let start as SignInStartError where start.isUserNotFound || start.isInvalidCredentials || start.isInvalidUsername:
            return CLIError(.wrongCredentials, text)
        case let password as PasswordRequiredError where password.isInvalidPassword:
            return CLIError(.wrongCredentials, text)
        case let code as VerifyCodeError where code.isInvalidCode:
            return CLIError(.wrongCredentials, text)
        case let challenge as MFASubmitChallengeError where challenge.isInvalidChallenge:
            return CLIError(.wrongCredentials, text)
        case let challenge as RegisterStrongAuthSubmitChallengeError where challenge.isInvalidChallenge:
            return CLIError(.wrongCredentials, text)
        case let contact as RegisterStrongAuthChallengeError where contact.isInvalidInput:
            return CLIError(.usage, "the contact is not valid: \(text)")
        case let flow as MSALNativeAuthFlowError
        where flow.isUserNotFound || flow.isInvalidUsername || flow.isInvalidPassword || flow.isInvalidCode:
            return CLIError(.wrongCredentials, text)
        case let flow as MSALNativeAuthFlowError where flow.isInvalidInput:
            return CLIError(.usage, "the contact is not valid: \(text)")
        case let token as RetrieveAccessTokenError where token.isRefreshTokenExpired:
            return CLIError(.notSignedIn, "the sign-in has expired or was revoked: run native-auth login (\(text))")
        case let token as RetrieveAccessTokenError where token.isInvalidScope:
            return CLIError(.usage, "the service does not accept these scopes: \(text)")
        default:
            return CLIError(.failure, text)
        }
    }

    /// The service no longer takes the flow's continuation token because it expired: V1's `expired_token`;
    /// V2's `expiredToken`/`expiredContinuationToken` as the service sends it, and the older
    /// `invalidGrant`/`expiredToken` (docs/protocol.md#native-auth-v2-experimental).
    static func isExpiredFlow(_ error: MSALNativeAuthError) -> Bool {
        if error.serverError == "expired_token" || error.serverError == "expiredToken" { return true }
        return error.serverSuberror == "expiredToken" || error.serverSuberror == "expiredContinuationToken"
    }

    /// A native-auth error thrown untyped.
    static func any(_ error: any Error) -> CLIError {
        (error as? MSALNativeAuthError).map(native) ?? CLIError(.failure, "\(error)")
    }

    /// An error of MSAL's standard surface (the browser sign-in): `MSALErrorDomain`, or the system's.
    static func standard(_ error: any Error) -> CLIError {
        let error = error as NSError
        let text = error.localizedDescription
        if error.domain == NSURLErrorDomain { return CLIError(.network, "the service could not be reached: \(text)") }
        guard error.domain == MSALErrorDomain else { return CLIError(.failure, text) }
        switch MSALError(rawValue: error.code) {
        case .userCanceled: return CLIError(.browserRequired, "the browser sign-in was cancelled")
        case .interactionRequired: return CLIError(.browserRequired, "the browser sign-in did not complete: \(text)")
        default:
            let internalCode = (error.userInfo[MSALInternalErrorCodeKey] as? Int).flatMap(MSALInternalError.init(rawValue:))
            if internalCode == .internalErrorNoViewController {
                return CLIError(.browserRequired, "no browser could be started: \(text)")
            }
            return CLIError(.failure, text)
        }
    }
}
