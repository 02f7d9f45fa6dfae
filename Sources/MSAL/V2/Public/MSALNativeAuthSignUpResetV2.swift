import Foundation

/// What `signUpV2(parameters:)` needs. Mirrors MSAL's `MSALNativeAuthSignUpParametersV2` of both eras:
/// 2.18.1 and later have no password (the service asks for it through
/// `MSALNativeAuthPasswordRequiredState`); up to 2.18.0 the class inherited the V1 class's `password`,
/// which is kept here, deprecated, so that code of that era compiles.
///
/// `attributes` are offered when the service asks for them; `email` and `password` (any case) are
/// ignored with a warning. Values: strings (text, dates as `YYYY-MM-DD`), booleans, numbers, arrays of strings.
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthSignUpParametersV2 {
    /// The new account's email address.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var username: String
    /// Attribute values the service may ask for, by attribute id.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var attributes: [String: Any]?
    /// Deprecated (MSAL 2.18.1 removed it): the new account's password, submitted when the service
    /// asks for the `password` attribute, as the V1 class's is; an empty one counts as none. Without
    /// it the service's request reaches the app as `MSALNativeAuthPasswordRequiredState`. Not marked
    /// `@available(deprecated)`, so that code of the 2.17 era built with warnings as errors still
    /// compiles (docs/compatibility.md#native-auth-v2).
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var password: String?
    /// The API scopes to ask for; `openid profile offline_access` are always added.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var scopes: [String]?
    /// Extra claims to ask for, sent at the entry.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var claimsRequest: MSALClaimsRequest?
    /// The correlation id for the whole flow; a new one is made when nil.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var correlationId: UUID?

    /// Parameters for signing up `username`; every other member starts empty.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public init(username: String) {
        self.username = username
    }
}

/// What `resetPasswordV2(parameters:)` needs. Mirrors MSAL's `MSALNativeAuthResetPasswordParametersV2`
/// (there a subclass of the V1 class, which is final here: `resetPasswordV2` takes either).
///
/// - Warning: This API is experimental. It may change without notice; do not use it in production.
public final class MSALNativeAuthResetPasswordParametersV2 {
    /// The account's email address.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var username: String
    /// The API scopes to ask for; `openid profile offline_access` are always added.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var scopes: [String]?
    /// Extra claims to ask for, sent at the entry.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var claimsRequest: MSALClaimsRequest?
    /// The correlation id for the whole flow; a new one is made when nil.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var correlationId: UUID?

    /// Parameters for resetting the password of `username`; every other member starts empty.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public init(username: String) {
        self.username = username
    }
}

