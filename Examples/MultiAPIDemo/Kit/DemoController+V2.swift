import Foundation
import MSAL

/// Sign In, Sign Up and Reset Password through native auth V2 (`--v2`, experimental;
/// docs/usage.md#native-auth-v2-experimental): the service decides each step, and each result the SDK
/// returns is mapped here, in `onSignInV2Result`, onto the dialogs V1 already uses (code, password,
/// attributes, method picker, second-factor code, registration contact and code, the browser offer).
/// Sign-up's and reset's own steps (attributes, new password, recovery method, the sign-in after):
/// DemoController+V2SignUp.swift.
///
/// One V2 state is held at a time (`v2State`); the open dialog's Submit, Resend and choice continue
/// on it (DemoController+Dialogs.swift routes them here while it is set).
extension DemoController {
    // MARK: Starting

    /// The Sign In button with `--v2`: only the email is needed. A password typed on the screen is
    /// sent with the start (MSAL's V1 parameters, which V2 uses when the service asks for a password
    /// as the one first factor); without one the service asks for it in the password dialog.
    func signInV2Pressed() {
        guard !model.email.isEmpty else {
            showResultText("Email not set")
            return
        }
        showResultText("Signing in...")
        v2Scenario = .signIn
        let username = model.email
        let password = model.password
        let nativeAuth = nativeAuth
        runV2 { () async throws(MSALNativeAuthFlowError) in
            if password.isEmpty {
                return try await nativeAuth.signInV2(parameters: MSALNativeAuthSignInParametersV2(username: username))
            }
            let parameters = MSALNativeAuthSignInParameters(username: username)
            parameters.password = password
            return try await nativeAuth.signInV2(parameters: parameters)
        }
    }

    /// Runs one V2 call as an operation: busy, and its answer dropped after Esc (as `CallbackGate`).
    /// `atStart`: the call starts a flow (a sign-up's first answer may be an existing account's sign-in).
    func runV2(
        atStart: Bool = false, _ step: @escaping @MainActor () async throws(MSALNativeAuthFlowError) -> MSALNativeAuthFlowResult
    ) {
        let current = beginBusy()
        Task { @MainActor [weak self] in
            let outcome: Result<MSALNativeAuthFlowResult, MSALNativeAuthFlowError>
            do throws(MSALNativeAuthFlowError) {
                outcome = .success(try await step())
            } catch {
                outcome = .failure(error)
            }
            guard let self, self.endBusy(current) else { return }
            switch outcome {
            case .success(let result): self.onSignInV2Result(result, atStart: atStart)
            case .failure(let error): self.onSignInV2Error(error)
            }
        }
    }

    // MARK: Continuing on the held state

    /// The open dialog's Submit: the field (code, password, contact) or the marked option, sent on the held state.
    func continueSignInV2(_ state: MSALNativeAuthState, _ prompt: Prompt, _ values: [String]) {
        let first = values.first ?? ""
        switch state {
        case let state as MSALNativeAuthCodeRequiredState:
            runV2 { () async throws(MSALNativeAuthFlowError) in try await state.submitCode(first) }
        case let state as MSALNativeAuthPasswordRequiredState:
            runV2 { () async throws(MSALNativeAuthFlowError) in try await state.submitPassword(first) }
        case let state as MSALNativeAuthNewPasswordRequiredState:
            runV2 { () async throws(MSALNativeAuthFlowError) in try await state.submitNewPassword(first) }
        case let state as MSALNativeAuthAttributesRequiredState:
            guard let attributes = attributeValuesV2(state, prompt, values) else { return }
            nonisolated(unsafe) let sent = attributes
            runV2 { () async throws(MSALNativeAuthFlowError) in try await state.submitAttributes(sent) }
        case let state as MSALNativeAuthMFAVerificationRequiredState:
            runV2 { () async throws(MSALNativeAuthFlowError) in try await state.submitChallenge(first) }
        case let state as MSALNativeAuthStrongAuthVerificationRequiredState:
            runV2 { () async throws(MSALNativeAuthFlowError) in try await state.submitChallenge(first) }
        case is MSALNativeAuthAuthMethodSelectionRequiredState:
            return chooseSignInV2Method(prompt.selected)
        case let state as MSALNativeAuthStrongAuthRegistrationRequiredState:
            let methods = state.authMethods
            guard methods.indices.contains(prompt.selected) else { return }
            let method = methods[prompt.selected]
            let contact = first.trimmingCharacters(in: .whitespaces)
            runV2 { () async throws(MSALNativeAuthFlowError) in try await state.selectAuthMethod(method, verificationContact: contact) }
        default:
            return
        }
        promptMessage("Checking...")
    }

    /// A picker's choice (first factor or second factor): the held selection state goes on with it.
    func chooseSignInV2Method(_ index: Int) {
        guard let state = v2State as? MSALNativeAuthAuthMethodSelectionRequiredState, state.authMethods.indices.contains(index) else {
            return
        }
        let method = state.authMethods[index]
        runV2 { () async throws(MSALNativeAuthFlowError) in try await state.selectAuthMethod(method) }
        promptMessage(method.channelTargetType.value == "password" ? "Checking..." : "Sending a code...")
    }

