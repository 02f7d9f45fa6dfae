/// Which flow a V2 callback or result comes from. Mirrors MSAL's `MSALNativeAuthFlowScenario`.
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public enum MSALNativeAuthFlowScenario: Int, Sendable, CustomStringConvertible {
    /// Not known; the SDK does not report it for a flow it runs.
    case unknown
    /// A sign-up (`signUpV2`).
    case signUp
    /// A sign-in (`signInV2`).
    case signIn
    /// A password reset (`resetPasswordV2`).
    case passwordReset

    /// The case's name, for logs.
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .signUp: "signUp"
        case .signIn: "signIn"
        case .passwordReset: "passwordReset"
        }
    }
}
