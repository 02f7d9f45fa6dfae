import Foundation

/// The error of every native auth V2 step, in both call forms. Mirrors MSAL's V2
/// `MSALNativeAuthFlowError` as of 2.18.1 (unchanged through 2.19.2): no `isInvalidCredentials`
/// (a wrong sign-in password is `isInvalidPassword`).
///
/// A wrong code on an MFA or strong-auth registration state sets both `isInvalidChallenge` and
/// `isInvalidCode`. When the error leaves the state usable (a wrong code or password, a blocked
/// method), call the same state again.
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthFlowError: MSALNativeAuthError, @unchecked Sendable {
    /// The delegate does not conform to the protocol of the state the flow reached; the
    /// description names the protocol.
    public var isNotImplemented: Bool { type == .notImplemented }
    /// No account has this username.
    public var isUserNotFound: Bool { type == .userNotFound }
    /// The code was wrong or empty (also set with `isInvalidChallenge`).
    public var isInvalidCode: Bool { type == .invalidCode || type == .invalidChallenge }
    /// The password was wrong, empty or refused by the password policy.
    public var isInvalidPassword: Bool { type == .invalidPassword }
    /// The username is empty or malformed.
    public var isInvalidUsername: Bool { type == .invalidUsername }
    /// The service refused attribute values; their names are in `errorDescription`.
    public var isInvalidAttributes: Bool { type == .invalidAttributes }
    /// With `isInvalidAttributes`, the ids of the attributes the service refused, in its order
    /// (also named at the end of `errorDescription`, as MSAL does); empty otherwise. Not in MSAL:
    /// a Linux addition, so that an app can point at the fields without reading the description.
    public let invalidAttributeNames: [String]
    /// The account has no password to reset.
    public var isUserDoesNotHavePassword: Bool { type == .userDoesNotHavePassword }
    /// An account with this username exists.
    public var isUserAlreadyExists: Bool { type == .userAlreadyExists }
    /// The second-factor (or registration) code was wrong or empty.
    public var isInvalidChallenge: Bool { type == .invalidChallenge }
    /// The service blocked the method (for example a phone number it distrusts); pick another.
    public var isAuthMethodBlocked: Bool { type == .authMethodBlocked }
    /// The service blocked the contact given for registration.
    public var isVerificationContactBlocked: Bool { type == .verificationContactBlocked }
    /// The contact given for registration is malformed or missing.
    public var isInvalidInput: Bool { type == .invalidInput }
    /// Neither of the above: `errorDescription`, `errorCodes` and `serverError` say more. Also true
    /// beside a specific flag that MSAL's V2 mapping would not set for the same answer (an invalid
    /// username at the start, a password-policy refusal at sign-up, …: docs/compatibility.md#native-auth-v2),
    /// so code that checks `isGeneralError`, as written for MSAL, takes the same branch.
    public var isGeneralError: Bool { type == .generalError || generalInMSAL }
    private let generalInMSAL: Bool

    package override init(type: ErrorType, _ details: NativeAuthErrorDetails) {
        generalInMSAL = type != .generalError && details.generalInMSAL
        invalidAttributeNames = type == .invalidAttributes ? details.invalidAttributeNames : []
        super.init(type: type, details)
    }

    /// The error for a delegate that lacks `protocolName`, the protocol of the state reached.
    static func notImplemented(_ protocolName: String, correlationId: UUID) -> MSALNativeAuthFlowError {
        let message = "The delegate does not conform to \(protocolName), the protocol of the state the flow reached"
        return MSALNativeAuthFlowError(type: .notImplemented, NativeAuthErrorDetails(message: message, correlationId: correlationId))
    }
}