extension MSALNativeAuthPublicClientApplication {
    /// Starts a native auth V2 sign-up: the service asks for the attributes it needs (the SDK gives
    /// the username as `email` and `parameters.attributes` itself), a code sent to the address and the
    /// password; it ends in `signInAfterSignUp`. An existing account is signed in as at sign-in
    /// discovery and also ends there.
    ///
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func signUpV2(parameters: MSALNativeAuthSignUpParametersV2) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        try await v2Start(
            .signUp, parameters.username, parameters.attributes, parameters.password, parameters.scopes, parameters.claimsRequest,
            parameters.correlationId)
    }

    /// `signUpV2` with MSAL's V1 parameters, as code written for MSAL 2.16–2.17 calls it: a password
    /// given here is submitted when the service asks for it.
    ///
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func signUpV2(parameters: MSALNativeAuthSignUpParameters) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        try await v2Start(.signUp, parameters.username, parameters.attributes, parameters.password, nil, nil, parameters.correlationId)
    }

    /// Starts a native auth V2 sign-up and reports once to `delegate`, on the main actor.
    ///
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func signUpV2(parameters: MSALNativeAuthSignUpParametersV2, delegate: any MSALNativeAuthFlowDelegate) {
        let run = v2Runner(
            .signUp, parameters.username, parameters.attributes, parameters.password, parameters.scopes, parameters.claimsRequest,
            parameters.correlationId)
        V2Delivery.run(delegate, scenario: .signUp, run)
    }

    /// `signUpV2(parameters:delegate:)` with MSAL's V1 parameters (see `signUpV2(parameters:)`).
    ///
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func signUpV2(parameters: MSALNativeAuthSignUpParameters, delegate: any MSALNativeAuthFlowDelegate) {
        let run = v2Runner(.signUp, parameters.username, parameters.attributes, parameters.password, nil, nil, parameters.correlationId)
        V2Delivery.run(delegate, scenario: .signUp, run)
    }

    /// Starts a native auth V2 password reset: a recovery method (one is challenged at once, several
    /// are a selection), its code, the new password, then MFA when the account needs it; it ends in
    /// `signInAfterResetPassword`.
    ///
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func resetPasswordV2(parameters: MSALNativeAuthResetPasswordParametersV2) async throws(MSALNativeAuthFlowError)
        -> MSALNativeAuthFlowResult
    {
        try await v2Start(
            .passwordReset, parameters.username, nil, nil, parameters.scopes, parameters.claimsRequest, parameters.correlationId)
    }

    /// `resetPasswordV2` with MSAL's V1 parameters.
    ///
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func resetPasswordV2(parameters: MSALNativeAuthResetPasswordParameters) async throws(MSALNativeAuthFlowError)
        -> MSALNativeAuthFlowResult
    {
        try await v2Start(.passwordReset, parameters.username, nil, nil, nil, nil, parameters.correlationId)
    }

    /// Starts a native auth V2 password reset and reports once to `delegate`, on the main actor.
    ///
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func resetPasswordV2(parameters: MSALNativeAuthResetPasswordParametersV2, delegate: any MSALNativeAuthFlowDelegate) {
        let run = v2Runner(
            .passwordReset, parameters.username, nil, nil, parameters.scopes, parameters.claimsRequest, parameters.correlationId)
        V2Delivery.run(delegate, scenario: .passwordReset, run)
    }

    /// `resetPasswordV2(parameters:delegate:)` with MSAL's V1 parameters.
    ///
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func resetPasswordV2(parameters: MSALNativeAuthResetPasswordParameters, delegate: any MSALNativeAuthFlowDelegate) {
        let run = v2Runner(.passwordReset, parameters.username, nil, nil, nil, nil, parameters.correlationId)
        V2Delivery.run(delegate, scenario: .passwordReset, run)
    }

    // swiftlint:disable:next function_parameter_count
    private func v2Start(
        _ scenario: MSALNativeAuthFlowScenario, _ username: String, _ attributes: [String: Any]?, _ password: String?,
        _ scopes: [String]?, _ claims: MSALClaimsRequest?, _ id: UUID?
    ) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        try await v2Runner(scenario, username, attributes, password, scopes, claims, id)()
    }

    /// Copies the parameters (mutable classes) into values at call time and returns the flow's start.
    private func v2Runner(
        _ scenario: MSALNativeAuthFlowScenario, _ username: String, _ attributes: [String: Any]?, _ password: String?,
        _ scopes: [String]?, _ claims: MSALClaimsRequest?, _ id: UUID?
    ) -> @Sendable () async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        var values = V2AttributeValue.convert(attributes, logger: environment.logger)
        if let password, !password.isEmpty { values["password"] = .string(password) }
        let controller = V2SignInController(client: signInController.client)
        let flow = V2Flow(
            controller: controller, scenario: scenario, username: username, scopes: Scopes.withDefaults(scopes),
            claims: claims?.jsonString(), attributes: values)
        let correlationId = id ?? environment.uuid()
        return { () async throws(MSALNativeAuthFlowError) in try await controller.start(flow, correlationId: correlationId) }
    }
}

extension V2SignInController {
    /// Starts a sign-up or reset `flow`.
    func start(_ flow: V2Flow, correlationId: UUID) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        client.environment.logger.info("V2 \(flow.scenario) started for \(pii: flow.username) correlation \(correlationId.uuidString)")
        var machine = flow.machine()
        let first = machine.start(password: nil, correlationId: correlationId)
        return try await finish(first, &machine, flow)
    }

    /// The public result of the sign-up and reset outcomes.
    func signUpOrResetResult(_ outcome: V2SignInMachine.Outcome, _ flow: V2Flow) -> MSALNativeAuthFlowResult {
        let core = { (next: Continuation) in V2StateCore(flow: flow, continuation: next) }
        switch outcome {
        case .attributesRequired(let descriptors, let form, let next):
            return .attributesRequired(MSALNativeAuthAttributesRequiredState(core(next), descriptors, form: form))
        case .signUpPasswordRequired(let form, let next):
            return .passwordRequired(MSALNativeAuthPasswordRequiredState(core(next), signUp: form))
        case .newPasswordRequired(let update, let next):
            return .newPasswordRequired(MSALNativeAuthNewPasswordRequiredState(core(next), update: update))
        case .signInAfter(let link, let next) where flow.scenario == .passwordReset:
            return .signInAfterResetPassword(MSALNativeAuthSignInAfterResetPasswordState(core(next), link: link))
        case .signInAfter(let link, let next):
            return .signInAfterSignUp(MSALNativeAuthSignInAfterSignUpState(core(next), link: link))
        default:
            preconditionFailure("signUpOrResetResult got a sign-in outcome")
        }
    }
}

extension MSALNativeAuthPasswordRequiredState {
    /// A sign-up's password state: the password goes to `form` as the `password` attribute.
    convenience init(_ core: V2StateCore, signUp form: V2AttributeForm) {
        let verification = V2Verification(
            methodId: nil, type: "password", hint: nil, codeLength: nil, submit: form.submit, resend: nil, recover: nil)
        self.init(core, verification, attributeForm: form)
    }

    /// Whether the service offered to reset the password from here (inline recovery; not in MSAL).
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public var canRecoverPassword: Bool { attributeForm == nil && verification.recover != nil }