    /// A code dialog's Resend: a new code on the held code state.
    func resendSignInV2Code() {
        switch v2State {
        case let state as MSALNativeAuthCodeRequiredState:
            runV2 { () async throws(MSALNativeAuthFlowError) in try await state.resendCode() }
        case let state as MSALNativeAuthMFAVerificationRequiredState:
            runV2 { () async throws(MSALNativeAuthFlowError) in try await state.resendChallenge() }
        case let state as MSALNativeAuthStrongAuthVerificationRequiredState:
            runV2 { () async throws(MSALNativeAuthFlowError) in try await state.resendChallenge() }
        default:
            return
        }
        promptMessage("Sending a new code...")
    }

    // MARK: Results onto the dialogs

    /// Where the flow stands, as a dialog: the one place V2 states become the V1 dialogs (the steps
    /// only sign-up and reset have: `onSignUpOrResetV2Result`).
    func onSignInV2Result(_ result: MSALNativeAuthFlowResult, atStart: Bool = false) {
        if onSignUpOrResetV2Result(result, atStart: atStart) { return }
        switch result {
        case .completed(let account, _):
            onSignInCompleted(result: account)
        case .codeRequired(let state):
            let kind = Self.codeKind(v2Scenario)
            showCode(state, kind, sentTo: state.sentTo) {
                Self.codePrompt(kind, sentTo: state.sentTo, codeLength: state.codeLength)
            }
        case .passwordRequired(let state):
            v2State = state
            showResultText("The service asks for your password.")
            showPrompt(Self.passwordPrompt(.signInPassword, title: "Enter your password", label: "Password"))
        case .authMethodSelectionRequired(let state) where state.purpose == .firstFactor:
            v2State = state
            showResultText("Choose how to sign in.")
            showPrompt(Self.signInMethodPrompt(state.authMethods))
        case .authMethodSelectionRequired(let state) where state.purpose == .mfa:
            v2State = state
            showResultText("A second factor is needed: choose where to send a code.")
            showPrompt(Self.mfaMethodPrompt(state.authMethods, selected: 0))
        case .mfaVerificationRequired(let state):
            showCode(state, .mfaCode, sentTo: state.sentTo) {
                Self.mfaCodePrompt(sentTo: state.sentTo, codeLength: state.codeLength, otherMethod: false)
            }
        case .strongAuthRegistrationRequired(let state):
            v2State = state
            showResultText("Register a second factor: an email address or a phone number.")
            showPrompt(Self.registerMethodPrompt(state.authMethods, selected: 0, contact: ""))
        case .strongAuthVerificationRequired(let state):
            showCode(state, .registerCode, sentTo: state.sentTo) {
                Self.registerCodePrompt(sentTo: state.sentTo, codeLength: state.codeLength, otherMethod: false)
            }
        default:
            endFlow("\(Self.errorPrefix(v2Scenario)): the demo has no dialog for the V2 step \(result)")
        }
    }

    /// A code state: the dialog of `kind`, or, when that dialog is already open (a resend), its message.
    func showCode(_ state: MSALNativeAuthState, _ kind: Prompt.Kind, sentTo: String, _ prompt: () -> Prompt) {
        v2State = state
        if model.prompt?.kind == kind {
            promptMessage("A new code was sent to \(sentTo).")
            return
        }
        showResultText("A code was sent to \(sentTo).")
        showPrompt(prompt())
    }

    /// A refusal: at the start, in the result view (as V1 says it); in a dialog, under its fields,
    /// the held state kept (a wrong code or password, a blocked method leave it usable).
    func onSignInV2Error(_ error: MSALNativeAuthFlowError) {
        if error.isBrowserRequired { return offerBrowser(Self.doing(v2Scenario), error) }
        guard let kind = model.prompt?.kind else {
            if v2Scenario != .signIn { return onSignUpOrResetV2StartError(error) }
            if error.isUserNotFound || error.isInvalidPassword || error.isInvalidUsername {
                showResultText("Invalid username or password")
            } else {
                showResultText("Error while signing in: \(error.errorDescription ?? "No error description")")
            }
            return
        }
        if error.isInvalidAttributes, kind == .attributes {
            showRefusedAttributes(error)
        } else if error.isInvalidCode {
            promptMessage("Invalid code. Try again or resend.")
        } else if error.isInvalidPassword, kind == .signUpPassword || kind == .resetPassword {
            promptMessage("Invalid password: \(error.errorDescription ?? "choose another"). Try again.")
        } else if error.isInvalidPassword {
            promptMessage("Invalid password. Try again.")
        } else if error.isAuthMethodBlocked, kind == .mfaMethod {
            promptMessage("Blocked: this method cannot receive codes. Choose another.")
        } else if error.isVerificationContactBlocked || error.isAuthMethodBlocked {
            promptMessage("Blocked: the service will not send codes there. Try another.")
        } else if error.isInvalidInput {
            promptMessage("Invalid contact: \(error.errorDescription ?? "type an email address or a phone number")")
        } else {
            promptMessage("Error: \(error.errorDescription ?? "")")
        }
    }

    /// The first-factor picker (V2 only: V1 declares its challenge types instead).
    nonisolated static func signInMethodPrompt(_ methods: [MSALAuthMethod]) -> Prompt {
        Prompt(
            kind: .signInMethod, title: "How do you want to sign in?", options: methods.map(option), selected: 0, optionsSubmit: true,
            fields: [], buttons: [.cancel], message: "Enter, Space or a click chooses.")
    }
}
