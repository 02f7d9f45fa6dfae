import Foundation
import MSAL

/// Native auth V2 (experimental) at the C boundary: the three starts and the steps on a V2 state,
/// over the SDK's `async` V2 API (Sources/MSAL/V2/Public). Every V2 answer becomes the one `Outcome`
/// and `FlowState` shape V1 uses: `Outcome(v2:)` below is the only place a `MSALNativeAuthFlowResult`
/// is opened.
extension Operations {
    typealias V2Step = @Sendable () async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult

    /// The work of one V2 call: its result, or its error with the flow's scenario.
    static func v2(_ scenario: MSALNativeAuthFlowScenario, _ step: @escaping V2Step) -> Work {
        {
            do throws(MSALNativeAuthFlowError) { return Outcome(v2: try await step()) } catch {
                return Outcome(v2: error, scenario: scenario)
            }
        }
    }

    // MARK: Starts

    private struct V2Options {
        let username: String
        let scopes: [String]?
        let claims: MSALClaimsRequest?
        let correlationId: UUID?
        let attributes: [String: Any]?
    }

    /// The username and the options JSON of a V2 start; `attributes` only where `allowAttributes`.
    private static func v2Options(_ username: UnsafePointer<CChar>?, _ options: UnsafePointer<CChar>?, allowAttributes: Bool)
        throws(InterfaceError) -> V2Options
    {
        let name = try CStrings.required(username, "username")
        var allowed: Set<String> = ["scopes", "claims", "correlation_id"]
        if allowAttributes { allowed.insert("attributes") }
        let parsed = try RequestOptions(options, allowed: allowed)
        return V2Options(
            username: name, scopes: try parsed.scopes(), claims: try parsed.claims(), correlationId: try parsed.correlationId(),
            attributes: try parsed.jsonObject("attributes"))
    }

    static func signInV2(_ app: OpaquePointer?, _ username: UnsafePointer<CChar>?, _ options: UnsafePointer<CChar>?)
        throws(InterfaceError) -> Work
    {
        let application = try Self.app(app).application
        let given = try v2Options(username, options, allowAttributes: false)
        let parameters = MSALNativeAuthSignInParametersV2(username: given.username)
        parameters.scopes = given.scopes
        parameters.claimsRequest = given.claims
        parameters.correlationId = given.correlationId
        let request = UncheckedParameters(value: parameters)
        return v2(.signIn) { () async throws(MSALNativeAuthFlowError) in try await application.signInV2(parameters: request.value) }
    }

    static func signUpV2(_ app: OpaquePointer?, _ username: UnsafePointer<CChar>?, _ options: UnsafePointer<CChar>?)
        throws(InterfaceError) -> Work
    {
        let application = try Self.app(app).application
        let given = try v2Options(username, options, allowAttributes: true)
        let parameters = MSALNativeAuthSignUpParametersV2(username: given.username)
        parameters.scopes = given.scopes
        parameters.claimsRequest = given.claims
        parameters.correlationId = given.correlationId
        parameters.attributes = given.attributes
        let request = UncheckedParameters(value: parameters)
        return v2(.signUp) { () async throws(MSALNativeAuthFlowError) in try await application.signUpV2(parameters: request.value) }
    }

    static func resetPasswordV2(_ app: OpaquePointer?, _ username: UnsafePointer<CChar>?, _ options: UnsafePointer<CChar>?)
        throws(InterfaceError) -> Work
    {
        let application = try Self.app(app).application
        let given = try v2Options(username, options, allowAttributes: false)
        let parameters = MSALNativeAuthResetPasswordParametersV2(username: given.username)
        parameters.scopes = given.scopes
        parameters.claimsRequest = given.claims
        parameters.correlationId = given.correlationId
        let request = UncheckedParameters(value: parameters)
        return v2(.passwordReset) { () async throws(MSALNativeAuthFlowError) in
            try await application.resetPasswordV2(parameters: request.value)
        }
    }

    // MARK: Steps on a V2 state (the V1 operations hand their V2 kinds here)

    /// `msal_na_state_submit_code` on a V2 code state; nil for another kind.
    static func v2SubmitCode(_ state: FlowState, _ code: String) -> Work? {
        guard case .v2Code(let v2) = state else { return nil }
        return Self.v2(v2.scenario) { () async throws(MSALNativeAuthFlowError) in try await v2.submitCode(code) }
    }

    static func v2ResendCode(_ state: FlowState) -> Work? {
        guard case .v2Code(let v2) = state else { return nil }
        return Self.v2(v2.scenario) { () async throws(MSALNativeAuthFlowError) in try await v2.resendCode() }
    }

    static func v2SubmitPassword(_ state: FlowState, _ password: String) -> Work? {
        guard case .v2Password(let v2) = state else { return nil }
        return Self.v2(v2.scenario) { () async throws(MSALNativeAuthFlowError) in try await v2.submitPassword(password) }
    }

