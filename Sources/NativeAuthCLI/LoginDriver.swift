import Foundation
import MSAL

/// Takes a sign-in from one waiting step to the next: asks for (or takes from the options) what
/// the step needs and sends it. A wrong answer typed at a prompt is asked again; a wrong answer
/// given as an option ends the invocation with the sign-in kept for another try.
struct LoginDriver {
    let username: String
    let answers: Answers
    let reporter: Reporter
    let terminal: any Terminal

    func advance(_ step: PendingStep) async throws(CLIError) -> LoginOutcome {
        switch step {
        case .password(let state):
            let answer = try need(step, .password, prompt: "Password for \(username): ", secret: true)
            return try await send(step, answer) {
                PendingStep.after(try await state.submitPassword(password: answer.value))
            }
        case .code(let state, let sent):
            let answer = try need(step, .code, prompt: codePrompt(sent))
            if answer.value.isEmpty, answer.source == .prompt {
                return try await sdk {
                    let sent = try await state.resendCode()
                    reporter.note("A new code was sent to \(sent.sentTo).")
                    return .pending(.code(sent.newState, SentCode(sent)))
                }
            }
            return try await send(step, answer) {
                PendingStep.after(try await state.submitCode(code: answer.value))
            }
        case .mfaMethod(let methods, let state):
            let chosen = try choose(step, methods, heading: "A second factor is needed. Send a code to:")
            return try await requestMFA(chosen, methods: methods, on: state)
        case .mfaCode(let state, let method, let methods, let sent):
            let answer = try need(step, .code, prompt: codePrompt(sent))
            if answer.value.isEmpty, answer.source == .prompt, let method {
                return try await requestMFA(method, methods: methods, on: state)
            }
            return try await send(step, answer) {
                .signedIn(try await state.submitChallenge(challenge: answer.value))
            }
        case .registerMethod(let methods, let state):
            let chosen = try choose(step, methods, heading: "Register a second factor for \(username):")
            let contact = try need(step, .contact, prompt: contactPrompt(chosen))
            let parameters = MSALNativeAuthChallengeAuthMethodParameters(authMethod: chosen, verificationContact: contact.value)
            return try await send(step, contact) {
                switch try await state.challengeAuthMethod(parameters: parameters) {
                case .completed(let result): return .signedIn(result)
                case .verificationRequired(let sent):
                    let code = SentCode(sentTo: sent.sentTo, channel: sent.channelTargetType.value, codeLength: sent.codeLength)
                    return .pending(.registerCode(sent.newState, code))
                }
            }
        case .registerCode(let state, let sent):
            let answer = try need(step, .code, prompt: codePrompt(sent))
            return try await send(step, answer) {
                .signedIn(try await state.submitChallenge(challenge: answer.value))
            }
        case .v2Password(let state):
            let answer = try need(step, .password, prompt: "Password for \(username): ", secret: true)
            return try await send(step, answer) { try PendingStep.after(try await state.submitPassword(answer.value)) }
        case .v2Code(let state):
            return try await code(step, submit: state.submitCode, resend: state.resendCode)
        case .v2MFACode(let state):
            return try await code(step, submit: state.submitChallenge, resend: state.resendChallenge)
        case .v2RegisterCode(let state):
            return try await code(step, submit: state.submitChallenge, resend: state.resendChallenge)
        case .v2Method(let state):
            let heading = state.purpose == .mfa ? "A second factor is needed. Send a code to:" : "Choose how to sign in as \(username):"
            let chosen = try choose(step, state.authMethods, heading: heading)
            return try await sdk { try PendingStep.after(try await state.selectAuthMethod(chosen)) }
        case .v2RegisterMethod(let state):
            let chosen = try choose(step, state.authMethods, heading: "Register a second factor for \(username):")
            let contact = try need(step, .contact, prompt: contactPrompt(chosen))
            return try await send(step, contact) {
                try PendingStep.after(try await state.selectAuthMethod(chosen, verificationContact: contact.value))
            }
        }
    }

    /// A V2 code step: an empty line at the prompt asks for a new code, anything else is submitted.
    private func code(
        _ step: PendingStep, submit: (String) async throws -> MSALNativeAuthFlowResult,
        resend: () async throws -> MSALNativeAuthFlowResult
    ) async throws(CLIError) -> LoginOutcome {
        let answer = try need(step, .code, prompt: codePrompt(step.sent ?? SentCode(sentTo: username, channel: "email", codeLength: 8)))
        if answer.value.isEmpty, answer.source == .prompt {
            return try await sdk {
                let outcome = try PendingStep.after(try await resend())
                if let sent = outcome.pending?.sent { reporter.note("A new code was sent to \(sent.sentTo).") }
                return outcome
            }
        }
        return try await send(step, answer) { try PendingStep.after(try await submit(answer.value)) }
    }

    private func contactPrompt(_ method: MSALAuthMethod) -> String {
        method.channelTargetType.isSMSType ? "Phone number (for example +15550123): " : "Email address: "
    }

