import Foundation
import MSAL

/// Sign Up and Reset Password through native auth V2 (`--v2`, experimental): the steps only these two
/// flows have, on top of the sign-in mapping in DemoController+V2.swift (codes, MFA and registration
/// are shared). Sign-up: the email's code, the password, the attributes the service describes, then
/// the state's `signIn`. Reset: the recovery method (a picker when there are several), its code, the
/// new password, MFA when the service asks, then the state's `signIn`. Both end in
/// `onSignInCompleted`, as a V2 sign-in does.
extension DemoController {
    // MARK: Starting

    /// The Sign Up button with `--v2`: MSAL 2.18.1's parameters (no password: the service asks for it
    /// after the code, in the password dialog; the email is given by the SDK as the `email` attribute).
    func signUpV2Pressed() {
        guard !model.email.isEmpty else {
            showResultText("Email not set")
            return
        }
        showResultText("Signing up...")
        v2Scenario = .signUp
        let username = model.email
        let nativeAuth = nativeAuth
        runV2(atStart: true) { () async throws(MSALNativeAuthFlowError) in
            try await nativeAuth.signUpV2(parameters: MSALNativeAuthSignUpParametersV2(username: username))
        }
    }

    /// The Reset Password button with `--v2`.
    func resetPasswordV2Pressed() {
        guard !model.email.isEmpty else {
            showResultText("Email not set")
            return
        }
        showResultText("Resetting password...")
        v2Scenario = .passwordReset
        let username = model.email
        let nativeAuth = nativeAuth
        runV2(atStart: true) { () async throws(MSALNativeAuthFlowError) in
            try await nativeAuth.resetPasswordV2(parameters: MSALNativeAuthResetPasswordParametersV2(username: username))
        }
    }

    // MARK: Results onto the dialogs

    /// The results of sign-up and reset that differ from sign-in's; false for the others
    /// (`onSignInV2Result` shows them).
    func onSignUpOrResetV2Result(_ result: MSALNativeAuthFlowResult, atStart: Bool) -> Bool {
        switch result {
        case .attributesRequired(let state):
            v2State = state
            showResultText("A few more details are needed.")
            showPrompt(Self.attributesPrompt(state.attributes))
        case .passwordRequired(let state) where state.scenario == .signUp && !atStart && v2Scenario == .signUp:
            v2State = state
            showResultText("Email verified. Choose a password.")
            showPrompt(Self.passwordPrompt(.signUpPassword, title: "Choose a password", label: "Password"))
        case .passwordRequired(let state) where state.scenario == .signUp:
            // The address already has an account with a password: the sign-up signs into it.
            v2State = state
            v2Scenario = .signIn
            showResultText("This email already has an account. Enter its password to sign in.")
            showPrompt(Self.passwordPrompt(.signInPassword, title: "Enter your password", label: "Password"))
        case .authMethodSelectionRequired(let state) where state.purpose == .existingAccount:
            // The sign-up signs into the existing account: from here on its steps are a sign-in's.
            v2State = state
            v2Scenario = .signIn
            showResultText("This email already has an account. Choose how to sign in.")
            showPrompt(Self.signInMethodPrompt(state.authMethods))
        case .authMethodSelectionRequired(let state) where state.purpose == .recovery:
            v2State = state
            showResultText("Choose where to send a code to reset your password.")
            showPrompt(Self.recoveryMethodPrompt(state.authMethods))
        case .newPasswordRequired(let state):
            v2State = state
            showResultText("Code verified. Choose a new password.")
            showPrompt(Self.passwordPrompt(.resetPassword, title: "Choose a new password", label: "New password"))
        case .signInAfterSignUp(let state):
            signInAfterV2("Signed up. Signing in...") { () async throws(MSALNativeAuthFlowError) in try await state.signIn() }
        case .signInAfterResetPassword(let state):
            signInAfterV2("Password reset. Signing in...") { () async throws(MSALNativeAuthFlowError) in try await state.signIn() }
        default:
            return false
        }
        return true
    }

    /// A finished sign-up or reset: the dialog closes and the state's `signIn` runs at once; its
    /// result (tokens, or a step such as MFA) comes back as a sign-in's does.
    private func signInAfterV2(
        _ message: String, _ signIn: @escaping @MainActor () async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult
    ) {
        closePrompt()
        clearFlowStates()
        showResultText(message)
        v2Scenario = .signIn
        runV2(signIn)
    }

    /// The kind of code dialog for a code sent in `scenario`.
    nonisolated static func codeKind(_ scenario: MSALNativeAuthFlowScenario) -> Prompt.Kind {
        switch scenario {
        case .signUp: .signUpCode
        case .passwordReset: .resetCode
        default: .signInCode
        }
    }