    static func v2SubmitAttributes(_ state: FlowState, _ attributes: [String: Any]) -> Work? {
        guard case .v2Attributes(let v2) = state else { return nil }
        let values = UncheckedParameters(value: attributes)
        return Self.v2(v2.scenario) { () async throws(MSALNativeAuthFlowError) in try await v2.submitAttributes(values.value) }
    }

    static func v2SignIn(_ state: FlowState, _ scopes: [String]?) -> Work? {
        switch state {
        case .v2SignInAfterSignUp(let v2):
            return Self.v2(v2.scenario) { () async throws(MSALNativeAuthFlowError) in
                let parameters = MSALNativeAuthSignInAfterSignUpParameters()
                parameters.scopes = scopes
                return try await v2.signIn(parameters: parameters)
            }
        case .v2SignInAfterReset(let v2):
            return Self.v2(v2.scenario) { () async throws(MSALNativeAuthFlowError) in
                let parameters = MSALNativeAuthSignInAfterResetPasswordParameters()
                parameters.scopes = scopes
                return try await v2.signIn(parameters: parameters)
            }
        default:
            return nil
        }
    }

    // MARK: Operations only V2 has

    static func submitNewPassword(_ handle: OpaquePointer?, _ password: UnsafePointer<CChar>?) throws(InterfaceError) -> Work {
        let state = try Self.state(handle)
        let password = try CStrings.required(password, "password")
        guard case .v2NewPassword(let v2) = state else { throw wrongState("msal_na_state_submit_new_password", state) }
        return Self.v2(v2.scenario) { () async throws(MSALNativeAuthFlowError) in try await v2.submitNewPassword(password) }
    }

    /// The method at `index` of a selection or registration state, with `contact` (NULL: none).
    static func selectAuthMethod(_ handle: OpaquePointer?, _ index: Int, _ contact: UnsafePointer<CChar>?) throws(InterfaceError)
        -> Work
    {
        let state = try Self.state(handle)
        let contact = try CStrings.read(contact, "verification_contact", optional: true)
        let methods = state.methods
        let select: (MSALAuthMethod) -> V2Step
        let scenario: MSALNativeAuthFlowScenario
        switch state {
        case .v2Selection(let v2):
            scenario = v2.scenario
            select = { method in
                { () async throws(MSALNativeAuthFlowError) in try await v2.selectAuthMethod(method, verificationContact: contact) }
            }
        case .v2Registration(let v2):
            scenario = v2.scenario
            select = { method in
                { () async throws(MSALNativeAuthFlowError) in try await v2.selectAuthMethod(method, verificationContact: contact) }
            }
        default:
            throw wrongState("msal_na_state_select_auth_method", state)
        }
        guard methods.indices.contains(index) else {
            throw InterfaceError(.invalidArgument, "'index' is out of range (the state has \(methods.count) auth methods)")
        }
        return Self.v2(scenario, select(methods[index]))
    }

    static func submitChallenge(_ handle: OpaquePointer?, _ code: UnsafePointer<CChar>?) throws(InterfaceError) -> Work {
        let state = try Self.state(handle)
        let code = try CStrings.required(code, "code")
        switch state {
        case .v2MFAVerification(let v2):
            return Self.v2(v2.scenario) { () async throws(MSALNativeAuthFlowError) in try await v2.submitChallenge(code) }
        case .v2RegistrationVerification(let v2):
            return Self.v2(v2.scenario) { () async throws(MSALNativeAuthFlowError) in try await v2.submitChallenge(code) }
        default:
            throw wrongState("msal_na_state_submit_challenge", state)
        }
    }

    static func resendChallenge(_ handle: OpaquePointer?) throws(InterfaceError) -> Work {
        let state = try Self.state(handle)
        switch state {
        case .v2MFAVerification(let v2):
            return Self.v2(v2.scenario) { () async throws(MSALNativeAuthFlowError) in try await v2.resendChallenge() }
        case .v2RegistrationVerification(let v2):
            return Self.v2(v2.scenario) { () async throws(MSALNativeAuthFlowError) in try await v2.resendChallenge() }
        default:
            throw wrongState("msal_na_state_resend_challenge", state)
        }
    }

    /// Inline recovery from a V2 sign-in's password step (a general error when the service offered none).
    static func recoverPassword(_ handle: OpaquePointer?) throws(InterfaceError) -> Work {
        let state = try Self.state(handle)
        guard case .v2Password(let v2) = state else { throw wrongState("msal_na_state_recover_password", state) }
        return Self.v2(v2.scenario) { () async throws(MSALNativeAuthFlowError) in try await v2.recoverPassword() }
    }
}

