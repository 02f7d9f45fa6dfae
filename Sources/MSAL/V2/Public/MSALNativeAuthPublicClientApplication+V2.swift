import Foundation

extension MSALNativeAuthPublicClientApplication {
    /// Starts a native auth V2 sign-in: the service decides every step (methods, second factor,
    /// risk checks, registration). Returns where the flow stands; continue on the state it carries.
    ///
    /// ```swift
    /// // given: app: MSALNativeAuthPublicClientApplication
    /// switch try await app.signInV2(parameters: MSALNativeAuthSignInParametersV2(username: "ada@contoso.com")) {
    /// case .codeRequired(let state): print("Enter the code sent to", state.sentTo)
    /// case .passwordRequired: print("Enter your password")
    /// case .completed(let result, _): print("Signed in as", result.account.username ?? "")
    /// default: print("Another step")
    /// }
    /// ```
    ///
    /// V2 ignores `challengeTypes` and `capabilities`; the transport, interceptor, `sliceConfig.dc`,
    /// timeouts and the token cache are V1's (docs/usage.md#native-auth-v2-experimental).
    ///
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func signInV2(parameters: MSALNativeAuthSignInParametersV2) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        try await v2SignIn.start(v2Request(parameters.username, nil, parameters.scopes, parameters.claimsRequest, parameters.correlationId))
    }

    /// `signInV2` with MSAL's V1 parameters, as code written for MSAL 2.16–2.17 calls it. A password
    /// given here is used only when the service asks for a password as the one first factor; after
    /// a method choice the password is asked for through `MSALNativeAuthPasswordRequiredState`.
    ///
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func signInV2(parameters: MSALNativeAuthSignInParameters) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        try await v2SignIn.start(
            v2Request(parameters.username, parameters.password, parameters.scopes, parameters.claimsRequest, parameters.correlationId))
    }

    /// Starts a native auth V2 sign-in and reports once to `delegate`, on the main actor.
    ///
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func signInV2(parameters: MSALNativeAuthSignInParametersV2, delegate: any MSALNativeAuthFlowDelegate) {
        let request = v2Request(parameters.username, nil, parameters.scopes, parameters.claimsRequest, parameters.correlationId)
        let controller = v2SignIn
        V2Delivery.run(delegate, scenario: .signIn) { () async throws(MSALNativeAuthFlowError) in try await controller.start(request) }
    }

    /// `signInV2(parameters:delegate:)` with MSAL's V1 parameters (see `signInV2(parameters:)`).
    ///
    /// - Warning: This API is experimental. It may change without notice; do not use it in production.
    public func signInV2(parameters: MSALNativeAuthSignInParameters, delegate: any MSALNativeAuthFlowDelegate) {
        let request = v2Request(
            parameters.username, parameters.password, parameters.scopes, parameters.claimsRequest, parameters.correlationId)
        let controller = v2SignIn
        V2Delivery.run(delegate, scenario: .signIn) { () async throws(MSALNativeAuthFlowError) in try await controller.start(request) }
    }

    private var v2SignIn: V2FlowController { V2FlowController(client: signInController.client) }

    /// Copies the parameters (mutable classes) into a value at call time.
    private func v2Request(_ username: String, _ password: String?, _ scopes: [String]?, _ claims: MSALClaimsRequest?, _ id: UUID?)
        -> V2FlowController.StartRequest
    {
        V2FlowController.StartRequest(
            username: username, password: password, scopes: Scopes.withDefaults(scopes), claims: claims?.jsonString(),
            correlationId: id ?? environment.uuid())
    }
}
