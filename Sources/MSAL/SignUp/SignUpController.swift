import Foundation

/// Runs the sign-up flow: one `async` function per public step, each sending the requests its
/// `SignUpMachine` asks for and making the public states from the machine's outcome
/// (SignUpMachine.swift has the rules).
package struct SignUpController: Sendable {
    package let client: NativeAuthClient
    package let signIn: SignInController

    private var environment: NativeAuthEnvironment { client.environment }

    package struct StartRequest: Sendable {
        var username: String
        var password: String?
        /// The attributes as JSON, or why they could not be made JSON.
        var attributes: Result<String?, SetupError>
        var correlationId: UUID
    }

    package func start(_ request: StartRequest) async throws(SignUpStartError) -> SignUpStartResult {
        environment.logger.info("Sign-up started for \(pii: request.username) correlation \(request.correlationId.uuidString)")
        var machine = SignUpMachine()
        let first = machine.start(
            username: request.username, password: request.password, attributes: request.attributes, correlationId: request.correlationId)
        switch try await run(first, &machine).get(SignUpStartError.init) {
        case .codeRequired(let sent):
            let result = CodeRequiredResult(sent) { state(request.username, $0) as SignUpCodeRequiredState }
            return .codeRequired(
                newState: result.newState, sentTo: result.sentTo, channelTargetType: result.channelTargetType, codeLength: result.codeLength
            )
        case .attributesInvalid(let names):
            return .attributesInvalid(attributeNames: names)
        case let outcome:
            preconditionFailure("a sign-up start does not end with \(outcome)")
        }
    }

    package func submitCode(_ code: String, on state: SignUpCodeRequiredState) async throws(VerifyCodeError) -> SignUpVerifyCodeResult {
        var machine = SignUpMachine()
        let first = machine.submitCode(code, on: Continuation(state.continuationToken, state.correlationId))
        switch try await run(first, &machine).get(VerifyCodeError.init, ending: state.lifecycle) {
        case .completed(let token, let id): return .completed(signInState(state.username, token, id))
        case .passwordRequired(let next): return .passwordRequired(newState: self.state(state.username, next))
        case .attributesRequired(let attributes, let next):
            return .attributesRequired(attributes: attributes, newState: self.state(state.username, next))
        case let outcome: preconditionFailure("a code does not end with \(outcome)")
        }
    }

    package func resendCode(on state: SignUpCodeRequiredState) async throws(ResendCodeError) -> CodeRequiredResult<SignUpCodeRequiredState>
    {
        var machine = SignUpMachine()
        let first = machine.resendCode(on: Continuation(state.continuationToken, state.correlationId))
        guard case .codeRequired(let sent) = try await run(first, &machine).get(ResendCodeError.init, ending: state.lifecycle) else {
            preconditionFailure("a resend ends with a code or an error")
        }
        return CodeRequiredResult(sent) { self.state(state.username, $0) }
    }

    package func submitPassword(_ password: String, on state: SignUpPasswordRequiredState) async throws(PasswordRequiredError)
        -> SignUpPasswordRequiredResult
    {
        var machine = SignUpMachine()
        let first = machine.submitPassword(password, on: Continuation(state.continuationToken, state.correlationId))
        switch try await run(first, &machine).get(PasswordRequiredError.init, ending: state.lifecycle) {
        case .completed(let token, let id): return .completed(signInState(state.username, token, id))
        case .attributesRequired(let attributes, let next):
            return .attributesRequired(attributes: attributes, newState: self.state(state.username, next))
        case let outcome: preconditionFailure("a password does not end with \(outcome)")
        }
    }

    package func submitAttributes(_ attributes: Result<String?, SetupError>, on state: SignUpAttributesRequiredState)
        async throws(AttributesRequiredError) -> SignUpAttributesRequiredResult
    {
        var machine = SignUpMachine()
        let first = machine.submitAttributes(attributes, on: Continuation(state.continuationToken, state.correlationId))
        switch try await run(first, &machine).get(AttributesRequiredError.init, ending: state.lifecycle) {
        case .completed(let token, let id): return .completed(signInState(state.username, token, id))
        case .attributesRequired(let required, let next):
            return .attributesRequired(attributes: required, newState: self.state(state.username, next))
        // The state that sent the values takes corrected ones.
        case .attributesInvalid(let names): return .attributesInvalid(attributeNames: names, newState: state)
        case let outcome: preconditionFailure("attributes do not end with \(outcome)")
        }
    }

    // MARK: States

    private func state<State: SignUpState>(_ username: String, _ next: Continuation) -> State {
        State(controller: self, username: username, continuationToken: next.token, correlationId: next.correlationId, issuedAt: nil)
    }

    private func signInState(_ username: String, _ token: String?, _ id: UUID) -> SignInAfterSignUpState {
        SignInAfterSignUpState(controller: signIn, username: username, continuationToken: token, correlationId: id)
    }

    // MARK: Requests

    /// Sends what `first` asks for, and every request after it, feeding each answer to `machine`.
    private func run(_ first: SignUpMachine.Action, _ machine: inout SignUpMachine) async -> FlowAction<SignUpMachine.Outcome, Never> {
        await first.run { call in
            switch call {
            case .start(let username, let password, let attributes, let correlationId):
                let (answer, id) = await client.call(
                    .signUpStart,
                    [
                        ("username", username), ("password", password), ("attributes", attributes),
                        ("challenge_type", environment.challengeTypes.wireValue), ("capabilities", environment.capabilities.wireValue),
                    ], correlationId: correlationId, expecting: ContinuationTokenResponse.self)
                return machine.startAnswered(answer, correlationId: id)
            case .challenge(let next):
                let (answer, id) = await client.call(
                    .signUpChallenge, [("continuation_token", next.token), ("challenge_type", environment.challengeTypes.wireValue)],
                    correlationId: next.correlationId, expecting: ChallengeResponse.self)
                return machine.challengeAnswered(answer, correlationId: id)
            case .continueSignUp(let grant, let next):
                let fields: [(String, String?)] =
                    switch grant {
                    case .oob(let code): [("grant_type", "oob"), ("oob", code)]
                    case .password(let password): [("grant_type", "password"), ("password", password)]
                    case .attributes(let json): [("grant_type", "attributes"), ("attributes", json)]
                    }
                let (answer, id) = await client.call(
                    .signUpContinue, [("continuation_token", next.token)] + fields, correlationId: next.correlationId,
                    expecting: SignUpCompletedResponse.self, honoursRedirect: false)
                return machine.continued(answer, correlationId: id)
            }
        }
    }
}

/// The sign-up states a continuation makes: the code, password and attributes states.
private protocol SignUpState {
    init(controller: SignUpController, username: String, continuationToken: String, correlationId: UUID, issuedAt: Date?)
}

extension SignUpCodeRequiredState: SignUpState {}
extension SignUpPasswordRequiredState: SignUpState {}
extension SignUpAttributesRequiredState: SignUpState {}
