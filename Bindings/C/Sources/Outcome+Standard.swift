import Foundation
import MSAL

/// Outcomes of MSAL's standard surface (`acquireToken`), whose errors are `NSError`s in
/// `MSALErrorDomain` (docs/error-mapping.md) or the system's own.
extension Outcome {
    /// A browser sign-in's tokens, with the account it signed in (from the shared cache, as every
    /// other account handle).
    convenience init(browser result: MSALResult, application: MSALNativeAuthPublicClientApplication) {
        self.init(
            kind: .accessToken, correlationId: result.correlationId.uuidString.lowercased(),
            account: result.account.identifier.flatMap { id in (try? AccountDirectory.account(application, identifier: id)) ?? nil },
            accessToken: result.accessToken, expiresOn: result.expiresOn, scopes: result.scopes)
    }

    /// An error of the standard surface, with MSAL's server details and correlation id.
    convenience init(standard error: NSError) {
        let info = error.userInfo
        let description = info[MSALErrorDescriptionKey] as? String ?? error.localizedDescription
        self.init(
            kind: .error, code: Self.code(error), message: description,
            correlationId: (info[MSALCorrelationIDKey] as? String)?.lowercased(), serverError: info[MSALOAuthErrorKey] as? String,
            serverSuberror: info[MSALOAuthSubErrorKey] as? String, errorCodes: info[MSALSTSErrorCodesKey] as? [Int] ?? [],
            scopes: info[MSALGrantedScopesKey] as? [String] ?? [], declinedScopes: info[MSALDeclinedScopesKey] as? [String] ?? [])
    }

    private static func code(_ error: NSError) -> ErrorCode {
        if error.domain == NSURLErrorDomain { return .network }
        guard error.domain == MSALErrorDomain, let code = MSALError(rawValue: error.code) else { return .general }
        switch code {
        case .userCanceled: return .userCanceled
        case .interactionRequired: return .interactionRequired
        case .serverDeclinedScopes: return .declinedScopes
        case .internal:
            switch (error.userInfo[MSALInternalErrorCodeKey] as? Int).flatMap(MSALInternalError.init(rawValue:)) {
            case .internalErrorNoViewController: return .noBrowser
            case .internalErrorInteractiveSessionAlreadyRunning: return .browserSessionRunning
            case .internalErrorInvalidParameter: return .invalidArgument
            case .internalErrorInvalidScope: return .invalidScope
            default: return .general
            }
        default: return .general
        }
    }
}