    /// A refusal at the start of a sign-up or reset, in the result view with V1's words.
    func onSignUpOrResetV2StartError(_ error: MSALNativeAuthFlowError) {
        let description = error.errorDescription ?? "No error description"
        if v2Scenario == .signUp {
            if error.isUserAlreadyExists {
                showResultText("Unable to sign up: User already exists")
            } else if error.isInvalidUsername {
                showResultText("Unable to sign up: The username is invalid")
            } else {
                showResultText("Error while signing up: \(description)")
            }
        } else if error.isUserNotFound {
            showResultText("Unable to reset password: User not found")
        } else if error.isUserDoesNotHavePassword {
            showResultText("Unable to reset password: This account signs in with email codes and has no password")
        } else {
            showResultText("\(Self.errorPrefix(v2Scenario)): \(description)")
        }
    }

    /// The start of an error line for `scenario` (as V1 words it).
    nonisolated static func errorPrefix(_ scenario: MSALNativeAuthFlowScenario) -> String {
        switch scenario {
        case .signUp: "Error while signing up"
        case .passwordReset: "Error while resetting password"
        default: "Error while signing in"
        }
    }

    /// What a flow of `scenario` is doing, for the browser offer ("Signing up needs a web browser").
    nonisolated static func doing(_ scenario: MSALNativeAuthFlowScenario) -> String {
        switch scenario {
        case .signUp: "Signing up"
        case .passwordReset: "Resetting the password"
        default: "Signing in"
        }
    }

    /// The recovery picker: where the reset code goes.
    nonisolated static func recoveryMethodPrompt(_ methods: [MSALAuthMethod]) -> Prompt {
        Prompt(
            kind: .recoveryMethod, title: "Reset password: where should the code go?", options: methods.map(option), selected: 0,
            optionsSubmit: true, fields: [], buttons: [.cancel], message: "Enter, Space or a click sends a code there.")
    }

    // MARK: Attributes

    /// The attributes dialog from the service's descriptors: a field per attribute shown (hidden ones
    /// are left to the service), labelled with its label (else its id made readable) and `*` when
    /// required. Attributes with options, and Booleans, are a choice; a password is masked; any other
    /// input type, known or not, is free text.
    nonisolated static func attributesPrompt(_ attributes: [MSALNativeAuthRequiredAttribute]) -> Prompt {
        let fields = attributes.filter { !$0.isHidden }.map { attribute in
            let label =
                (attribute.label.flatMap { $0.isEmpty ? nil : $0 } ?? readableLabel(attribute.name)) + (attribute.required ? " *" : "")
            let choices = attribute.options.flatMap { $0.isEmpty ? nil : $0 } ?? (isBoolean(attribute) ? ["true", "false"] : [])
            return Prompt.Field(
                label: label, masked: attribute.type.lowercased() == "password", name: attribute.name, required: attribute.required,
                choices: choices)
        }
        let required = fields.contains(where: \.required)
        return Prompt(
            kind: .attributes, title: "About you", fields: fields, buttons: [.submit, .cancel],
            message: required ? "Fields marked * are required." : nil)
    }

    /// Whether the attribute takes a Boolean (sent as one, not as text).
    nonisolated static func isBoolean(_ attribute: MSALNativeAuthRequiredAttribute) -> Bool {
        ["boolean", "bool", "checkbox"].contains(attribute.type.lowercased())
    }

    /// The values to submit on `state`, by attribute id; nil (and the dialog says which) while a
    /// required field is empty. Empty optional fields are left out; Booleans are sent as Booleans.
    func attributeValuesV2(_ state: MSALNativeAuthAttributesRequiredState, _ prompt: Prompt, _ values: [String]) -> [String: Any]? {
        var attributes: [String: Any] = [:]
        var missing: [Int] = []
        for (index, (field, value)) in zip(prompt.fields, values).enumerated() {
            let text = field.masked ? value : value.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else {
                if field.required { missing.append(index) }
                continue
            }
            let name = field.name ?? field.label
            let boolean = state.attributes.first { $0.name == name }.map(Self.isBoolean) ?? false
            attributes[name] = boolean ? (text == "true") : text
        }
        if let first = missing.first {
            promptMessage("Required: \(missing.map { Self.plainLabel(prompt.fields[$0]) }.joined(separator: ", ")).")
            focus(.promptField(first))
            return nil
        }
        return attributes
    }

    /// The service refused values: the dialog names them (by their labels) and the focus goes to the
    /// first, to fix; the attributes state stays usable.
    func showRefusedAttributes(_ error: MSALNativeAuthFlowError) {
        guard let prompt = model.prompt else { return }
        let names = error.invalidAttributeNames
        let refused = prompt.fields.indices.filter { index in names.contains(prompt.fields[index].name ?? prompt.fields[index].label) }
        guard let first = refused.first else {
            promptMessage("Invalid: \(error.errorDescription ?? "the service refused a value"). Try other values.")
            return
        }
        promptMessage("Invalid: \(refused.map { Self.plainLabel(prompt.fields[$0]) }.joined(separator: ", ")). Try other values.")
        focus(.promptField(first))
    }

    /// A field's label without the required mark.
    nonisolated static func plainLabel(_ field: Prompt.Field) -> String {
        field.required && field.label.hasSuffix(" *") ? String(field.label.dropLast(2)) : field.label
    }
}