    private func requestMFA(_ method: MSALAuthMethod, methods: [MSALAuthMethod], on state: MFABaseState) async throws(CLIError)
        -> LoginOutcome
    {
        try await sdk {
            let sent = try await state.requestChallenge(authMethod: method)
            return .pending(.mfaCode(sent.newState, method: method, methods: methods, SentCode(sent)))
        }
    }

    private func codePrompt(_ sent: SentCode) -> String {
        "Code sent by \(sent.channel) to \(sent.sentTo) (\(sent.codeLength) digits; an empty line sends a new one): "
    }

    /// The answer `step` needs, or the error that ends this invocation with the sign-in saved.
    private func need(_ step: PendingStep, _ needs: PendingStep.Needs, prompt: String, secret: Bool = false) throws(CLIError) -> (
        value: String, source: Answers.Source
    ) {
        if let answer = answers.take(needs, prompt: prompt, secret: secret) { return answer }
        if var wrong = answers.lastWrong { // typed wrong, then the input ended
            wrong.keepsSavedFlow = true
            throw wrong
        }
        throw Self.waiting(step, username: username, needs: needs)
    }

    /// The method the option names, or the one picked from a numbered list.
    private func choose(_ step: PendingStep, _ methods: [MSALAuthMethod], heading: String) throws(CLIError) -> MSALAuthMethod {
        guard !methods.isEmpty else { throw CLIError(.failure, "the service offered no method for the second factor") }
        if methods.count == 1, !answers.has(.method), step.needs == .contact { return methods[0] }
        var prompt = heading + "\n"
        for (number, method) in zip(1..., methods) { prompt += "  \(number). \(describe(method))\n" }
        prompt += "Choose 1-\(methods.count): "
        while true {
            guard let answer = answers.take(.method, prompt: prompt) else {
                throw Self.waiting(step, username: username, needs: step.needs)
            }
            if let chosen = method(answer.value, in: methods) { return chosen }
            let problem = CLIError(
                .usage,
                "no method '\(answer.value)': choose \(methods.map { "\($0.channelTargetType.value) (\($0.id))" }.joined(separator: ", "))")
            if answer.source == .option { throw problem }
            reporter.note(problem.message)
        }
    }

    /// Sends an answer; a wrong one typed at a prompt gives the same step again.
    ///
    /// The closures throw untyped: a generic typed-throws closure here crashed the 6.3.1 optimizer
    /// (FunctionSignatureOpts) in release builds.
    private func send(
        _ step: PendingStep, _ answer: (value: String, source: Answers.Source), _ body: () async throws -> LoginOutcome
    ) async throws(CLIError) -> LoginOutcome {
        do {
            let outcome = try await body()
            answers.lastWrong = nil
            return outcome
        } catch {
            var mapped = ErrorMapping.any(error)
            let retry = mapped.code == .wrongCredentials || (mapped.code == .usage && step.needs == .contact)
            guard retry else { throw mapped }
            if answer.source == .prompt {
                reporter.note("\(mapped.message) Try again.")
                answers.lastWrong = mapped
                return .pending(step)
            }
            mapped.keepsSavedFlow = true
            mapped.message += "; the sign-in is kept: try again with \(step.needs.nextCommand)"
            throw mapped
        }
    }

    private func sdk(_ body: () async throws -> LoginOutcome) async throws(CLIError) -> LoginOutcome {
        do { return try await body() } catch { throw ErrorMapping.any(error) }
    }

    /// The sign-in waits for `needs`: the message and `--json` result that say how to go on.
    static func waiting(_ step: PendingStep, username: String, needs: PendingStep.Needs) -> CLIError {
        let sent = step.sent
        var what: String
        switch needs {
        case .username: what = "a username"
        case .password: what = "the password of \(username)"
        case .code: what = "the code sent by \(sent?.channel ?? "email") to \(sent?.sentTo ?? username)"
        case .method:
            var firstFactor = false
            if case .v2Method(let state) = step { firstFactor = state.purpose == .firstFactor }
            what =
                (firstFactor ? "a way to sign in: " : "a second factor: ")
                + step.methods.map { "\($0.channelTargetType.value) (\($0.loginHint ?? $0.id))" }.joined(separator: ", ")
        case .contact: what = "a second factor to register (\(step.methods.map(\.channelTargetType.value).joined(separator: " or ")))"
        }
        var error = CLIError(.needsInput, "the sign-in waits for \(what); continue with: \(needs.nextCommand)")
        error.waiting = WaitingFor(
            needs: needs.rawValue, username: username, sentTo: sent?.sentTo, channel: sent?.channel, codeLength: sent?.codeLength,
            methods: step.methods.map { WaitingFor.Method(id: $0.id, channel: $0.channelTargetType.value, hint: $0.loginHint) },
            next: needs.nextCommand)
        return error
    }
}
