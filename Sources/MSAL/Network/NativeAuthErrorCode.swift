/// A server `error` or `suberror` string, kept open: values the SDK has never seen decode fine and
/// simply match none of the known constants.
package struct NativeAuthErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
    package var description: String { rawValue }

    // `error` values (docs/protocol.md#error-envelope, #endpoints, #token-errors)
    package static let invalidRequest = Self(rawValue: "invalid_request")
    package static let invalidClient = Self(rawValue: "invalid_client")
    package static let unauthorizedClient = Self(rawValue: "unauthorized_client")
    package static let invalidGrant = Self(rawValue: "invalid_grant")
    package static let expiredToken = Self(rawValue: "expired_token")
    package static let userNotFound = Self(rawValue: "user_not_found")
    package static let userAlreadyExists = Self(rawValue: "user_already_exists")
    package static let unsupportedChallengeType = Self(rawValue: "unsupported_challenge_type")
    package static let accessDenied = Self(rawValue: "access_denied")
    package static let credentialRequired = Self(rawValue: "credential_required")
    package static let attributesRequired = Self(rawValue: "attributes_required")
    package static let verificationRequired = Self(rawValue: "verification_required")
    package static let invalidScope = Self(rawValue: "invalid_scope")
    package static let expiredRefreshToken = Self(rawValue: "expired_refresh_token")

    // `suberror` values (docs/protocol.md#error-codes)
    package static let invalidOOBValue = Self(rawValue: "invalid_oob_value")
    package static let mfaRequired = Self(rawValue: "mfa_required")
    package static let registrationRequired = Self(rawValue: "registration_required")
    package static let attributeValidationFailed = Self(rawValue: "attribute_validation_failed")
    package static let providerBlockedByRep = Self(rawValue: "provider_blocked_by_rep")
    package static let passwordTooWeak = Self(rawValue: "password_too_weak")
    package static let passwordTooShort = Self(rawValue: "password_too_short")
    package static let passwordTooLong = Self(rawValue: "password_too_long")
    package static let passwordRecentlyUsed = Self(rawValue: "password_recently_used")
    package static let passwordBanned = Self(rawValue: "password_banned")
    package static let passwordIsInvalid = Self(rawValue: "password_is_invalid")

    /// Whether this suberror is one of the password-policy failures.
    package var isPasswordPolicyFailure: Bool {
        [.passwordTooWeak, .passwordTooShort, .passwordTooLong, .passwordRecentlyUsed, .passwordBanned, .passwordIsInvalid]
            .contains(self)
    }
}

/// `error_codes` values the SDK acts on (docs/protocol.md#error-codes).
package enum NativeAuthServerCode {
    package static let userNotFound = 50034
    package static let invalidCredentials = 50126
    package static let mfaRequired = 50076
    package static let passwordChangeRequired = 50142
    package static let userDoesNotHavePassword = 500222
    package static let invalidParameter = 90100
    package static let invalidVerificationContact = 901001
}
