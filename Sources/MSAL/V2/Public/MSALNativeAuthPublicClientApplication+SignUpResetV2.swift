import Foundation

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
        let controller = V2FlowController(client: signInController.client)
        let flow = V2Flow(
            controller: controller, scenario: scenario, username: username, scopes: Scopes.withDefaults(scopes),
            claims: claims?.jsonString(), attributes: values)
        let correlationId = id ?? environment.uuid()
        return { () async throws(MSALNativeAuthFlowError) in try await controller.start(flow, correlationId: correlationId) }
    }
}
