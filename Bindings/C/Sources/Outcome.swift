import Foundation
import MSAL

/// What one operation produced, behind a `msal_na_result` handle: an error, or a flow outcome with
/// its next state, account, code details, auth methods, attributes or access token.
final class Outcome: Sendable {
    /// `msal_na_outcome` of the header.
    enum Kind: Int32, Sendable {
        case error = 0
        case signedIn = 1
        case codeRequired = 2
        case passwordRequired = 3
        case attributesRequired = 4
        case attributesInvalid = 5
        case signUpCompleted = 6
        case resetPasswordCompleted = 7
        case mfaRequired = 8
        case registrationRequired = 9
        case accessToken = 10
        // Native auth V2 (experimental; Operations+V2.swift). V2 also gives 1-4, 6 and 7.
        case authMethodSelectionRequired = 11
        case newPasswordRequired = 12
        case mfaVerificationRequired = 13
        case strongAuthRegistrationRequired = 14
        case strongAuthVerificationRequired = 15
    }

    /// An attribute the sign-up asks for, or (name only) one the server refused.
    struct Attribute: Sendable {
        var name: String
        var type: String = ""
        var required = false
        var regex: String?
    }

    let kind: Kind
    let code: ErrorCode
    let message: String?
    let correlationId: String?
    let serverError: String?
    let serverSuberror: String?
    let errorCodes: [Int]
    let sentTo: String?
    let channel: String?
    let codeLength: Int
    let authMethods: [MSALAuthMethod]
    let attributes: [Attribute]
    let accessToken: String?
    let expiresOn: Date?
    let scopes: [String]
    /// Only when the call asked for it (`return_refresh_token`).
    let refreshToken: String?
    /// With `MSAL_NA_ERR_DECLINED_SCOPES`: the scopes not granted (`scopes` then lists those granted).
    let declinedScopes: [String]
    /// The V2 flow the outcome belongs to (`msal_na_result_scenario`): MSAL's raw value, 0 for V1.
    let scenario: Int
    /// Handed to the caller once each (`msal_na_result_take_state` / `_take_account`).
    private let state: Guarded<FlowState?>
    private let account: Guarded<MSALNativeAuthUserAccountResult?>

    init(
        kind: Kind, code: ErrorCode = .ok, message: String? = nil, correlationId: String? = nil, serverError: String? = nil,
        serverSuberror: String? = nil, errorCodes: [Int] = [], state: FlowState? = nil, account: MSALNativeAuthUserAccountResult? = nil,
        sentTo: String? = nil, channel: String? = nil, codeLength: Int = 0, authMethods: [MSALAuthMethod] = [],
        attributes: [Attribute] = [],
        accessToken: String? = nil, expiresOn: Date? = nil, scopes: [String] = [], refreshToken: String? = nil,
        declinedScopes: [String] = [], scenario: Int = 0
    ) {
        self.kind = kind
        self.code = code
        self.message = message
        self.correlationId = correlationId
        self.serverError = serverError
        self.serverSuberror = serverSuberror
        self.errorCodes = errorCodes
        self.state = Guarded(state)
        self.account = Guarded(account)
        self.sentTo = sentTo
        self.channel = channel
        self.codeLength = codeLength
        self.authMethods = authMethods
        self.attributes = attributes
        self.accessToken = accessToken
        self.expiresOn = expiresOn
        self.scopes = scopes
        self.refreshToken = refreshToken
        self.declinedScopes = declinedScopes
        self.scenario = scenario
    }

    /// An error the SDK reported.
    convenience init(_ error: MSALNativeAuthError, passwordMeansCredentials: Bool = false) {
        self.init(
            kind: .error, code: ErrorCode.of(error, passwordMeansCredentials: passwordMeansCredentials),
            message: error.errorDescription ?? "\(error)", correlationId: error.correlationId.uuidString.lowercased(),
            serverError: error.serverError, serverSuberror: error.serverSuberror, errorCodes: error.errorCodes,
            scopes: (error as? RetrieveAccessTokenError)?.grantedScopes ?? [],
            declinedScopes: (error as? RetrieveAccessTokenError)?.declinedScopes ?? [])
    }

