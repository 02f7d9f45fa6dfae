import Foundation

/// What a flow's machine (`SignInMachine`, ...) tells its controller after an event: send the next
/// request, finish the step with a value, or fail it.
///
/// `Call` names the requests of the flow. `run(_:)` sends them until the step ends; the finished
/// action (`Call` is then `Never`) becomes the step's result or typed error in one call,
/// `get(_:ending:)`.
package enum FlowAction<Result, Call> {
    /// Send this request and feed its answer to the machine.
    case call(Call)
    /// The step succeeded with this result.
    case succeed(Result)
    /// The step failed.
    case fail(FlowFailure)
}

extension FlowAction {
    /// Sends each request this action asks for through `perform`, which feeds the answer to the
    /// machine and returns what it decides next, until the step ends.
    package func run(_ perform: (Call) async -> FlowAction) async -> FlowAction<Result, Never> {
        var action = self
        while true {
            switch action {
            case .call(let call): action = await perform(call)
            case .succeed(let result): return .succeed(result)
            case .fail(let failure): return .fail(failure)
            }
        }
    }
}

extension FlowAction where Call == Never {
    /// The step's result, or its failure as the step's public error. A failure that ends the flow
    /// first ends `lifecycle`, the lifecycle of the state that sent the request (see `StateLifecycle`).
    package func get<Failure: Error>(_ error: (FlowFailure) -> Failure, ending lifecycle: StateLifecycle? = nil) throws(Failure) -> Result {
        switch self {
        case .succeed(let result):
            return result
        case .fail(let failure):
            if failure.endsFlow { lifecycle?.end() }
            throw error(failure)
        }
    }
}

/// A flow's machine: a value whose `state` says which answer it waits for and carries what it needs
/// to read that answer. Every branch of an event method leaves through `send`, `succeed` or `fail`,
/// which set the state the machine goes on in.
package protocol FlowMachine {
    associatedtype State: Equatable
    var state: State { get set }
    /// The state of a machine whose step has not begun.
    static var idle: State { get }
    /// The state of a machine whose step has its result or its error.
    static var done: State { get }
}

extension FlowMachine {
    /// Begins a step: refuses it with the first of `checks` that failed (the checks of the user's
    /// input before anything is sent), else sends `call` and waits in `next`.
    package mutating func begin<Result, Call>(
        _ call: Call, awaiting next: State, unless checks: FlowFailure?...
    ) -> FlowAction<Result, Call> {
        expect(Self.idle)
        if let failure = checks.lazy.compactMap({ $0 }).first { return fail(failure) }
        return send(call, awaiting: next)
    }

    /// Waits in `next` for the answer to `call`.
    package mutating func send<Result, Call>(_ call: Call, awaiting next: State) -> FlowAction<Result, Call> {
        state = next
        return .call(call)
    }

    /// Ends the step with `result`.
    package mutating func succeed<Result, Call>(_ result: Result) -> FlowAction<Result, Call> {
        state = Self.done
        return .succeed(result)
    }

    /// Ends the step with `failure`.
    package mutating func fail<Result, Call>(_ failure: FlowFailure) -> FlowAction<Result, Call> {
        state = Self.done
        return .fail(failure)
    }

    /// Feeding a machine an answer it does not wait for is a programming error of its controller.
    package func expect(_ expected: State) {
        precondition(state == expected, "\(Self.self) got an answer for \(expected) while \(state)")
    }
}

