import Foundation

/// The domain of every error of MSAL's standard surface: an `NSError` whose `code` is an
/// `MSALError` raw value. Errors of the system (network, files) keep their own domain.
///
/// ```swift
/// // given: error: any Error
/// let error = error as NSError
/// if error.domain == MSALErrorDomain, let code = MSALError(rawValue: error.code) {
///     switch code {
///     case .interactionRequired: print("Sign in with acquireToken(with:)")
///     default: print(error.localizedDescription)
///     }
/// }
/// ```
public let MSALErrorDomain = "MSALErrorDomain"

/// The codes of `MSALErrorDomain`, with MSAL's raw values.
public enum MSALError: Int, Sendable {
    /// Not recoverable by the user; `userInfo[MSALInternalErrorCodeKey]` says what.
    case `internal` = -50000
    /// Not produced on Linux.
    case workplaceJoinRequired = -50001
    /// The user must sign in interactively: call `acquireToken(with:)`.
    case interactionRequired = -50002
    /// The server granted fewer scopes than asked; `MSALGrantedScopesKey` and `MSALDeclinedScopesKey` say which.
    case serverDeclinedScopes = -50003
    /// The resource needs an app-protection policy (`unauthorized_client` + `protection_policy_required`).
    case serverProtectionPoliciesRequired = -50004
    /// The user (or the app) cancelled the browser sign-in.
    case userCanceled = -50005
    /// Only as a value of `MSALInternalErrorCodeKey`.
    case serverError = -50006
    /// Not produced on Linux.
    case insufficientDeviceStrength = -50007
    /// Not produced on Linux.
    case mdmEnrollmentCompletedNeedsRetry = -50008
    /// The password must be reset before the user can sign in.
    case serverInvalidRequestResetPasswordRequired = -50142
}

/// The specific cause of an `MSALError.internal`, in `userInfo[MSALInternalErrorCodeKey]`. MSAL's
/// values; the broker, JIT-compliance and platform-SSO codes are declared for completeness and never
/// produced on Linux.
public enum MSALInternalError: Int, Sendable {
    case internalErrorInvalidParameter = -42000
    case internalErrorRedirectSchemeNotRegistered = -42001
    case internalErrorInvalidRequest = -42002
    case internalErrorInvalidClient = -42003
    case internalErrorInvalidGrant = -42004
    case internalErrorInvalidScope = -42005
    case internalErrorUnauthorizedClient = -42006
    case internalErrorUnhandledResponse = -42007
    case internalErrorUnexpected = -42008
    case internalErrorUnexpectedHttpResponse = -42009
    case internalErrorFailedAuthorityValidation = -42010
    case internalErrorInvalidRedirectURI = -42011
    case internalErrorMismatchedUser = -42101
    case internalErrorAmbiguousAccount = -42102
    case internalErrorAuthorizationFailed = -42104
    case internalErrorAccountRequired = -42106
    case internalErrorSessionCanceled = -42401
    case internalErrorInteractiveSessionAlreadyRunning = -42402
    case internalErrorNoViewController = -42403
    case internalErrorAttemptToOpenURLFromExtension = -42404
    case internalErrorUINotSupportedInExtension = -42405
    case internalErrorInvalidState = -42501
    case internalErrorInvalidResponse = -42600
    case internalErrorNonHttpsRedirect = -42602
    case internalErrorBrokerResponseNotReceived = -42700
    case internalErrorBrokerNoResumeStateFound = -42701
    case internalErrorBrokerBadResumeStateFound = -42702
    case internalErrorBrokerMismatchedResumeState = -42703
    case internalErrorBrokerResponseHashMissing = -42704
    case internalErrorBrokerCorruptedResponse = -42705
    case internalErrorBrokerResponseDecryptionFailed = -42706
    case internalErrorBrokerResponseHashMismatch = -42707
    case internalErrorBrokerKeyFailedToCreate = -42708
    case internalErrorBrokerKeyNotFound = -42709
    case internalErrorBrokerUnknown = -42711
    case internalErrorBrokerApplicationTokenWriteFailed = -42712
    case internalErrorBrokerApplicationTokenReadFailed = -42713
    case internalBrokerNotAvailable = -42714
    case internalErrorJITLinkServerConfirmationError = -42715
    case internalErrorJITLinkAcquireTokenError = -42716
    case internalErrorJITLinkTokenAcquiredWrongTenant = -42717
    case internalErrorJITLinkError = -42718
    case internalErrorJITComplianceCheckResultNotCompliant = -42719
    case internalErrorJITComplianceCheckResultTimeout = -42720
    case internalErrorJITComplianceCheckResultUnknown = -42721
    case errorJITComplianceCheckInvalidLinkPayload = -42722
    case errorJITComplianceCheckCreateController = -42723
    case errorJITLinkConfigNotFound = -42724
    case errorJITInvalidLinkTokenConfig = -42725
    case errorJITWPJDeviceRegistrationFailed = -42726
    case errorJITWPJAccountIdentifierNil = -42727
    case errorJITWPJAcquireTokenError = -42728
    case errorJITRetryRequired = -42729
    case errorJITUnknownStatusWebCP = -42730
    case errorJITTroubleshootingCreateController = -42731
    case errorJITTroubleshootingAcquireToken = -42732
    case internalErrorJITLinkServerConfirmationTimeout = -42733
    case errorJITTroubleshootingRequired = -42734
    case errorJITTroubleshootingResultUnknown = -42735
    case errorDeviceNotPSSORegistered = -42736
    case errorPSSOKeyIdMismatch = -42737
    case errorJITErrorHandlingConfigNotFound = -42738
    case errorPSSOBiometricPolicyMismatch = -42739
    case errorPSSOInvalidPasskeyExtension = -42740
    case errorPSSOSaveLoginConfigFailure = -42741
    case errorPSSOPasskeyLAError = -42742
    case errorPSSOBiometricsNotAvailable = -42743
    case errorPSSOBiometricsNotEnrolled = -42744
    case internalErrorInvalidASWebAuthenticationURL = -42745
}

