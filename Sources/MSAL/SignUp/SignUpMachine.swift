import Foundation

/// Every rule of the sign-up flow in one value (docs/protocol.md#sign-up,
/// docs/error-mapping.md#sign-up-start and #sign-up-states): what is checked before a request, which answer of
/// `/signup/v1.0/start`, `/challenge` and `/continue` leads to which request or outcome, which to
/// which error, and which error ends the flow of the state that sent the request.
///
/// It sends nothing and knows no public state: `SignUpController` runs it as `SignInController`
/// runs `SignInMachine`.
package struct SignUpMachine: FlowMachine {
    package enum State: Sendable, Equatable {
        /// A step is about to begin.
        case idle
        /// `signUp(parameters:)`: waiting for `/signup/v1.0/start`.
        case starting
        /// `signUp(parameters:)`: waiting for the challenge that sends the first code; a failure
        /// that says nothing of its own carries the start's correlation id.
        case sendingCode(startCorrelationId: UUID)
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

    /// What `/signup/v1.0/continue` is sent with.
    package enum Grant: Sendable, Equatable {
        case oob(code: String)
        case password(String)
        /// The attributes as JSON.
        case attributes(String)
    }

    /// The requests of the sign-up flow.
    package enum Call: Sendable, Equatable {
        /// `/signup/v1.0/start` for `username`.
        case start(username: String, password: String?, attributes: String?, correlationId: UUID)
        /// `/signup/v1.0/challenge` with this token.
        case challenge(Continuation)
        /// `/signup/v1.0/continue` with this token.
        case continueSignUp(Grant, Continuation)
    }

    /// How a sign-up step ends, in plain values.
    package enum Outcome: Sendable {
        /// A code was sent (the start, `resendCode`).
        case codeRequired(CodeSent)
        /// The server refused these attributes (the start; `submitAttributes`, whose state takes
        /// corrected values).
        case attributesInvalid([String])
        /// The email is verified; the user flow needs a password next.
        case passwordRequired(Continuation)
        /// The user flow needs these attributes next.
        case attributesRequired([MSALNativeAuthRequiredAttribute], Continuation)
        /// The account exists; the token signs the user in (none when the server gave none).
        case completed(token: String?, correlationId: UUID)
    }

    package typealias Action = FlowAction<Outcome, Call>

    package var state = State.idle
    package static let idle = State.idle
    package static let done = State.done

    package init() {}

    // MARK: Steps

    /// `signUp(parameters:)`: an empty username, an empty password the app supplied, or attributes
    /// that are no JSON object are refused before anything is sent.
    package mutating func start(username: String, password: String?, attributes: Result<String?, SetupError>, correlationId id: UUID)
        -> Action
    {
        let checks = [
            FlowFailure.ifEmpty(username, .invalidUsername, id), password.flatMap { .ifEmpty($0, .invalidPassword, id) },
            Self.unencodable(attributes, id),
        ]
        let call = Call.start(username: username, password: password, attributes: try? attributes.get(), correlationId: id)
        return begin(call, awaiting: .starting, unless: checks[0], checks[1], checks[2])
    }

    /// `SignUpCodeRequiredState.submitCode`: an empty code is refused before anything is sent.
    package mutating func submitCode(_ code: String, on continuation: Continuation) -> Action {
        let check = FlowFailure.ifEmpty(code, .invalidCode, continuation.correlationId)
        return begin(.continueSignUp(.oob(code: code), continuation), awaiting: .verifyingCode, unless: check)
    }

    /// `SignUpCodeRequiredState.resendCode`.
    package mutating func resendCode(on continuation: Continuation) -> Action {
        begin(.challenge(continuation), awaiting: .resendingCode)
    }

    /// `SignUpPasswordRequiredState.submitPassword`: an empty password is refused before anything
    /// is sent.
    package mutating func submitPassword(_ password: String, on continuation: Continuation) -> Action {
        let check = FlowFailure.ifEmpty(password, .invalidPassword, continuation.correlationId)
        return begin(.continueSignUp(.password(password), continuation), awaiting: .verifyingPassword, unless: check)
    }

    /// `SignUpAttributesRequiredState.submitAttributes`: attributes that are no JSON object are
    /// refused before anything is sent; none at all go as `{}`.
    package mutating func submitAttributes(_ attributes: Result<String?, SetupError>, on continuation: Continuation) -> Action {
        let call = Call.continueSignUp(.attributes((try? attributes.get()) ?? "{}"), continuation)
        return begin(call, awaiting: .verifyingAttributes, unless: Self.unencodable(attributes, continuation.correlationId))
    }

    /// Attributes that could not be made JSON: a general error with the reason.
    private static func unencodable(_ attributes: Result<String?, SetupError>, _ id: UUID) -> FlowFailure? {
        guard case .failure(let error) = attributes else { return nil }
        return .keepingState(.generalError, NativeAuthErrorDetails(message: error.message, correlationId: id))
    }

    // MARK: Answers

    /// `/signup/v1.0/start` answered: the password policy, an existing user and a refused username
    /// have their own kinds; refused attributes are an outcome; anything else is general.
    package mutating func startAnswered(_ answer: NativeAuthOutcome<ContinuationTokenResponse>, correlationId id: UUID) -> Action {
        expect(.starting)
        switch answer {
        case .success(let body):
            return send(.challenge(Continuation(body.continuationToken, id)), awaiting: .sendingCode(startCorrelationId: id))
        case .apiError(let error)
        where error.error == .invalidGrant && error.suberror == .attributeValidationFailed && !error.invalidAttributes.isEmpty:
            return succeed(.attributesInvalid(error.invalidAttributes))
        case .apiError(let error) where error.error == .invalidGrant && error.suberror?.isPasswordPolicyFailure == true:
            return fail(.keepingState(.invalidPassword, error, id))
        case .apiError(let error) where error.error == .userAlreadyExists:
            return fail(.keepingState(.userAlreadyExists, error, id))
        case .apiError(let error)
        where error.error == .invalidRequest && error.firstCode == NativeAuthServerCode.invalidParameter
            && error.errorDescription?.contains("username parameter is empty or not valid") == true:
            return fail(.keepingState(.invalidUsername, error, id))
        default:
            return fail(.keepingState(answer, id))
        }
    }

    /// `/signup/v1.0/challenge` answered.
    ///
    /// After the start it must send a code. After an accepted code it must ask for the password,
    /// and every failure ends the flow (the server has spent the code's token). After `resendCode`
    /// a refusal or no answer keeps the state; a redirect or a password prompt ends the flow.
    package mutating func challengeAnswered(_ answer: NativeAuthOutcome<ChallengeResponse>, correlationId id: UUID) -> Action {
        let sent: CodeSent? = if case .success(let challenge) = answer { challenge.codeSent(id) } else { nil }
        switch (state, answer) {
        case (.sendingCode, .success), (.resendingCode, .success):
            if let sent { return succeed(.codeRequired(sent)) }
            if case .sendingCode(let startId) = state {
                return fail(
                    .keepingState(
                        .generalError,
                        NativeAuthErrorDetails(message: "The server did not send a verification code", correlationId: startId)))
            }
            return fail(.endingFlow(.generalError, Self.unexpected("asked for a password instead of sending a new code", id)))
        case (.requestingPassword, .success(let challenge)):
            guard sent == nil else {
                return fail(.endingFlow(.generalError, Self.unexpected("asked for another code instead of a password", id)))
            }
            return succeed(.passwordRequired(Continuation(challenge.continuationToken, id)))
        case (.sendingCode, _), (.resendingCode, .apiError), (.resendingCode, .failure):
            return fail(.keepingState(answer, id))
        case (.requestingPassword, _), (.resendingCode, .redirect):
            return fail(.endingFlow(answer, id))
        default:
            preconditionFailure("SignUpMachine got a challenge answer while \(state)")
        }
    }

    /// `/signup/v1.0/continue` answered.
    ///
    /// Success, more attributes, or (after the code) a credential to ask for move the flow on. No
    /// answer at all keeps the state. A refusal keeps it when the input may be corrected: a wrong
    /// code (or a password-policy answer) after the code; a password the policy refuses, or an
    /// `invalid_oob_value`, after the password; refused values after the attributes (the same
    /// state takes corrected ones). Any other refusal ends the flow.
    package mutating func continued(_ answer: NativeAuthOutcome<SignUpCompletedResponse>, correlationId id: UUID) -> Action {
        precondition(
            [.verifyingCode, .verifyingPassword, .verifyingAttributes].contains(state), "SignUpMachine got /continue while \(state)")
        // A refusal without a description reads as the input the step sent.
        let fallback: String? =
            switch state {
            case .verifyingCode: NativeAuthErrorMessage.invalidCode
            case .verifyingPassword: NativeAuthErrorMessage.invalidPassword
            default: nil
            }
        switch answer {
        case .success(let body):
            return succeed(.completed(token: body.continuationToken, correlationId: id))
        case .redirect:
            // Not produced with honoursRedirect: false; a redirect body at continue counts as completion.
            return succeed(.completed(token: nil, correlationId: id))
        case .apiError(let error)
        where error.error == .attributesRequired && error.continuationToken != nil && !error.requiredAttributes.isEmpty:
            let attributes = error.requiredAttributes.map(MSALNativeAuthRequiredAttribute.init)
            return succeed(.attributesRequired(attributes, Continuation(error.continuationToken ?? "", id)))
        case .apiError(let error) where error.error == .credentialRequired && error.continuationToken != nil:
            guard state == .verifyingCode else {
                return fail(
                    .endingFlow(
                        .generalError, NativeAuthErrorDetails(message: "The server asked for a credential again", correlationId: id)))
            }
            // The code was accepted and the server moved on: a failure from here ends the flow.
            return send(.challenge(Continuation(error.continuationToken ?? "", id)), awaiting: .requestingPassword)
        case .apiError(let error) where error.error == .invalidGrant:
            let suberror = error.suberror
            switch state {
            case .verifyingCode where suberror == .invalidOOBValue || suberror?.isPasswordPolicyFailure == true:
                return fail(.keepingState(.invalidCode, error, id))
            case .verifyingPassword where suberror?.isPasswordPolicyFailure == true:
                return fail(.keepingState(.invalidPassword, error, id))
            case .verifyingPassword where suberror == .invalidOOBValue:
                return fail(.keepingState(.generalError, error, id, fallback: fallback))
            case .verifyingAttributes where suberror == .attributeValidationFailed && !error.invalidAttributes.isEmpty:
                return succeed(.attributesInvalid(error.invalidAttributes))
            default:
                return fail(.endingFlow(.generalError, error, id, fallback: fallback))
            }
        case .apiError(let error):
            return fail(.endingFlow(.generalError, error, id, fallback: fallback))
        case .failure:
            // Nothing reached the server's decision: the input may be sent again.
            return fail(.keepingState(answer, id))
        }
    }

    private static func unexpected(_ what: String, _ id: UUID) -> NativeAuthErrorDetails {
        NativeAuthErrorDetails(message: "The server \(what)", correlationId: id)
    }
}
