import Foundation

/// Every rule of the password-reset flow in one value (docs/protocol.md#password-reset,
/// docs/error-mapping.md#password-reset): what is checked before a request, which answer of
/// `/resetpassword/v1.0/start`, `/challenge`, `/continue`, `/submit` and `/poll_completion` leads
/// to which request or outcome, which to which error, and which error ends the flow of the state
/// that sent the request.
///
/// It sends nothing and never waits: `ResetPasswordController` runs it as `SignInController` runs
/// `SignInMachine`, and waits before a poll when the machine asks.
package struct ResetPasswordMachine: FlowMachine {
    /// Polls after the first that may answer `in_progress` before the reset is given up (MSAL: 5).
    package static let maxPollRetries = 5

    package enum State: Sendable, Equatable {
        /// A step is about to begin.
        case idle
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
        case polling(Polling, retriesLeft: Int)
        /// `submitPassword`: the controller waits before the next poll; `lastAnswer` is the
        /// correlation id of the answer that asked for the wait.
        case waiting(Polling, retriesLeft: Int, lastAnswer: UUID)
        /// The step has its result or its error.
        case done
    }

    /// What `/submit` handed out: the token to poll with and how often.
    package struct Polling: Sendable, Equatable {
        package var next: Continuation
        /// Seconds between polls.
        package var interval: Int
    }

    /// The requests of the password-reset flow.
    package enum Call: Sendable, Equatable {
        /// `/resetpassword/v1.0/start` for the username `start(username:correlationId:)` checked (the controller sends it).
        case start(correlationId: UUID)
        /// `/resetpassword/v1.0/challenge` with this token.
        case challenge(Continuation)
        /// `/resetpassword/v1.0/continue` with the code.
        case submitCode(String, Continuation)
        /// `/resetpassword/v1.0/submit` with the new password.
        case submitPassword(String, Continuation)
        /// `/resetpassword/v1.0/poll_completion` with this token, after waiting `delay` seconds (nil:
        /// at once).
        case poll(Continuation, delay: Int?)
    }

    /// How a password-reset step ends, in plain values.
    package enum Outcome: Sendable {
        /// A code was sent (the start, `resendCode`).
        case codeRequired(CodeSent)
        /// The code was right; the new password goes with this continuation.
        case passwordRequired(Continuation)
        /// The password is changed; the token signs the user in (none when the server gave none).
        case completed(token: String?, correlationId: UUID)
    }

    package typealias Action = FlowAction<Outcome, Call>

    package var state = State.idle
    package static let idle = State.idle
    package static let done = State.done

    package init() {}

    // MARK: Steps

    /// `resetPassword(parameters:)`: an empty username is refused before anything is sent.
    package mutating func start(username: String, correlationId id: UUID) -> Action {
        begin(.start(correlationId: id), awaiting: .starting, unless: .ifEmpty(username, .invalidUsername, id))
    }

    /// `ResetPasswordCodeRequiredState.resendCode`.
    package mutating func resendCode(on continuation: Continuation) -> Action {
        begin(.challenge(continuation), awaiting: .resendingCode)
    }

    /// `ResetPasswordCodeRequiredState.submitCode`: an empty code is refused before anything is sent.
    package mutating func submitCode(_ code: String, on continuation: Continuation) -> Action {
        begin(.submitCode(code, continuation), awaiting: .verifyingCode, unless: .ifEmpty(code, .invalidCode, continuation.correlationId))
    }

    /// `ResetPasswordRequiredState.submitPassword`: an empty password is refused before anything is sent.
    package mutating func submitPassword(_ password: String, on continuation: Continuation) -> Action {
        let check = FlowFailure.ifEmpty(password, .invalidPassword, continuation.correlationId)
        return begin(.submitPassword(password, continuation), awaiting: .submittingPassword, unless: check)
    }

    // MARK: Answers

    /// `/resetpassword/v1.0/start` answered: an unknown user and a user without a password have
    /// their own kinds; anything else is general.
    package mutating func startAnswered(_ answer: NativeAuthOutcome<ContinuationTokenResponse>, correlationId id: UUID) -> Action {
        expect(.starting)
        switch answer {
        case .success(let body):
            return send(.challenge(Continuation(body.continuationToken, id)), awaiting: .sendingCode)
        case .apiError(let error) where error.error == .userNotFound:
            return fail(.keepingState(.userNotFound, error, id))
        case .apiError(let error) where error.error == .invalidRequest && error.firstCode == NativeAuthServerCode.userDoesNotHavePassword:
            return fail(.keepingState(.userDoesNotHavePassword, error, id))
        default:
            return fail(.keepingState(answer, id))
        }
    }

    /// `/resetpassword/v1.0/challenge` answered: it must send a code. After `resendCode`, as in
    /// MSAL, every answered failure ends the flow; only no answer at all keeps the state.
    package mutating func challengeAnswered(_ answer: NativeAuthOutcome<ChallengeResponse>, correlationId id: UUID) -> Action {
        precondition(state == .sendingCode || state == .resendingCode, "ResetPasswordMachine got a challenge answer while \(state)")
        if case .success(let challenge) = answer, let sent = challenge.codeSent(id) { return succeed(.codeRequired(sent)) }
        let ends = state == .resendingCode
        switch answer {
        case .success:
            let details = NativeAuthErrorDetails(message: "The server asked for a password instead of sending a code", correlationId: id)
            return fail(ends ? .endingFlow(.generalError, details) : .keepingState(.generalError, details))
        case .redirect, .apiError:
            return fail(ends ? .endingFlow(answer, id) : .keepingState(answer, id))
        case .failure:
            return fail(.keepingState(answer, id))
        }
    }

    /// `/resetpassword/v1.0/continue` with the code answered. A wrong code keeps the state; any
    /// other refusal ends the flow; no answer keeps it.
    package mutating func codeAnswered(_ answer: NativeAuthOutcome<ContinuationTokenResponse>, correlationId id: UUID) -> Action {
        expect(.verifyingCode)
        switch answer {
        case .success(let body):
            return succeed(.passwordRequired(Continuation(body.continuationToken, id)))
        case .apiError(let error) where error.error == .invalidGrant && error.suberror == .invalidOOBValue:
            return fail(.keepingState(.invalidCode, error, id))
        case .apiError, .redirect:
            return fail(.endingFlow(answer, id))
        case .failure:
            return fail(.keepingState(answer, id))
        }
    }

    /// `/resetpassword/v1.0/submit` answered: on success the machine asks for the first poll, at
    /// once. A password the policy refuses keeps the state; any other refusal ends the flow; no
    /// answer keeps it.
    package mutating func passwordAnswered(_ answer: NativeAuthOutcome<ResetPasswordSubmitResponse>, correlationId id: UUID) -> Action {
        expect(.submittingPassword)
        switch answer {
        case .success(let body):
            let polling = Polling(next: Continuation(body.continuationToken, id), interval: body.pollInterval)
            return send(.poll(polling.next, delay: nil), awaiting: .polling(polling, retriesLeft: Self.maxPollRetries))
        case .apiError(let error) where error.error == .invalidGrant && error.suberror?.isPasswordPolicyFailure == true:
            return fail(.keepingState(.invalidPassword, error, id))
        case .apiError, .redirect:
            return fail(.endingFlow(answer, id))
        case .failure:
            return fail(.keepingState(answer, id))
        }
    }

    /// `/resetpassword/v1.0/poll_completion` answered. Still in progress: poll again after the
    /// interval `/submit` gave, at most `maxPollRetries` more times. A password refused this late
    /// keeps the state, which goes on with the poll token; every other failure ends the flow.
    package mutating func pollAnswered(_ answer: NativeAuthOutcome<ResetPasswordPollResponse>, correlationId id: UUID) -> Action {
        guard case .polling(let polling, let retriesLeft) = state else {
            preconditionFailure("ResetPasswordMachine got a poll answer while \(state)")
        }
        switch answer {
        case .success(let body) where body.status == .succeeded:
            return succeed(.completed(token: body.continuationToken, correlationId: id))
        case .success(let body) where body.status == .failed:
            return fail(
                .endingFlow(.generalError, NativeAuthErrorDetails(message: "The password reset failed on the server", correlationId: id)))
        case .success where retriesLeft == 0:
            let message = "The password reset did not complete after \(Self.maxPollRetries + 1) checks"
            return fail(.endingFlow(.generalError, NativeAuthErrorDetails(message: message, correlationId: id)))
        case .success:
            return send(
                .poll(polling.next, delay: polling.interval), awaiting: .waiting(polling, retriesLeft: retriesLeft - 1, lastAnswer: id))
        case .apiError(let error) where error.error == .invalidGrant && error.suberror?.isPasswordPolicyFailure == true:
            // The password was refused late: a new password goes to /submit with the poll token (as MSAL does).
            var failure = FlowFailure.keepingState(.invalidPassword, error, id)
            failure.continuationToken = polling.next.token
            return fail(failure)
        default:
            return fail(.endingFlow(answer, id))
        }
    }

    /// The controller waited as asked; the next poll goes out.
    package mutating func waited() {
        guard case .waiting(let polling, let retriesLeft, _) = state else {
            preconditionFailure("ResetPasswordMachine waited while \(state)")
        }
        state = .polling(polling, retriesLeft: retriesLeft)
    }

    /// The wait before a poll was cancelled: the reset is given up, and so is the state's flow.
    package mutating func waitCancelled() -> Action {
        guard case .waiting(_, _, let lastAnswer) = state else {
            preconditionFailure("ResetPasswordMachine's wait was cancelled while \(state)")
        }
        let message = "The password reset was cancelled while waiting for the server"
        return fail(.endingFlow(.generalError, NativeAuthErrorDetails(message: message, correlationId: lastAnswer)))
    }
}