// The `userInfo` keys of `MSALErrorDomain` errors; each value is its own name, as in MSAL.

/// A description of the error, for logs and people; not for logic.
public let MSALErrorDescriptionKey = "MSALErrorDescriptionKey"
/// The server's `error` string.
public let MSALOAuthErrorKey = "MSALOAuthErrorKey"
/// The server's `suberror` string.
public let MSALOAuthSubErrorKey = "MSALOAuthSubErrorKey"
/// The server's description of the error.
public let MSALOAuthSubErrorDescriptionKey = "MSALOAuthSubErrorDescriptionKey"
/// The server's `error_codes`, `[Int]`.
public let MSALSTSErrorCodesKey = "MSALSTSErrorCodesKey"
/// With `MSALError.internal`: the `MSALInternalError` raw value, `Int`.
public let MSALInternalErrorCodeKey = "MSALInternalErrorCodeKey"
/// The response headers of an HTTP error (for example `Retry-After`), `[String: String]`.
public let MSALHTTPHeadersKey = "MSALHTTPHeadersKey"
/// The HTTP status of an HTTP error, as a decimal string (`"429"`).
public let MSALHTTPResponseCodeKey = "MSALHTTPResponseCodeKey"
/// The correlation id of the request, a UUID string.
public let MSALCorrelationIDKey = "MSALCorrelationIDKey"
/// With `serverDeclinedScopes`: the scopes the server granted, `[String]`.
public let MSALGrantedScopesKey = "MSALGrantedScopesKey"
/// With `serverDeclinedScopes`: the scopes the server did not grant, `[String]`.
public let MSALDeclinedScopesKey = "MSALDeclinedScopesKey"
/// With `serverDeclinedScopes`: the `MSALResult` of the granted scopes.
public let MSALInvalidResultKey = "MSALInvalidResultKey"
/// With `serverProtectionPoliciesRequired`: the user's username.
public let MSALDisplayableUserIdKey = "MSALDisplayableUserIdKey"
/// With `serverProtectionPoliciesRequired`: the account's identifier (`uid.utid`).
public let MSALHomeAccountIdKey = "MSALHomeAccountIdKey"
/// Not set on Linux (there is no broker).
public let MSALBrokerVersionKey = "MSALBrokerVersionKey"
/// Not set on Linux.
public let MSALThrottlingCacheHitKey = "MSALThrottlingCacheHitKey"

/// Builds the `NSError`s of `MSALErrorDomain`: the one place their shape is decided (the mapping of
/// server answers to them is in Standard/StandardErrors.swift).
extension StandardErrors {
    package static func make(
        _ code: MSALError, internal internalCode: MSALInternalError? = nil, description: String, correlationId: UUID? = nil,
        extra: [String: Any] = [:]
    ) -> NSError {
        var userInfo: [String: Any] = [MSALErrorDescriptionKey: description, NSLocalizedDescriptionKey: description]
        if let internalCode { userInfo[MSALInternalErrorCodeKey] = internalCode.rawValue }
        if let correlationId { userInfo[MSALCorrelationIDKey] = correlationId.uuidString }
        userInfo.merge(extra) { _, new in new }
        return NSError(domain: MSALErrorDomain, code: code.rawValue, userInfo: userInfo)
    }
}