    /// Starts a password reset inside this sign-in (not in MSAL): the recovery methods, a code, the new
    /// password; the sign-in then completes. Without `canRecoverPassword`, a general error.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func recoverPassword() async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        guard canRecoverPassword, let link = verification.recover else {
            let message = "The service offered no password recovery from this state"
            throw MSALNativeAuthFlowError(type: .generalError, NativeAuthErrorDetails(message: message, correlationId: correlationId))
        }
        return try await core.step { $0.recover(link, on: core.continuation) }
    }

    /// Starts a password reset inside this sign-in and reports to `delegate`.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func recoverPassword(delegate: any MSALNativeAuthFlowDelegate) {
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in try await self.recoverPassword() }
    }
}

extension MSALNativeAuthNewPasswordRequiredState {
    /// Submits the new password (sent with PUT; the SDK then polls until the service has applied it).
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func submitNewPassword(_ password: String) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        try await core.step { $0.submitNewPassword(password, verification: update, on: core.continuation) }
    }

    /// Submits the new password and reports to `delegate`.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func submitNewPassword(_ password: String, delegate: any MSALNativeAuthFlowDelegate) {
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in try await self.submitNewPassword(password) }
    }
}

extension MSALNativeAuthAttributesRequiredState {
    /// The state asking for `descriptors`, submitted to `form`.
    convenience init(_ core: V2StateCore, _ descriptors: [V2AttributeDescriptor], form: V2AttributeForm) {
        self.init(core, attributes: descriptors.map(MSALNativeAuthRequiredAttribute.init), form: form)
    }

    /// Submits attribute values by id (with the ones the SDK already knows). Values: strings, booleans,
    /// numbers, arrays of strings; others are dropped with a warning. Nothing (`[:]`) is a submit too:
    /// the service decides whether anything it needs is missing.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func submitAttributes(_ attributes: [String: Any]) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        var values: [String: V2AttributeValue] = [:]
        for (name, value) in attributes {
            guard let converted = V2AttributeValue(value) else {
                core.flow.controller.client.environment.logger.warning("Ignored the sign-up attribute '\(String(name.prefix(60)))'")
                continue
            }
            values[name] = converted
        }
        return try await core.step { $0.submitAttributes(values, form: form, on: core.continuation) }
    }

    /// Submits attribute values and reports to `delegate`.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func submitAttributes(_ attributes: [String: Any], delegate: any MSALNativeAuthFlowDelegate) {
        nonisolated(unsafe) let attributes = attributes
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in try await self.submitAttributes(attributes) }
    }
}

extension V2StateCore {
    /// A sign-in-after state's `signIn`: the resume, then the token request with `scopes` and `claims`.
    func signInAfter(_ link: URL?, scopes: [String]?, claims: MSALClaimsRequest?) async throws(MSALNativeAuthFlowError)
        -> MSALNativeAuthFlowResult
    {
        let own = V2Flow(
            controller: flow.controller, scenario: flow.scenario, username: flow.username, scopes: Scopes.withDefaults(scopes),
            claims: claims?.jsonString())
        var machine = own.machine()
        let first = machine.signInAfter(link, on: continuation)
        return try await own.controller.finish(first, &machine, own)
    }
}

extension MSALNativeAuthSignInAfterSignUpState {
    /// Signs the new user in, asking for `parameters`' scopes and claims.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func signIn(parameters: MSALNativeAuthSignInAfterSignUpParameters = MSALNativeAuthSignInAfterSignUpParameters())
        async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult
    {
        try await core.signInAfter(link, scopes: parameters.scopes, claims: parameters.claimsRequest)
    }

    /// Signs the new user in and reports to `delegate`.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func signIn(parameters: MSALNativeAuthSignInAfterSignUpParameters, delegate: any MSALNativeAuthFlowDelegate) {
        let (scopes, claims) = (parameters.scopes, parameters.claimsRequest)
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in
            try await self.core.signInAfter(self.link, scopes: scopes, claims: claims)
        }
    }
}

extension MSALNativeAuthSignInAfterResetPasswordState {
    /// Signs the user in with the new password's flow, asking for `parameters`' scopes and claims.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func signIn(parameters: MSALNativeAuthSignInAfterResetPasswordParameters = MSALNativeAuthSignInAfterResetPasswordParameters())
        async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult
    {
        try await core.signInAfter(link, scopes: parameters.scopes, claims: parameters.claimsRequest)
    }

    /// Signs the user in and reports to `delegate`.
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func signIn(parameters: MSALNativeAuthSignInAfterResetPasswordParameters, delegate: any MSALNativeAuthFlowDelegate) {
        let (scopes, claims) = (parameters.scopes, parameters.claimsRequest)
        report(to: delegate) { () async throws(MSALNativeAuthFlowError) in
            try await self.core.signInAfter(self.link, scopes: scopes, claims: claims)
        }
    }
}
