/// The native-auth endpoints (docs/protocol.md#endpoint-list) with the server-telemetry ids the SDK reports for each
/// (docs/protocol.md#request-headers).
package enum NativeAuthEndpoint: String, Sendable, CaseIterable {
    case signInInitiate = "/oauth2/v2.0/initiate"
    case signInChallenge = "/oauth2/v2.0/challenge"
    case signInIntrospect = "/oauth2/v2.0/introspect"
    case token = "/oauth2/v2.0/token"
    case signUpStart = "/signup/v1.0/start"
    case signUpChallenge = "/signup/v1.0/challenge"
    case signUpContinue = "/signup/v1.0/continue"
    case resetPasswordStart = "/resetpassword/v1.0/start"
    case resetPasswordChallenge = "/resetpassword/v1.0/challenge"
    case resetPasswordContinue = "/resetpassword/v1.0/continue"
    case resetPasswordSubmit = "/resetpassword/v1.0/submit"
    case resetPasswordPollCompletion = "/resetpassword/v1.0/poll_completion"
    case registerIntrospect = "/register/v1.0/introspect"
    case registerChallenge = "/register/v1.0/challenge"
    case registerContinue = "/register/v1.0/continue"
    /// Native auth V2's entry and resume (docs/decisions.md#native-auth-v2); its other requests
    /// go to the links the server returns.
    case authorizeChallenge = "/oauth2/v2.0/authorize-challenge"

    /// The telemetry api id of every native auth V2 request but the token request (MSAL's V2
    /// sign-in start id, docs/decisions.md#native-auth-v2).
    package static let v2TelemetryApi = 76008

    /// The path appended to the authority.
    package var path: String { rawValue }

    /// `x-client-current-telemetry` for a request to this endpoint: `4|{apiId},{operation}|`.
    package var currentTelemetry: String {
        let (api, operation): (Int, Int)
        switch self {
        case .signInInitiate: (api, operation) = (74002, 2)
        case .signInChallenge: (api, operation) = (74002, 3)
        case .signInIntrospect: (api, operation) = (74002, 4)
        case .token: (api, operation) = (75002, 0)
        case .signUpStart: (api, operation) = (75010, 3)
        case .signUpChallenge: (api, operation) = (75010, 4)
        case .signUpContinue: (api, operation) = (75010, 5)
        case .resetPasswordStart: (api, operation) = (75009, 0)
        case .resetPasswordChallenge: (api, operation) = (75009, 1)
        case .resetPasswordContinue: (api, operation) = (75009, 2)
        case .resetPasswordSubmit: (api, operation) = (75009, 3)
        case .resetPasswordPollCompletion: (api, operation) = (75009, 4)
        case .registerIntrospect: (api, operation) = (75029, 0)
        case .registerChallenge: (api, operation) = (75029, 1)
        case .registerContinue: (api, operation) = (75029, 2)
        case .authorizeChallenge: (api, operation) = (NativeAuthEndpoint.v2TelemetryApi, 0)
        }
        return "4|\(api),\(operation)|"
    }
}