    /// An error of the interface itself (bad argument, handle, state).
    convenience init(_ error: InterfaceError) {
        self.init(kind: .error, code: error.code, message: error.message)
    }

    func takeState() -> FlowState? { state.withLock { $0.take() } }
    func takeAccount() -> MSALNativeAuthUserAccountResult? { account.withLock { $0.take() } }
    var hasState: Bool { state.withLock { $0 != nil } }
    var hasAccount: Bool { account.withLock { $0 != nil } }

    // MARK: From the SDK's results

    static func codeRequired(
        _ state: FlowState, sentTo: String, channel: MSALNativeAuthChannelType, codeLength: Int, methods: [MSALAuthMethod] = []
    ) -> Outcome {
        Outcome(kind: .codeRequired, state: state, sentTo: sentTo, channel: channel.value, codeLength: codeLength, authMethods: methods)
    }

    /// A code was sent: `sent`'s state wrapped as `state` makes it.
    static func codeRequired<State>(_ sent: CodeRequiredResult<State>, _ state: (State) -> FlowState, methods: [MSALAuthMethod] = [])
        -> Outcome
    {
        codeRequired(
            state(sent.newState), sentTo: sent.sentTo, channel: sent.channelTargetType, codeLength: sent.codeLength, methods: methods)
    }

    static func step(_ result: SignInStepResult) -> Outcome {
        switch result {
        case .completed(let account):
            Outcome(kind: .signedIn, account: account)
        case .awaitingMFA(let methods, let state):
            Outcome(kind: .mfaRequired, state: .awaitingMFA(state, methods: methods), authMethods: methods)
        case .strongAuthMethodRegistration(let methods, let state):
            Outcome(kind: .registrationRequired, state: .registerStrongAuth(state, methods: methods), authMethods: methods)
        }
    }

    static func attributesRequired(_ attributes: [MSALNativeAuthRequiredAttribute], _ state: SignUpAttributesRequiredState) -> Outcome {
        Outcome(
            kind: .attributesRequired, state: .signUpAttributes(state),
            attributes: attributes.map { Attribute(name: $0.name, type: $0.type, required: $0.required, regex: $0.regex) })
    }

    static func attributesInvalid(_ names: [String], _ state: SignUpAttributesRequiredState?) -> Outcome {
        Outcome(kind: .attributesInvalid, state: state.map { .signUpAttributes($0) }, attributes: names.map { Attribute(name: $0) })
    }

    /// Everything as one JSON object (`msal_na_result_json`), for bindings that prefer one call.
    var json: String {
        var object: [String: Any] = ["outcome": Int(kind.rawValue), "error": Int(code.rawValue), "error_name": code.name]
        object["message"] = message
        object["correlation_id"] = correlationId
        object["server_error"] = serverError
        object["server_suberror"] = serverSuberror
        if !errorCodes.isEmpty { object["error_codes"] = errorCodes }
        object["sent_to"] = sentTo
        object["channel"] = channel
        if codeLength > 0 { object["code_length"] = codeLength }
        if !authMethods.isEmpty {
            object["auth_methods"] = authMethods.map { method -> [String: Any] in
                var entry: [String: Any] = [
                    "id": method.id, "challenge_type": method.challengeType, "channel": method.channelTargetType.value,
                ]
                entry["login_hint"] = method.loginHint
                return entry
            }
        }
        if !attributes.isEmpty {
            object["attributes"] = attributes.map { attribute -> [String: Any] in
                var entry: [String: Any] = ["name": attribute.name, "type": attribute.type, "required": attribute.required]
                entry["regex"] = attribute.regex
                return entry
            }
        }
        object["access_token"] = accessToken
        if let expiresOn { object["expires_on"] = Int(expiresOn.timeIntervalSince1970) }
        if !scopes.isEmpty { object["scopes"] = scopes }
        object["refresh_token"] = refreshToken
        if !declinedScopes.isEmpty { object["declined_scopes"] = declinedScopes }
        if scenario != 0 { object["scenario"] = scenario }
        object["has_state"] = hasState
        object["has_account"] = hasAccount
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
