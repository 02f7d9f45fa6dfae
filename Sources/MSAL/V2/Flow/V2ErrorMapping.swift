import Foundation

/// Which public error a V2 refusal is, in one place (docs/decisions.md#native-auth-v2, docs/error-mapping-v2.md).
/// The inner code decides when there is one; the AADSTS number (from `error_codes` or the message)
/// is the fallback, so a refusal the emulator and the service word differently maps alike.
/// Where MSAL's own V2 mapping would report the same answer as a general error, the error's
/// `isGeneralError` is true beside its specific flag (docs/compatibility.md#native-auth-v2).
enum V2ErrorMapping {
    /// The AADSTS numbers of a continuation token the service refuses: 10040144 (invalid) and 552001
    /// (expired) as the service sends them, 552003 and 55200 as older answers and the emulator did
    /// (docs/protocol.md#native-auth-v2-experimental). With any of them an `invalidGrant` is no wrong
    /// code; such a refusal matches no other row, so it is a general error.
    static let tokenRefusalCodes: Set<Int> = [10_040_144, 552_001, 552_003, 55200]

    static func kind(of error: V2ServerError, in step: V2FlowMachine.Step) -> NativeAuthErrorKind {
        let codes = error.errorCodes
        func named(_ names: String..., or code: Int? = nil) -> Bool {
            names.contains(where: error.names) || code.map(codes.contains) == true
        }
        if named("userNotFound", or: 50034) || error.code == "user_not_found" { return .userNotFound }
        if named("invalidOneTimeCode", or: 50181) { return isStrongAuth(step) ? .invalidChallenge : .invalidCode }
        if named("invalidUserNameOrPassword", or: 50126) { return .invalidPassword }
        if named("passwordTooWeak", "passwordBanned", "passwordRecentlyUsed", "passwordPolicyViolation", or: 120002) {
            return .invalidPassword
        }
        if named("userAlreadyExists", or: 1_003_037) { return .userAlreadyExists }
        if named("attributeValidationError", "invalidAttributeValue", or: 1_002_027) { return .invalidAttributes }
        if named("userDoesNotHavePassword", or: 500222) { return .userDoesNotHavePassword }
        // 901001 alone is also the service's number for a malformed entry request: a contact only where one is sent.
        if named("invalidVerificationContact") || (codes.contains(901001) && step == .selectMethod(.registration)) {
            return .invalidInput
        }
        if named("providerBlockedByRep", or: 550024) {
            return step == .selectMethod(.registration) ? .verificationContactBlocked : .authMethodBlocked
        }
        if step == .start, codes.contains(90100), !error.names("invalidContinuationToken") { return .invalidUsername }
        return wrongSecret(error, in: step) ?? .generalError
    }

    /// A verify step's `invalidGrant` with no inner code, or with `invalidContinuationToken`: a wrong code
    /// (a wrong password after a password), as msal-browser and MSAL read it; nil for anything else, and
    /// for an `invalidGrant` that names an expired token or too many attempts.
    private static func wrongSecret(_ error: V2ServerError, in step: V2FlowMachine.Step) -> NativeAuthErrorKind? {
        guard error.code == "invalidGrant", error.innerCode == nil || error.innerCode == "invalidContinuationToken",
            error.detailCodes.isEmpty, error.errorCodes.allSatisfy({ !tokenRefusalCodes.contains($0) && $0 != 50053 })
        else { return nil }
        switch step {
        case .submitCode(let purpose): return purpose.isStrongAuth ? .invalidChallenge : .invalidCode
        case .submitPassword: return .invalidPassword
        default: return nil
        }
    }

    /// Whether MSAL's V2 mapping (its response validator, docs/compatibility.md#native-auth-v2) makes
    /// `error` a general error: it knows an invalid continuation token (a wrong code when the outer
    /// code is `invalidGrant`), AADSTS50034 in the message, the inner codes `passwordTooWeak` and
    /// `invalidUserNameOrPassword` (or AADSTS50126), and any other `invalidGrant` as a wrong code.
    static func isGeneralInMSAL(_ error: V2ServerError) -> Bool {
        if error.innerCode == "invalidContinuationToken" { return error.code != "invalidGrant" }
        if error.message?.contains("AADSTS50034") == true { return false }
        if error.innerCode == "passwordTooWeak" || error.innerCode == "invalidUserNameOrPassword" { return false }
        return !error.errorCodes.contains(50126) && error.code != "invalidGrant"
    }

    private static func isStrongAuth(_ step: V2FlowMachine.Step) -> Bool {
        switch step {
        case .submitCode(let purpose), .selectMethod(let purpose), .resend(let purpose): purpose.isStrongAuth
        case .entry, .start, .submitPassword, .submitAttributes, .submitNewPassword, .recover, .signInAfter: false
        }
    }

    /// The error's details: the server's message (else MSAL's text for `kind`), its codes, and the
    /// body's correlation id over the header's.
    static func details(of error: V2ServerError, kind: NativeAuthErrorKind, _ id: UUID) -> NativeAuthErrorDetails {
        var details = NativeAuthErrorDetails(message: error.message ?? kind.message, correlationId: error.correlationId ?? id)
        details.errorCodes = error.errorCodes
        details.errorURI = error.errorURI
        details.serverError = error.code
        details.serverSuberror = error.innerCode
        details.generalInMSAL = kind != .invalidAttributes && isGeneralInMSAL(error)
        if kind == .invalidAttributes, !error.attributeIds.isEmpty {
            details.message = (details.message ?? "") + " (attributes: \(error.attributeIds.joined(separator: ", ")))"
            details.invalidAttributeNames = error.attributeIds
        }
        return details
    }
}
