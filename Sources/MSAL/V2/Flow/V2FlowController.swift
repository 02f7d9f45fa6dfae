import Foundation

/// What every step of one V2 flow shares: the controller that sends its requests, the scenario,
/// and what the sign-in asks for.
struct V2Flow: Sendable {
    let controller: V2FlowController
    let scenario: MSALNativeAuthFlowScenario
    let username: String
    /// App scopes with the OIDC defaults added.
    let scopes: [String]
    let claims: String?
    /// Sign-up: the app's attributes (and a password given up front).
    var attributes: [String: V2AttributeValue] = [:]

    /// A fresh machine for one step of this flow.
    func machine() -> V2FlowMachine {
        V2FlowMachine(
            username: username, scopes: scopes, claims: claims, scenario: scenario, attributes: attributes,
            logger: controller.client.environment.logger)
    }
}

/// Runs the three native auth V2 journeys: sends what a `V2FlowMachine` asks for and makes the
/// public states from its outcome. The rules are the machine's; the public states start their steps
/// through `V2StateCore.step`, the entries through `start`.
package struct V2FlowController: Sendable {
    package let client: NativeAuthClient

    package init(client: NativeAuthClient) {
        self.client = client
    }

    struct StartRequest: Sendable {
        var username: String
        /// A password given up front with MSAL's V1 parameters (docs/compatibility.md#native-auth-v2).
        var password: String?
        var scopes: [String]
        var claims: String?
        var correlationId: UUID
    }

    func start(_ request: StartRequest) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        client.environment.logger.info("V2 sign-in started for \(pii: request.username) correlation \(request.correlationId.uuidString)")
        let flow = V2Flow(controller: self, scenario: .signIn, username: request.username, scopes: request.scopes, claims: request.claims)
        var machine = flow.machine()
        let first = machine.start(password: request.password, correlationId: request.correlationId)
        return try await finish(first, &machine, flow)
    }

    /// Starts a sign-up or reset `flow`.
    func start(_ flow: V2Flow, correlationId: UUID) async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult {
        client.environment.logger.info("V2 \(flow.scenario) started for \(pii: flow.username) correlation \(correlationId.uuidString)")
        var machine = flow.machine()
        let first = machine.start(password: nil, correlationId: correlationId)
        return try await finish(first, &machine, flow)
    }

    /// Runs `first` to its end and makes the public result of its outcome.
    func finish(_ first: V2FlowMachine.Action, _ machine: inout V2FlowMachine, _ flow: V2Flow) async throws(MSALNativeAuthFlowError)
        -> MSALNativeAuthFlowResult
    {
        let outcome = try await first.run { await perform($0, &machine) }.get(MSALNativeAuthFlowError.init)
        let core = { (next: Continuation) in V2StateCore(flow: flow, continuation: next) }
        switch outcome {
        case .completed(let account):
            return .completed(account, scenario: flow.scenario)
        case .codeRequired(let verification, let next):
            return .codeRequired(MSALNativeAuthCodeRequiredState(core(next), V2Challenge(verification, .firstFactor)))
        case .passwordRequired(let verification, let next):
            return .passwordRequired(MSALNativeAuthPasswordRequiredState(core(next), verification))
        case .selectionRequired(let purpose, let methods, let next):
            return .authMethodSelectionRequired(MSALNativeAuthAuthMethodSelectionRequiredState(core(next), V2Selection(methods, purpose)))
        case .mfaVerificationRequired(let verification, let next):
            return .mfaVerificationRequired(MSALNativeAuthMFAVerificationRequiredState(core(next), V2Challenge(verification, .mfa)))
        case .registrationRequired(let methods, let next):
            return .strongAuthRegistrationRequired(
                MSALNativeAuthStrongAuthRegistrationRequiredState(core(next), V2Selection(methods, .registration)))
        case .registrationVerificationRequired(let verification, let next):
            return .strongAuthVerificationRequired(
                MSALNativeAuthStrongAuthVerificationRequiredState(core(next), V2Challenge(verification, .registration)))
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
        }
    }

    /// Sends `call` and feeds the reply to `machine`.
    func perform(_ call: V2FlowMachine.Call, _ machine: inout V2FlowMachine) async -> V2FlowMachine.Action {
        switch call {
        case .enter(let correlationId):
            let (reply, id) = await client.v2Enter(scopes: machine.scopes, claims: machine.claims, correlationId: correlationId)
            return machine.entered(reply, correlationId: id)
        case .interact(let url, let body, let continuation):
            let (reply, id) = await client.v2Interact(url, body, on: continuation)
            return machine.interacted(reply, correlationId: id)
        case .resume(let link, let continuation):
            let (reply, id) = await client.v2Resume(link, on: continuation)
            return machine.resumed(reply, correlationId: id)
        case .redeem(let code, let correlationId):
            let grant = TokenGrant(
                kind: .authorizationCode(code: code), continuationToken: "", scopes: machine.scopes, claims: machine.claims)
            let (result, id) = await client.redeem(grant, correlationId: correlationId)
            return machine.redeemed(result, correlationId: id)
        case .poll(let link, let continuation, let delay):
            if delay > 0 {
                do { try await client.environment.clock.sleep(seconds: delay) } catch {
                    return machine.pollCancelled(correlationId: continuation.correlationId)
                }
            }
            let (reply, id) = await client.v2Interact(link, .tokenOnly, on: continuation)
            return machine.interacted(reply, correlationId: id)
        }
    }
}