extension Outcome {
    /// A V2 result as the outcome and state V1 results use; the V2-only steps get outcomes 11 to 15.
    convenience init(v2 result: MSALNativeAuthFlowResult) {
        let scenario = result.scenario.rawValue
        switch result {
        case .completed(let account, _):
            self.init(kind: .signedIn, account: account, scenario: scenario)
        case .codeRequired(let state):
            self.init(
                kind: .codeRequired, state: .v2Code(state), sentTo: state.sentTo, channel: state.channel.value,
                codeLength: state.codeLength,
                scenario: scenario)
        case .passwordRequired(let state):
            self.init(kind: .passwordRequired, state: .v2Password(state), scenario: scenario)
        case .newPasswordRequired(let state):
            self.init(kind: .newPasswordRequired, state: .v2NewPassword(state), scenario: scenario)
        case .attributesRequired(let state):
            self.init(
                kind: .attributesRequired, state: .v2Attributes(state), attributes: Self.attributes(state.attributes), scenario: scenario)
        case .authMethodSelectionRequired(let state):
            self.init(kind: .authMethodSelectionRequired, state: .v2Selection(state), authMethods: state.authMethods, scenario: scenario)
        case .mfaVerificationRequired(let state):
            self.init(
                kind: .mfaVerificationRequired, state: .v2MFAVerification(state), sentTo: state.sentTo, channel: state.channel.value,
                codeLength: state.codeLength, scenario: scenario)
        case .strongAuthRegistrationRequired(let state):
            self.init(
                kind: .strongAuthRegistrationRequired, state: .v2Registration(state), authMethods: state.authMethods, scenario: scenario)
        case .strongAuthVerificationRequired(let state):
            self.init(
                kind: .strongAuthVerificationRequired, state: .v2RegistrationVerification(state), sentTo: state.sentTo,
                channel: state.channel.value, codeLength: state.codeLength, scenario: scenario)
        case .signInAfterSignUp(let state):
            self.init(kind: .signUpCompleted, state: .v2SignInAfterSignUp(state), scenario: scenario)
        case .signInAfterResetPassword(let state):
            self.init(kind: .resetPasswordCompleted, state: .v2SignInAfterReset(state), scenario: scenario)
        }
    }

    /// A V2 error; with `MSAL_NA_ERR_INVALID_ATTRIBUTES` the refused names are the result's attributes.
    convenience init(v2 error: MSALNativeAuthFlowError, scenario: MSALNativeAuthFlowScenario) {
        let names = error.invalidAttributeNames
        self.init(
            kind: .error, code: ErrorCode.of(error), message: error.errorDescription ?? "\(error)",
            correlationId: error.correlationId.uuidString.lowercased(), serverError: error.serverError,
            serverSuberror: error.serverSuberror, errorCodes: error.errorCodes, attributes: names.map { Attribute(name: $0) },
            scenario: scenario.rawValue)
    }

    static func attributes(_ required: [MSALNativeAuthRequiredAttribute]) -> [Attribute] {
        required.map { Attribute(name: $0.name, type: $0.type, required: $0.required, regex: $0.regex) }
    }
}

extension FlowState {
    /// The SDK's V2 state, for what every V2 state has (its scenario); nil for a V1 state.
    var v2State: MSALNativeAuthState? {
        switch self {
        case .v2Code(let state): state
        case .v2Password(let state): state
        case .v2NewPassword(let state): state
        case .v2Attributes(let state): state
        case .v2Selection(let state): state
        case .v2MFAVerification(let state): state
        case .v2Registration(let state): state
        case .v2RegistrationVerification(let state): state
        case .v2SignInAfterSignUp(let state): state
        case .v2SignInAfterReset(let state): state
        default: nil
        }
    }

    /// Where a V2 code state's code went (a restored state too); nil for other kinds.
    var sentCode: (sentTo: String, channel: String, codeLength: Int)? {
        switch self {
        case .v2Code(let state): (state.sentTo, state.channel.value, state.codeLength)
        case .v2MFAVerification(let state): (state.sentTo, state.channel.value, state.codeLength)
        case .v2RegistrationVerification(let state): (state.sentTo, state.channel.value, state.codeLength)
        default: nil
        }
    }

    /// The attributes a V2 attributes state asks for; empty for other kinds.
    var requiredAttributes: [Outcome.Attribute] {
        guard case .v2Attributes(let state) = self else { return [] }
        return Outcome.attributes(state.attributes)
    }

    /// `msal_na_state_selection_purpose`: why a V2 selection state asks (0 for other kinds).
    var selectionPurpose: Int32 {
        switch self {
        case .v2Selection(let state):
            switch state.purpose {
            case .firstFactor: 1
            case .mfa: 2
            case .recovery: 3
            case .existingAccount: 4
            }
        case .v2Registration: 5
        default: 0
        }
    }

    /// A V2 state from a restored V2 document (nil for `completed`, which no document holds).
    init?(v2 result: MSALNativeAuthFlowResult) {
        guard let state = Outcome(v2: result).takeState() else { return nil }
        self = state
    }
}