/// A failed step before it becomes the step's public error class (`VerifyCodeError`, ...): the
/// error's kind and details, and whether the answer ended the flow of the state that sent the
/// request (see `StateLifecycle`). A step that starts a flow has no state yet: its failures are
/// spelled `keepingState`, with nothing to keep.
package struct FlowFailure: Error, Sendable {
    package var kind: NativeAuthErrorKind
    package var details: NativeAuthErrorDetails
    package var endsFlow: Bool
    /// The token the state that sent the request goes on with, when the answer replaced it (a
    /// password the reset refuses while polling goes to `/submit` again with the poll token).
    package var continuationToken: String?

    /// The state's flow goes on: the user may try again on it.
    package static func keepingState(_ kind: NativeAuthErrorKind, _ details: NativeAuthErrorDetails) -> FlowFailure {
        FlowFailure(kind: kind, details: details, endsFlow: false)
    }

    /// The answer ended the state's flow.
    package static func endingFlow(_ kind: NativeAuthErrorKind, _ details: NativeAuthErrorDetails) -> FlowFailure {
        FlowFailure(kind: kind, details: details, endsFlow: true)
    }

    /// A failure of a flow whose states have no lifecycle (native auth V2: every state is a snapshot
    /// and the service decides, docs/architecture.md#native-auth-v2), so it says nothing of the flow.
    package static func refusal(_ kind: NativeAuthErrorKind, _ details: NativeAuthErrorDetails) -> FlowFailure {
        FlowFailure(kind: kind, details: details, endsFlow: false)
    }

    /// A server error of `kind`; the message is the server's description, else `fallback`, else
    /// MSAL's text for `kind`. The state's flow goes on.
    package static func keepingState(
        _ kind: NativeAuthErrorKind, _ error: NativeAuthAPIError, _ id: UUID, fallback: String? = nil
    ) -> FlowFailure {
        .keepingState(kind, NativeAuthErrorDetails(error, correlationId: id, fallback: fallback ?? kind.message))
    }

    /// A server error of `kind` (as `keepingState(_:_:_:fallback:)`) that ended the state's flow.
    package static func endingFlow(_ kind: NativeAuthErrorKind, _ error: NativeAuthAPIError, _ id: UUID, fallback: String? = nil)
        -> FlowFailure
    {
        .endingFlow(kind, NativeAuthErrorDetails(error, correlationId: id, fallback: fallback ?? kind.message))
    }

    /// The endings every step shares for an answer it has no rule of its own for: a redirect is
    /// browser-required, a server error general (its description, else `fallback`), no usable
    /// answer general. The state's flow goes on.
    package static func keepingState<Body>(_ answer: NativeAuthOutcome<Body>, _ id: UUID, fallback: String? = nil) -> FlowFailure {
        let (kind, details) = shared(answer, id, fallback: fallback)
        return .keepingState(kind, details)
    }

    /// The shared endings (as `keepingState(_:_:fallback:)`) for an answer that ended the state's flow.
    package static func endingFlow<Body>(_ answer: NativeAuthOutcome<Body>, _ id: UUID, fallback: String? = nil) -> FlowFailure {
        let (kind, details) = shared(answer, id, fallback: fallback)
        return .endingFlow(kind, details)
    }

    private static func shared<Body>(_ answer: NativeAuthOutcome<Body>, _ id: UUID, fallback: String?) -> (
        NativeAuthErrorKind, NativeAuthErrorDetails
    ) {
        switch answer {
        case .redirect(let reason):
            (.browserRequired, NativeAuthErrorDetails(redirectReason: reason, correlationId: id))
        case .apiError(let error):
            (.generalError, NativeAuthErrorDetails(error, correlationId: id, fallback: fallback ?? NativeAuthErrorMessage.generalError))
        case .failure(let failure):
            (.generalError, NativeAuthErrorDetails(failure, correlationId: id))
        case .success:
            // Each machine reads the successes it expects before this; another one is no use to the step.
            (.generalError, NativeAuthErrorDetails(message: "The server's answer does not fit this step", correlationId: id))
        }
    }

    /// `kind` with MSAL's text for it when `input` is empty: the check before a user's input is
    /// sent. The state stays usable.
    package static func ifEmpty(_ input: String, _ kind: NativeAuthErrorKind, _ id: UUID) -> FlowFailure? {
        input.isEmpty ? .keepingState(kind, NativeAuthErrorDetails(message: kind.message, correlationId: id)) : nil
    }
}

extension MSALNativeAuthError {
    /// The public error for `failure`, of the class the step throws.
    package convenience init(_ failure: FlowFailure) {
        self.init(type: failure.kind, failure.details)
    }
}

/// A continuation token and the correlation id of the answer that issued it: what a machine hands
/// its controller to make the next public state from.
package struct Continuation: Sendable, Equatable {
    package var token: String
    package var correlationId: UUID

    package init(_ token: String, _ correlationId: UUID) {
        self.token = token
        self.correlationId = correlationId
    }
}

/// A one-time code was sent: the continuation to submit it on, and where it went.
package struct CodeSent: Sendable, Equatable {
    package var next: Continuation
    package var sentTo: String
    package var channel: String
    package var codeLength: Int
}

extension ChallengeResponse {
    /// The token the flow goes on with.
    package var continuationToken: String {
        switch self {
        case .password(let token), .oob(let token, _, _, _, _): token
        }
    }

    /// The code this challenge sent, with the correlation id of its answer; nil for a password prompt.
    package func codeSent(_ id: UUID) -> CodeSent? {
        guard case .oob(let token, let label, let channel, let codeLength, _) = self else { return nil }
        return CodeSent(next: Continuation(token, id), sentTo: label, channel: channel, codeLength: codeLength)
    }
}

extension Continuation: CustomStringConvertible, CustomDebugStringConvertible {
    /// The correlation id alone: a machine state printed in a precondition's message (a reset's
    /// polling state, a code sent) never shows its continuation token.
    package var description: String { "Continuation(correlationId: \(correlationId))" }
    package var debugDescription: String { description }
}
