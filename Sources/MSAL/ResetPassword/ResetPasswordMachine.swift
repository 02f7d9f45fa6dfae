import Foundation

/// Every rule of the password-reset flow in one value: which answer of `/resetpassword/v1.0/start`,
/// `/challenge`, `/continue`, `/submit` and `/poll_completion` leads to which next state, which to
/// which error, and which error ends the flow of the state that sent the request.
///
/// It sends nothing and never waits. `ResetPasswordController` makes a machine for one call of one
/// step, sends the request, feeds the answer to the event method named after it, and does what the
/// returned `FlowAction` says (see `SignUpMachine` for the same shape). `state` says which answer
/// the machine waits for; feeding it another is a programming error.
package struct ResetPasswordMachine: Sendable {
    /// Polls after the first that may answer `in_progress` before the reset is given up (MSAL: 5).
    package static let maxPollRetries = 5

    package enum State: Sendable, Equatable {
        /// `resetPassword(parameters:)`: waiting for `/resetpassword/v1.0/start`.
        case starting
        /// `resetPassword(parameters:)`: waiting for the challenge that sends the code.
        case sendingCode
        /// `resendCode`: waiting for the challenge that sends a new code.
        case resendingCode
        /// `submitCode`: waiting for `/continue` with the code.
        case verifyingCode
        /// `submitPassword`: waiting for `/submit` with the new password.
        case submittingPassword
        /// `submitPassword`: waiting for a `/poll_completion` answer; `retriesLeft` more polls may
        /// follow an `in_progress`.
        case polling(retriesLeft: Int)
        /// `submitPassword`: the runner waits before the next poll.
        case waiting(retriesLeft: Int)
        /// The step has its result or its error.
        case done
    }

    /// `/resetpassword/v1.0/challenge` with this token: what follows the start.
    package struct Challenge: Sendable, Equatable {
        package var continuationToken: String
        package var correlationId: UUID
    }

    /// `/resetpassword/v1.0/poll_completion` with this token, after waiting `delay` seconds (nil:
    /// at once).
    package struct Poll: Sendable, Equatable {
        package var continuationToken: String
        package var correlationId: UUID
        package var delay: Int?
    }

    package private(set) var state: State
    private let controller: ResetPasswordController
    private let username: String
    /// The correlation id of the last answer.
    private var correlationId: UUID
    /// `submitPassword`: the token `/submit` handed out, and how often to poll with it.
    private var poll: (token: String, interval: Int, correlationId: UUID)?

    private init(_ state: State, controller: ResetPasswordController, username: String, correlationId: UUID) {
        self.state = state
        self.controller = controller
        self.username = username
        self.correlationId = correlationId
    }

    // MARK: Steps

    package static func start(username: String, correlationId: UUID, controller: ResetPasswordController) -> ResetPasswordMachine {
        ResetPasswordMachine(.starting, controller: controller, username: username, correlationId: correlationId)
    }

    package static func resendCode(on state: ResetPasswordCodeRequiredState) -> ResetPasswordMachine {
        ResetPasswordMachine(.resendingCode, controller: state.controller, username: state.username, correlationId: state.correlationId)
    }

    package static func submitCode(on state: ResetPasswordCodeRequiredState) -> ResetPasswordMachine {
        ResetPasswordMachine(.verifyingCode, controller: state.controller, username: state.username, correlationId: state.correlationId)
    }

    package static func submitPassword(on state: ResetPasswordRequiredState) -> ResetPasswordMachine {
        ResetPasswordMachine(
            .submittingPassword, controller: state.controller, username: state.username, correlationId: state.correlationId)
    }

    // MARK: resetPassword(parameters:)

    /// `/resetpassword/v1.0/start` answered.
    package mutating func startAnswered(_ outcome: NativeAuthOutcome<ContinuationTokenResponse>, correlationId id: UUID)
        -> FlowAction<ResetPasswordStartResult, Challenge>
    {
        expect(.starting)
        switch outcome {
        case .success(let body):
            state = .sendingCode
            return .call(Challenge(continuationToken: body.continuationToken, correlationId: id))
        case .redirect(let reason):
            return .fail(FlowFailure(.browserRequired, NativeAuthErrorDetails(redirectReason: reason, correlationId: id)))
        case .apiError(let error):
            return .fail(Self.startRefused(error, correlationId: id))
        case .failure(let failure):
            return .fail(FlowFailure(.generalError, NativeAuthErrorDetails(failure, correlationId: id)))
        }
    }

    /// The challenge after the start answered: it must send a code.
    package mutating func startChallengeAnswered(_ outcome: NativeAuthOutcome<ChallengeResponse>, correlationId id: UUID)
        -> FlowAction<ResetPasswordStartResult, Never>
    {
        expect(.sendingCode)
        switch challenged(outcome, correlationId: id) {
        case .code(let state, let sentTo, let channel, let length):
            return .succeed(.codeRequired(newState: state, sentTo: sentTo, channelTargetType: channel, codeLength: length))
        case .refused(let failure), .unanswered(let failure):
            return .fail(failure)
        }
    }

    /// `/resetpassword/v1.0/start` errors: an unknown user and a user without a password have
    /// their own kinds; anything else is general.
    private static func startRefused(_ error: NativeAuthAPIError, correlationId: UUID) -> FlowFailure {
        if error.error == .userNotFound {
            return FlowFailure(
                .userNotFound,
                NativeAuthErrorDetails(error, correlationId: correlationId, fallback: NativeAuthErrorMessage.userNotFound))
        }
        if error.error == .invalidRequest, error.firstCode == NativeAuthServerCode.userDoesNotHavePassword {
            return FlowFailure(
                .userDoesNotHavePassword,
                NativeAuthErrorDetails(
                    error, correlationId: correlationId, fallback: NativeAuthErrorMessage.userDoesNotHavePassword))
        }
        return FlowFailure(
            .generalError,
            NativeAuthErrorDetails(error, correlationId: correlationId, fallback: NativeAuthErrorMessage.generalError))
    }

    // MARK: ResetPasswordCodeRequiredState

    /// The challenge of `resendCode` answered. As in MSAL, every answered failure ends the flow;
    /// only no answer at all keeps the state.
    package mutating func resendAnswered(_ outcome: NativeAuthOutcome<ChallengeResponse>, correlationId id: UUID)
        -> FlowAction<ResetPasswordResendCodeResult, Never>
    {
        expect(.resendingCode)
        switch challenged(outcome, correlationId: id) {
        case .code(let next, let sentTo, let channel, let length):
            return .succeed(.codeRequired(newState: next, sentTo: sentTo, channelTargetType: channel, codeLength: length))
        case .refused(var failure):
            failure.endsFlow = true
            return .fail(failure)
        case .unanswered(let failure):
            return .fail(failure)
        }
    }

    /// `/resetpassword/v1.0/continue` with the code answered. A wrong code keeps the state; any
    /// other refusal ends the flow; no answer keeps it.
    package mutating func codeAnswered(_ outcome: NativeAuthOutcome<ContinuationTokenResponse>, correlationId id: UUID)
        -> FlowAction<ResetPasswordVerifyCodeResult, Never>
    {
        expect(.verifyingCode)
        switch outcome {
        case .success(let body):
            return .succeed(
                .passwordRequired(
                    newState: ResetPasswordRequiredState(
                        controller: controller, username: username, continuationToken: body.continuationToken, correlationId: id)))
        case .apiError(let error) where error.error == .invalidGrant && error.suberror == .invalidOOBValue:
            return .fail(
                .retry(.invalidCode, NativeAuthErrorDetails(error, correlationId: id, fallback: NativeAuthErrorMessage.invalidCode))
            )
        case .apiError(let error):
            return .fail(
                .ending(
                    .generalError, NativeAuthErrorDetails(error, correlationId: id, fallback: NativeAuthErrorMessage.generalError)))
        case .redirect(let reason):
            return .fail(.ending(.browserRequired, NativeAuthErrorDetails(redirectReason: reason, correlationId: id)))
        case .failure(let failure):
            return .fail(.retry(.generalError, NativeAuthErrorDetails(failure, correlationId: id)))
        }
    }

    // MARK: ResetPasswordRequiredState

    /// `/resetpassword/v1.0/submit` answered: on success the machine asks for the first poll, at
    /// once. A password the policy refuses keeps the state; any other refusal ends the flow.
    package mutating func passwordAnswered(_ outcome: NativeAuthOutcome<ResetPasswordSubmitResponse>, correlationId id: UUID)
        -> FlowAction<ResetPasswordRequiredResult, Poll>
    {
        expect(.submittingPassword)
        switch outcome {
        case .success(let body):
            poll = (body.continuationToken, body.pollInterval, id)
            state = .polling(retriesLeft: Self.maxPollRetries)
            return .call(Poll(continuationToken: body.continuationToken, correlationId: id, delay: nil))
        case .apiError(let error) where error.error == .invalidGrant && error.suberror?.isPasswordPolicyFailure == true:
            return .fail(
                .retry(
                    .invalidPassword,
                    NativeAuthErrorDetails(error, correlationId: id, fallback: NativeAuthErrorMessage.invalidPassword))
            )
        case .apiError(let error):
            return .fail(
                .ending(
                    .generalError, NativeAuthErrorDetails(error, correlationId: id, fallback: NativeAuthErrorMessage.generalError)))
        case .redirect(let reason):
            return .fail(.ending(.browserRequired, NativeAuthErrorDetails(redirectReason: reason, correlationId: id)))
        case .failure(let failure):
            return .fail(.retry(.generalError, NativeAuthErrorDetails(failure, correlationId: id)))
        }
    }

    /// `/resetpassword/v1.0/poll_completion` answered. Still in progress: poll again after the
    /// interval `/submit` gave, at most `maxPollRetries` more times. A password refused this late
    /// keeps the state, which goes on with the poll token; every other failure ends the flow.
    package mutating func pollAnswered(_ outcome: NativeAuthOutcome<ResetPasswordPollResponse>, correlationId id: UUID)
        -> FlowAction<ResetPasswordRequiredResult, Poll>
    {
        guard case .polling(let retriesLeft) = state, let poll else {
            preconditionFailure("ResetPasswordMachine got a poll answer while \(state)")
        }
        state = .done
        correlationId = id
        switch outcome {
        case .success(let body) where body.status == .succeeded:
            return .succeed(
                .completed(
                    SignInAfterResetPasswordState(
                        controller: controller.signIn, username: username, continuationToken: body.continuationToken, correlationId: id)))
        case .success(let body) where body.status == .failed:
            return .fail(
                .ending(.generalError, NativeAuthErrorDetails(message: "The password reset failed on the server", correlationId: id)))
        case .success:
            guard retriesLeft > 0 else {
                return .fail(
                    .ending(
                        .generalError,
                        NativeAuthErrorDetails(
                            message: "The password reset did not complete after \(Self.maxPollRetries + 1) checks", correlationId: id)))
            }
            state = .waiting(retriesLeft: retriesLeft - 1)
            return .call(Poll(continuationToken: poll.token, correlationId: poll.correlationId, delay: poll.interval))
        case .apiError(let error) where error.error == .invalidGrant && error.suberror?.isPasswordPolicyFailure == true:
            // The password was refused late: a new password goes to /submit with the poll token (as MSAL does).
            var failure = FlowFailure.retry(
                .invalidPassword, NativeAuthErrorDetails(error, correlationId: id, fallback: NativeAuthErrorMessage.invalidPassword)
            )
            failure.continuationToken = poll.token
            return .fail(failure)
        case .apiError(let error):
            return .fail(
                .ending(
                    .generalError, NativeAuthErrorDetails(error, correlationId: id, fallback: NativeAuthErrorMessage.generalError)))
        case .redirect(let reason):
            return .fail(.ending(.browserRequired, NativeAuthErrorDetails(redirectReason: reason, correlationId: id)))
        case .failure(let failure):
            return .fail(.ending(.generalError, NativeAuthErrorDetails(failure, correlationId: id)))
        }
    }

    /// The runner waited as asked; the next poll goes out.
    package mutating func waited() {
        guard case .waiting(let retriesLeft) = state else { preconditionFailure("ResetPasswordMachine waited while \(state)") }
        state = .polling(retriesLeft: retriesLeft)
    }

    /// The wait before a poll was cancelled: the reset is given up, and so is the state's flow.
    package mutating func waitCancelled() -> FlowFailure {
        guard case .waiting = state else { preconditionFailure("ResetPasswordMachine's wait was cancelled while \(state)") }
        state = .done
        return .ending(
            .generalError,
            NativeAuthErrorDetails(
                message: "The password reset was cancelled while waiting for the server", correlationId: correlationId))
    }

    // MARK: Reading the answers

    private mutating func expect(_ expected: State) {
        precondition(state == expected, "ResetPasswordMachine got an answer for \(expected) while \(state)")
        state = .done
    }

    /// What `/resetpassword/v1.0/challenge` said: a code was sent, or why not (a server answer, or
    /// none at all). It must send a code; a password prompt is an error here.
    private enum Challenged {
        case code(ResetPasswordCodeRequiredState, sentTo: String, channel: MSALNativeAuthChannelType, codeLength: Int)
        case refused(FlowFailure)
        case unanswered(FlowFailure)
    }

    private func challenged(_ outcome: NativeAuthOutcome<ChallengeResponse>, correlationId id: UUID) -> Challenged {
        switch outcome {
        case .success(.oob(let next, let label, let channel, let length, _)):
            let state = ResetPasswordCodeRequiredState(
                controller: controller, username: username, continuationToken: next, correlationId: id)
            return .code(state, sentTo: label, channel: MSALNativeAuthChannelType(value: channel), codeLength: length)
        case .success(.password):
            return .refused(
                FlowFailure(
                    .generalError,
                    NativeAuthErrorDetails(message: "The server asked for a password instead of sending a code", correlationId: id)))
        case .redirect(let reason):
            return .refused(FlowFailure(.browserRequired, NativeAuthErrorDetails(redirectReason: reason, correlationId: id)))
        case .apiError(let error):
            return .refused(
                FlowFailure(
                    .generalError, NativeAuthErrorDetails(error, correlationId: id, fallback: NativeAuthErrorMessage.generalError)))
        case .failure(let failure):
            return .unanswered(FlowFailure(.generalError, NativeAuthErrorDetails(failure, correlationId: id)))
        }
    }
}
