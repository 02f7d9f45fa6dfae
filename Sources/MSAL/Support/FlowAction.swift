import Foundation

/// What a flow's machine (`SignUpMachine`, ...) tells its runner to do after an event: send the
/// next request, return the step's result, or throw the step's error.
///
/// `Call` names the requests that may follow; it is `Never` where the event always ends the step,
/// so the runner's `switch` has no `.call` case to write.
package enum FlowAction<Result, Call> {
    /// Send this request and feed its answer to the machine.
    case call(Call)
    /// The step succeeded with this result.
    case succeed(Result)
    /// The step failed; if `endsFlow`, record it on the state's lifecycle before throwing.
    case fail(FlowFailure)
}

/// A failed step before it becomes the step's public error class (`VerifyCodeError`, ...): the
/// error's kind and details, and whether the answer ended the flow of the state that sent the
/// request (see `StateLifecycle`).
package struct FlowFailure: Error, Sendable {
    package var kind: NativeAuthErrorKind
    package var details: NativeAuthErrorDetails
    package var endsFlow: Bool
    /// The token the state that sent the request goes on with, when the answer replaced it (a
    /// password the reset refuses while polling goes to `/submit` again with the poll token).
    package var continuationToken: String?

    package init(
        _ kind: NativeAuthErrorKind, _ details: NativeAuthErrorDetails, endsFlow: Bool = false, continuationToken: String? = nil
    ) {
        self.kind = kind
        self.details = details
        self.endsFlow = endsFlow
        self.continuationToken = continuationToken
    }

    /// The state's flow goes on: the user may try again on it.
    package static func retry(_ kind: NativeAuthErrorKind, _ details: NativeAuthErrorDetails) -> FlowFailure {
        FlowFailure(kind, details, endsFlow: false)
    }

    /// The answer ended the state's flow.
    package static func ending(_ kind: NativeAuthErrorKind, _ details: NativeAuthErrorDetails) -> FlowFailure {
        FlowFailure(kind, details, endsFlow: true)
    }

    /// What a runner does with a failure: ends `lifecycle` when the failure ended the flow, and
    /// hands the failure on to be thrown.
    package func recorded(on lifecycle: StateLifecycle?) -> FlowFailure {
        if endsFlow { lifecycle?.end() }
        return self
    }
}

extension MSALNativeAuthError {
    /// The public error for `failure`, of the class the step throws.
    package convenience init(_ failure: FlowFailure) {
        self.init(type: failure.kind, failure.details)
    }
}

/// The checks every flow makes before it sends a user's input.
package enum LocalCheck {
    /// An empty one-time code: `invalidCode`, before anything is sent.
    package static func code(_ code: String, correlationId: UUID) -> FlowFailure? {
        empty(code, .invalidCode, NativeAuthErrorMessage.invalidCode, correlationId)
    }

    /// An empty password: `invalidPassword`, before anything is sent.
    package static func password(_ password: String, correlationId: UUID) -> FlowFailure? {
        empty(password, .invalidPassword, NativeAuthErrorMessage.invalidPassword, correlationId)
    }

    /// An empty username: `invalidUsername`, before anything is sent.
    package static func username(_ username: String, correlationId: UUID) -> FlowFailure? {
        empty(username, .invalidUsername, NativeAuthErrorMessage.invalidUsername, correlationId)
    }

    /// `kind` with MSAL's fixed `message` when `input` is empty; the state stays usable.
    private static func empty(_ input: String, _ kind: NativeAuthErrorKind, _ message: String, _ correlationId: UUID) -> FlowFailure? {
        input.isEmpty ? .retry(kind, NativeAuthErrorDetails(message: message, correlationId: correlationId)) : nil
    }
}
