import Foundation

/// Where a sign-up's attributes go and what is sent along with the app's: the values the SDK
/// already knows (the username as `email`, the app's attributes) for ids the answer asked for.
package struct V2AttributeForm: Sendable, Equatable {
    package var submit: URL
    package var prefill: [String: V2AttributeValue]

    package init(submit: URL, prefill: [String: V2AttributeValue]) {
        self.submit = submit
        self.prefill = prefill
    }
}

/// The native auth V2 sign-up and password reset rules of the flow machine (docs/protocol.md#the-journeys,
/// docs/usage.md#v2-sign-up-and-password-reset):
/// - sign-up autofill: a `collectAttributes` answer is submitted at once when every required id it
///   asks for is known (`email` = the username, the app's attributes); otherwise the password is asked
///   for when `password` is among the ids (`signUpPasswordRequired`), else the app's attributes;
///   an id already sent in the step and asked again goes to the app;
/// - nothing asked: a `collectAttributes` answer with an empty list is submitted at once, empty, so
///   the flow never stops on a step the app cannot leave; a second empty list in the same step is a
///   general error (docs/decisions.md#native-auth-v2). An attributes state may also submit nothing;
/// - reset: `update` asks the new password, sent with PUT; `poll` is polled at once, then every
///   `pollInterval` (clamped 250 ms–5 s) or 1.5 s, at most 5 times;
/// - inline recovery: a sign-in password state's `recover` link starts the same cycle inside the sign-in;
/// - `state: continue` in a sign-up or reset ends in a sign-in-after outcome; its `signIn` resumes.
extension V2FlowMachine {
    static let maximumPolls = 5
    static let defaultPollDelay = 1.5

    /// The ids the machine knows by itself in a sign-up.
    var knownAttributes: [String: V2AttributeValue] {
        var known = attributes
        if !username.isEmpty { known["email"] = .string(username) }
        return known
    }

    // MARK: Steps

    /// An attributes state's `submitAttributes`: the app's values over the prefill.
    package mutating func submitAttributes(_ values: [String: V2AttributeValue], form: V2AttributeForm, on continuation: Continuation)
        -> Action
    {
        let all = form.prefill.merging(values) { _, app in app }
        let waiting = State.interacting(.submitAttributes, interaction(.firstFactor, sent: Set(all.keys)))
        return begin(.interact(form.submit, .attributes(all), continuation), awaiting: waiting)
    }

    /// A sign-up password state's `submitPassword`: the `password` attribute with the prefill; an empty password is refused.
    package mutating func submitSignUpPassword(_ password: String, form: V2AttributeForm, on continuation: Continuation) -> Action {
        let check = FlowFailure.ifEmpty(password, .invalidPassword, continuation.correlationId)
        var all = form.prefill
        all["password"] = .string(password)
        let waiting = State.interacting(.submitAttributes, interaction(.firstFactor, sent: Set(all.keys)))
        return begin(.interact(form.submit, .attributes(all), continuation), awaiting: waiting, unless: check)
    }

    /// `submitNewPassword`: PUT to the `update` link; an empty password is refused before anything is sent.
    package mutating func submitNewPassword(_ password: String, verification: V2Verification, on continuation: Continuation) -> Action {
        let check = FlowFailure.ifEmpty(password, .invalidPassword, continuation.correlationId)
        return begin(
            .interact(verification.submit, .newPassword(password), continuation),
            awaiting: .interacting(.submitNewPassword, interaction(.recovery)), unless: check)
    }

    /// Inline recovery: posts the password method's `recover` link.
    package mutating func recover(_ link: URL, on continuation: Continuation) -> Action {
        begin(.interact(link, .tokenOnly, continuation), awaiting: .interacting(.recover, interaction(.recovery)))
    }

    /// A sign-in-after state's `signIn`: the resume, then the token request with this machine's scopes and claims.
    package mutating func signInAfter(_ link: URL?, on continuation: Continuation) -> Action {
        begin(.resume(link, continuation), awaiting: .resuming(.signInAfter))
    }

    // MARK: Answers

    /// `collectAttributes`: autofill, else the password or the attributes state.
    mutating func collected(
        _ descriptors: [V2AttributeDescriptor], submit: URL, _ next: Continuation, step: Step, context: Interaction
    ) -> Action {
        guard scenario == .signUp, case .signUp(let sent, let submittedNothing) = context.journey else {
            return fail(Self.general("The service asked for attributes outside a sign-up", next.correlationId))
        }
        var context = context
        guard !descriptors.isEmpty else {
            guard !submittedNothing else {
                return fail(Self.general("The service asked again for attributes without naming any", next.correlationId))
            }
            context.journey = .signUp(sent: sent, submittedNothing: true)
            return send(.interact(submit, .attributes([:]), next), awaiting: .interacting(.submitAttributes, context))
        }
        let asked = Set(descriptors.map(\.id))
        let prefill = knownAttributes.filter { asked.contains($0.key) && !sent.contains($0.key) }
        let missing = descriptors.filter { $0.required && prefill[$0.id] == nil }
        let form = V2AttributeForm(submit: submit, prefill: prefill)
        if missing.isEmpty, !prefill.isEmpty {
            context.journey = .signUp(sent: sent.union(prefill.keys), submittedNothing: submittedNothing)
            return send(.interact(submit, .attributes(prefill), next), awaiting: .interacting(.submitAttributes, context))
        }
        if asked.contains("password"), prefill["password"] == nil { return succeed(.signUpPasswordRequired(form, next)) }
        return succeed(.attributesRequired(descriptors, form, next))
    }

    /// `poll`: at once the first time, then after the interval; a sixth is a general error.
    mutating func polled(_ link: URL, intervalMilliseconds: Int?, _ next: Continuation, step: Step, context: Interaction) -> Action {
        guard context.polls < Self.maximumPolls else {
            return fail(
                .refusal(
                    .generalError,
                    NativeAuthErrorDetails(
                        message: "The password update did not finish after \(Self.maximumPolls) polls", correlationId: next.correlationId)))
        }
        let delay = context.polls == 0 ? 0 : intervalMilliseconds.map { Double(min(max($0, 250), 5000)) / 1000 } ?? Self.defaultPollDelay
        var context = context
        context.polls += 1
        return send(.poll(link, next, delay: delay), awaiting: .interacting(step, context))
    }

    /// The wait before a poll was cancelled: the flow ends.
    mutating func pollCancelled(correlationId id: UUID) -> Action {
        let message = "The password reset was cancelled while polling"
        return fail(.refusal(.generalError, NativeAuthErrorDetails(message: message, correlationId: id)))
    }
}
