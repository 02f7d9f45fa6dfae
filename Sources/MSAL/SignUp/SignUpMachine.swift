import Foundation

/// Every rule of the sign-up flow in one value: which answer of `/signup/v1.0/start`, `/challenge`
/// and `/continue` leads to which next state, which to which error, and which error ends the flow
/// of the state that sent the request.
///
/// It sends nothing. `SignUpController` makes a machine for one call of one step, sends the
/// request, feeds the answer to the event method named after it, and does what the returned
/// `FlowAction` says: send the next request, return the result, or throw the error (ending the
/// state's lifecycle first when the failure says so). `state` says which answer the machine waits
/// for; feeding it another is a programming error. The machine holds the controller only to give
/// the states it creates their owner; it never calls it.
package struct SignUpMachine: Sendable {
    package enum State: Sendable, Equatable {
        /// `signUp(parameters:)`: waiting for `/signup/v1.0/start`.
        case starting
        /// `signUp(parameters:)`: waiting for the challenge that sends the first code.
        case sendingCode
        /// `submitCode`: waiting for `/continue` with the code.
        case verifyingCode
        /// `submitCode`: the code was accepted and a credential is wanted; waiting for the
        /// challenge that asks for the password. Every failure from here ends the flow.
        case requestingPassword
        /// `resendCode`: waiting for the challenge that sends a new code.
        case resendingCode
        /// `submitPassword`: waiting for `/continue` with the password.
        case verifyingPassword
        /// `submitAttributes`: waiting for `/continue` with the attributes.
        case verifyingAttributes
        /// The step has its result or its error.
        case done
    }

    /// The request a sign-up step may send after its first.
    package enum Call: Sendable, Equatable {
        /// `/signup/v1.0/challenge` with this token.
        case challenge(continuationToken: String, correlationId: UUID)
    }

    package private(set) var state: State
    private let controller: SignUpController
    private let username: String
    /// The correlation id the step goes on with (the server's echo of the last answer).
    private var correlationId: UUID
    /// `submitAttributes`: the state that sent them, handed back when the values are refused.
    private let attributesState: SignUpAttributesRequiredState?

    private init(
        _ state: State, controller: SignUpController, username: String, correlationId: UUID,
        attributesState: SignUpAttributesRequiredState? = nil
    ) {
        self.state = state
        self.controller = controller
        self.username = username
        self.correlationId = correlationId
        self.attributesState = attributesState
    }

    // MARK: Steps

    package static func start(username: String, correlationId: UUID, controller: SignUpController) -> SignUpMachine {
        SignUpMachine(.starting, controller: controller, username: username, correlationId: correlationId)
    }

    package static func submitCode(on state: SignUpCodeRequiredState) -> SignUpMachine {
        SignUpMachine(.verifyingCode, controller: state.controller, username: state.username, correlationId: state.correlationId)
    }

    package static func resendCode(on state: SignUpCodeRequiredState) -> SignUpMachine {
        SignUpMachine(.resendingCode, controller: state.controller, username: state.username, correlationId: state.correlationId)
    }

    package static func submitPassword(on state: SignUpPasswordRequiredState) -> SignUpMachine {
        SignUpMachine(.verifyingPassword, controller: state.controller, username: state.username, correlationId: state.correlationId)
    }

    package static func submitAttributes(on state: SignUpAttributesRequiredState) -> SignUpMachine {
        SignUpMachine(
            .verifyingAttributes, controller: state.controller, username: state.username, correlationId: state.correlationId,
            attributesState: state)
    }

    // MARK: Checks before anything is sent

    /// `signUp(parameters:)`: the attributes as JSON, or why the request is refused.
    package static func checkStart(_ request: SignUpController.StartRequest) -> Result<String?, FlowFailure> {
        if let failure = LocalCheck.username(request.username, correlationId: request.correlationId) { return .failure(failure) }
        if let password = request.password, let failure = LocalCheck.password(password, correlationId: request.correlationId) {
            return .failure(failure)
        }
        return request.attributes.mapError {
            FlowFailure(.generalError, NativeAuthErrorDetails(message: $0.message, correlationId: request.correlationId))
        }
    }

    /// `submitAttributes`: the attributes as JSON (`{}` for none), or why they cannot be sent.
    package static func checkAttributes(_ attributes: Result<String?, SetupError>, correlationId: UUID) -> Result<String, FlowFailure> {
        attributes.map { $0 ?? "{}" }.mapError {
            FlowFailure(.generalError, NativeAuthErrorDetails(message: $0.message, correlationId: correlationId))
        }
    }

    // MARK: signUp(parameters:)

    /// `/signup/v1.0/start` answered.
    package mutating func startAnswered(_ outcome: NativeAuthOutcome<ContinuationTokenResponse>, correlationId id: UUID)
        -> FlowAction<SignUpStartResult, Call>
    {
        expect(.starting)
        correlationId = id
        switch outcome {
        case .success(let body):
            state = .sendingCode
            return .call(.challenge(continuationToken: body.continuationToken, correlationId: id))
        case .redirect(let reason):
            return .fail(FlowFailure(.browserRequired, NativeAuthErrorDetails(redirectReason: reason, correlationId: id)))
        case .apiError(let error):
            if error.error == .invalidGrant, error.suberror == .attributeValidationFailed, !error.invalidAttributes.isEmpty {
                return .succeed(.attributesInvalid(attributeNames: error.invalidAttributes))
            }
            return .fail(Self.startRefused(error, correlationId: id))
        case .failure(let failure):
            return .fail(FlowFailure(.generalError, NativeAuthErrorDetails(failure, correlationId: id)))
        }
    }

    /// The challenge after `/signup/v1.0/start` answered: it must send a code.
    package mutating func startChallengeAnswered(_ outcome: NativeAuthOutcome<ChallengeResponse>, correlationId id: UUID)
        -> FlowAction<SignUpStartResult, Never>
    {
        expect(.sendingCode)
        switch challenged(outcome, correlationId: id) {
        case .code(let state, let sentTo, let channel, let length):
            return .succeed(.codeRequired(newState: state, sentTo: sentTo, channelTargetType: channel, codeLength: length))
        case .password:
            // The message carries the correlation id of the start answer, as it always has.
            return .fail(
                FlowFailure(
                    .generalError,
                    NativeAuthErrorDetails(message: "The server did not send a verification code", correlationId: correlationId)))
        case .redirect(let details):
            return .fail(FlowFailure(.browserRequired, details))
        case .error(let details), .networkFailure(let details):
            return .fail(FlowFailure(.generalError, details))
        }
    }

    /// `/signup/v1.0/start` errors: the password policy, an existing user and a refused username
    /// have their own kinds; anything else is general.
    private static func startRefused(_ error: NativeAuthAPIError, correlationId: UUID) -> FlowFailure {
        if error.error == .invalidGrant, error.suberror?.isPasswordPolicyFailure == true {
            return FlowFailure(
                .invalidPassword,
                NativeAuthErrorDetails(error, correlationId: correlationId, fallback: NativeAuthErrorMessage.invalidPassword))
        }
        if error.error == .userAlreadyExists {
            return FlowFailure(
                .userAlreadyExists,
                NativeAuthErrorDetails(error, correlationId: correlationId, fallback: NativeAuthErrorMessage.userAlreadyExists))
        }
        if error.error == .invalidRequest, error.firstCode == NativeAuthServerCode.invalidParameter,
            error.errorDescription?.contains("username parameter is empty or not valid") == true
        {
            return FlowFailure(
                .invalidUsername,
                NativeAuthErrorDetails(error, correlationId: correlationId, fallback: NativeAuthErrorMessage.invalidUsername))
        }
        return FlowFailure(
            .generalError,
            NativeAuthErrorDetails(error, correlationId: correlationId, fallback: NativeAuthErrorMessage.generalError))
    }

    // MARK: SignUpCodeRequiredState

    /// `/signup/v1.0/continue` with the code answered. A wrong code (or a password-policy answer)
    /// keeps the state; any other refusal ends the flow; no answer at all keeps it.
    package mutating func codeAnswered(_ outcome: NativeAuthOutcome<SignUpCompletedResponse>, correlationId id: UUID)
        -> FlowAction<SignUpVerifyCodeResult, Call>
    {
        expect(.verifyingCode)
        switch continued(outcome, correlationId: id) {
        case .completed(let next):
            return .succeed(.completed(next))
        case .attributesRequired(let attributes, let next):
            return .succeed(.attributesRequired(attributes: attributes, newState: next))
        case .credentialRequired(let token, let id):
            // The code was accepted and the server moved on: a failure from here ends the flow.
            state = .requestingPassword
            return .call(.challenge(continuationToken: token, correlationId: id))
        case .apiError(let error, let id):
            let details = NativeAuthErrorDetails(error, correlationId: id, fallback: NativeAuthErrorMessage.invalidCode)
            if error.error == .invalidGrant, let suberror = error.suberror, suberror == .invalidOOBValue || suberror.isPasswordPolicyFailure
            {
                return .fail(.retry(.invalidCode, details))
            }
            return .fail(.ending(.generalError, details))
        case .failure(let failure, let id):
            // Nothing reached the server's decision: the code may be tried again.
            return .fail(.retry(.generalError, NativeAuthErrorDetails(failure, correlationId: id)))
        }
    }

    /// The challenge after the code was accepted answered: it must ask for the password. Every
    /// failure ends the flow (the server has spent the code's token).
    package mutating func passwordChallengeAnswered(_ outcome: NativeAuthOutcome<ChallengeResponse>, correlationId id: UUID)
        -> FlowAction<SignUpVerifyCodeResult, Never>
    {
        expect(.requestingPassword)
        switch challenged(outcome, correlationId: id) {
        case .password(let next):
            return .succeed(.passwordRequired(newState: next))
        case .redirect(let details):
            return .fail(.ending(.browserRequired, details))
        case .error(let details), .networkFailure(let details):
            return .fail(.ending(.generalError, details))
        case .code(let next, _, _, _):
            return .fail(
                .ending(
                    .generalError,
                    NativeAuthErrorDetails(
                        message: "The server asked for another code instead of a password", correlationId: next.correlationId)))
        }
    }

    /// The challenge of `resendCode` answered. A refusal or no answer keeps the state; a redirect
    /// or a password prompt ends the flow.
    package mutating func resendAnswered(_ outcome: NativeAuthOutcome<ChallengeResponse>, correlationId id: UUID)
        -> FlowAction<SignUpResendCodeResult, Never>
    {
        expect(.resendingCode)
        switch challenged(outcome, correlationId: id) {
        case .code(let next, let sentTo, let channel, let length):
            return .succeed(.codeRequired(newState: next, sentTo: sentTo, channelTargetType: channel, codeLength: length))
        case .error(let details), .networkFailure(let details):
            return .fail(.retry(.generalError, details))
        case .redirect(let details):
            return .fail(.ending(.browserRequired, details))
        case .password(let next):
            return .fail(
                .ending(
                    .generalError,
                    NativeAuthErrorDetails(
                        message: "The server asked for a password instead of sending a new code", correlationId: next.correlationId)))
        }
    }

    // MARK: SignUpPasswordRequiredState

    /// `/signup/v1.0/continue` with the password answered. A password the policy refuses, or an
    /// `invalid_oob_value`, keeps the state; any other refusal ends the flow.
    package mutating func passwordAnswered(_ outcome: NativeAuthOutcome<SignUpCompletedResponse>, correlationId id: UUID)
        -> FlowAction<SignUpPasswordRequiredResult, Never>
    {
        expect(.verifyingPassword)
        switch continued(outcome, correlationId: id) {
        case .completed(let next):
            return .succeed(.completed(next))
        case .attributesRequired(let attributes, let next):
            return .succeed(.attributesRequired(attributes: attributes, newState: next))
        case .apiError(let error, let id):
            let details = NativeAuthErrorDetails(error, correlationId: id, fallback: NativeAuthErrorMessage.invalidPassword)
            if error.error == .invalidGrant, error.suberror?.isPasswordPolicyFailure == true {
                return .fail(.retry(.invalidPassword, details))
            }
            if error.error == .invalidGrant, error.suberror == .invalidOOBValue {
                return .fail(.retry(.generalError, details))
            }
            return .fail(.ending(.generalError, details))
        case .credentialRequired(_, let id):
            return .fail(
                .ending(.generalError, NativeAuthErrorDetails(message: "The server asked for a credential again", correlationId: id)))
        case .failure(let failure, let id):
            return .fail(.retry(.generalError, NativeAuthErrorDetails(failure, correlationId: id)))
        }
    }

    // MARK: SignUpAttributesRequiredState

    /// `/signup/v1.0/continue` with the attributes answered. Refused values hand back the same
    /// state (its token accepts corrected values); any other refusal ends the flow.
    package mutating func attributesAnswered(_ outcome: NativeAuthOutcome<SignUpCompletedResponse>, correlationId id: UUID)
        -> FlowAction<SignUpAttributesRequiredResult, Never>
    {
        expect(.verifyingAttributes)
        switch continued(outcome, correlationId: id) {
        case .completed(let next):
            return .succeed(.completed(next))
        case .attributesRequired(let required, let next):
            return .succeed(.attributesRequired(attributes: required, newState: next))
        case .apiError(let error, let id):
            if error.error == .invalidGrant, error.suberror == .attributeValidationFailed, !error.invalidAttributes.isEmpty {
                // `submitAttributes(on:)`, the only way into `.verifyingAttributes`, set the state.
                return .succeed(.attributesInvalid(attributeNames: error.invalidAttributes, newState: attributesState!))
            }
            return .fail(
                .ending(
                    .generalError, NativeAuthErrorDetails(error, correlationId: id, fallback: NativeAuthErrorMessage.generalError)))
        case .credentialRequired(_, let id):
            return .fail(
                .ending(.generalError, NativeAuthErrorDetails(message: "The server asked for a credential again", correlationId: id)))
        case .failure(let failure, let id):
            return .fail(.retry(.generalError, NativeAuthErrorDetails(failure, correlationId: id)))
        }
    }

    // MARK: Reading the answers

    private mutating func expect(_ expected: State) {
        precondition(state == expected, "SignUpMachine got an answer for \(expected) while \(state)")
        state = .done
    }

    /// What `/signup/v1.0/challenge` said, before each step maps it.
    private enum Challenged {
        case code(SignUpCodeRequiredState, sentTo: String, channel: MSALNativeAuthChannelType, codeLength: Int)
        case password(SignUpPasswordRequiredState)
        case redirect(NativeAuthErrorDetails)
        /// A server error answer (the previous token still stands).
        case error(NativeAuthErrorDetails)
        /// No usable answer (transport failure, unexpected status, undecodable body): the previous
        /// token still stands as far as the client knows.
        case networkFailure(NativeAuthErrorDetails)
    }

    private func challenged(_ outcome: NativeAuthOutcome<ChallengeResponse>, correlationId id: UUID) -> Challenged {
        switch outcome {
        case .success(.oob(let next, let label, let channel, let length, _)):
            return .code(
                SignUpCodeRequiredState(controller: controller, username: username, continuationToken: next, correlationId: id),
                sentTo: label, channel: MSALNativeAuthChannelType(value: channel), codeLength: length)
        case .success(.password(let next)):
            return .password(
                SignUpPasswordRequiredState(controller: controller, username: username, continuationToken: next, correlationId: id))
        case .redirect(let reason):
            return .redirect(NativeAuthErrorDetails(redirectReason: reason, correlationId: id))
        case .apiError(let error):
            return .error(NativeAuthErrorDetails(error, correlationId: id, fallback: NativeAuthErrorMessage.generalError))
        case .failure(let failure):
            return .networkFailure(NativeAuthErrorDetails(failure, correlationId: id))
        }
    }

    /// What `/signup/v1.0/continue` said, before each step maps it.
    private enum Continued {
        case completed(SignInAfterSignUpState)
        case attributesRequired([MSALNativeAuthRequiredAttribute], SignUpAttributesRequiredState)
        case credentialRequired(token: String, correlationId: UUID)
        case apiError(NativeAuthAPIError, correlationId: UUID)
        case failure(MSALNativeAuthNetworkFailure, correlationId: UUID)
    }

    private func continued(_ outcome: NativeAuthOutcome<SignUpCompletedResponse>, correlationId id: UUID) -> Continued {
        switch outcome {
        case .success(let body):
            return .completed(
                SignInAfterSignUpState(
                    controller: controller.signIn, username: username, continuationToken: body.continuationToken, correlationId: id))
        case .redirect:
            // Not produced with honoursRedirect: false; a redirect body at continue counts as completion.
            return .completed(
                SignInAfterSignUpState(controller: controller.signIn, username: username, continuationToken: nil, correlationId: id))
        case .apiError(let error):
            if error.error == .attributesRequired, let next = error.continuationToken, !error.requiredAttributes.isEmpty {
                let state = SignUpAttributesRequiredState(
                    controller: controller, username: username, continuationToken: next, correlationId: id)
                return .attributesRequired(error.requiredAttributes.map(MSALNativeAuthRequiredAttribute.init), state)
            }
            if error.error == .credentialRequired, let next = error.continuationToken {
                return .credentialRequired(token: next, correlationId: id)
            }
            return .apiError(error, correlationId: id)
        case .failure(let failure):
            return .failure(failure, correlationId: id)
        }
    }
}
