import Foundation
import MSAL

/// A second factor (MFA) and the registration of a strong-auth method at first sign-in: the method
/// picker, the contact dialog and their code dialogs. Any sign-in (password, code, after sign-up,
/// after reset) can end here instead of in `onSignInCompleted`.
extension DemoController {
    // MARK: MFA

    func onSignInAwaitingMFA(authMethods: [MSALAuthMethod], newState: AwaitingMFAState) {
        clearFlowStates()
        guard !authMethods.isEmpty else {
            closePrompt()
            showResultText("Error while signing in: a second factor is needed but no method was offered")
            return
        }
        mfaState = newState
        mfaMethods = authMethods
        showResultText("A second factor is needed: choose where to send a code.")
        showPrompt(Self.mfaMethodPrompt(authMethods, selected: 0))
    }

    /// The picker's choice: a code is sent to that method.
    func mfaMethodChosen(_ index: Int) {
        if v2State != nil { return chooseSignInV2Method(index) }
        guard mfaMethods.indices.contains(index), let mfaState else { return }
        let method = mfaMethods[index]
        mfaMethod = method
        mfaState.requestChallenge(authMethod: method, delegate: startOperation())
        promptMessage("Sending a code...")
    }

    func onMFARequestChallengeVerificationRequired(newState: MFARequiredState, sentTo: String, codeLength: Int) {
        mfaState = newState
        if model.prompt?.kind == .mfaCode {
            promptMessage("A new code was sent to \(sentTo).")
            return
        }
        showResultText("A code was sent to \(sentTo).")
        showPrompt(Self.mfaCodePrompt(sentTo: sentTo, codeLength: codeLength, otherMethod: true))
    }

    /// The second-factor code dialog; "Other method" goes back to the picker (V1 only: the V2
    /// screens do not offer it yet).
    nonisolated static func mfaCodePrompt(sentTo: String, codeLength: Int, otherMethod: Bool) -> Prompt {
        Prompt(
            kind: .mfaCode, title: "Second factor: enter the \(codeLength)-digit code", fields: [Prompt.Field(label: "Code")],
            buttons: otherMethod ? [.submit, .resend, .otherMethod, .cancel] : [.submit, .resend, .cancel], message: "Sent to \(sentTo)")
    }

    func onMFARequestChallengeError(error: MFARequestChallengeError, newState: MFARequiredState?) {
        if error.isBrowserRequired { return offerBrowser("The second factor", error) }
        guard let newState else {
            endFlow("Error while sending the code: \(error.errorDescription ?? "")")
            return
        }
        mfaState = newState
        if error.isAuthMethodBlocked {
            showPrompt(
                Self.mfaMethodPrompt(
                    mfaMethods, selected: selectedIndex(of: mfaMethod, in: mfaMethods),
                    message: "Blocked: this method cannot receive codes. Choose another."))
        } else {
            promptMessage("Error while sending the code: \(error.errorDescription ?? "")")
        }
    }

    func onMFASubmitChallengeError(error: MFASubmitChallengeError, newState: MFARequiredState?) {
        if error.isBrowserRequired { return offerBrowser("The second factor", error) }
        guard let newState else {
            endFlow("Error while checking the code: \(error.errorDescription ?? "")")
            return
        }
        mfaState = newState
        promptMessage(error.isInvalidChallenge ? "Invalid code. Try again or resend." : "Error: \(error.errorDescription ?? "")")
    }

    nonisolated static func mfaMethodPrompt(_ methods: [MSALAuthMethod], selected: Int, message: String? = nil) -> Prompt {
        Prompt(
            kind: .mfaMethod, title: "Second factor: where should the code go?", options: methods.map(option), selected: selected,
            optionsSubmit: true, fields: [], buttons: [.cancel], message: message ?? "Enter, Space or a click sends a code there.")
    }

    // MARK: Strong-auth registration

    func onSignInStrongAuthMethodRegistration(authMethods: [MSALAuthMethod], newState: RegisterStrongAuthState) {
        clearFlowStates()
        guard !authMethods.isEmpty else {
            closePrompt()
            showResultText("Error while signing in: a method must be registered but none was offered")
            return
        }
        registerState = newState
        registerMethods = authMethods
        showResultText("Register a second factor: an email address or a phone number.")
        showPrompt(Self.registerMethodPrompt(authMethods, selected: 0, contact: ""))
    }

    /// The registration dialog's Submit: the chosen kind of method and the contact typed.
    func challengeAuthMethod(_ index: Int, contact: String) {
        guard registerMethods.indices.contains(index), let registerState else { return }
        let parameters = MSALNativeAuthChallengeAuthMethodParameters(authMethod: registerMethods[index], verificationContact: contact)
        registerParameters = parameters
        registerState.challengeAuthMethod(parameters: parameters, delegate: startOperation())
    }

    func onRegisterStrongAuthVerificationRequired(result: MSALNativeAuthRegisterStrongAuthVerificationRequiredResult) {
        registerState = result.newState
        if model.prompt?.kind == .registerCode {
            promptMessage("A new code was sent to \(result.sentTo).")
            return
        }
        showResultText("A code was sent to \(result.sentTo).")
        showPrompt(Self.registerCodePrompt(sentTo: result.sentTo, codeLength: result.codeLength, otherMethod: true))
    }

    /// The registration code dialog; "Other method" goes back to the contact dialog (V1 only, as
    /// for `mfaCodePrompt`).
    nonisolated static func registerCodePrompt(sentTo: String, codeLength: Int, otherMethod: Bool) -> Prompt {
        Prompt(
            kind: .registerCode, title: "Verify the new method: enter the \(codeLength)-digit code", fields: [Prompt.Field(label: "Code")],
            buttons: otherMethod ? [.submit, .resend, .otherMethod, .cancel] : [.submit, .resend, .cancel], message: "Sent to \(sentTo)")
    }

    func onRegisterStrongAuthChallengeError(error: RegisterStrongAuthChallengeError, newState: RegisterStrongAuthState?) {
        if error.isBrowserRequired { return offerBrowser("Registering a second factor", error) }
        guard let newState else {
            endFlow("Error while registering the method: \(error.errorDescription ?? "")")
            return
        }
        registerState = newState
        if error.isInvalidInput {
            promptMessage("Invalid contact: \(error.errorDescription ?? "type an email address or a phone number")")
        } else if error.isVerificationContactBlocked {
            promptMessage("Blocked: the service will not send codes there. Try another.")
        } else {
            promptMessage("Error: \(error.errorDescription ?? "")")
        }
    }

    func onRegisterStrongAuthSubmitChallengeError(
        error: RegisterStrongAuthSubmitChallengeError, newState: RegisterStrongAuthVerificationRequiredState?
    ) {
        if error.isBrowserRequired { return offerBrowser("Registering a second factor", error) }
        guard let newState else {
            endFlow("Error while checking the code: \(error.errorDescription ?? "")")
            return
        }
        registerState = newState
        promptMessage(error.isInvalidChallenge ? "Invalid code. Try again or resend." : "Error: \(error.errorDescription ?? "")")
    }

    nonisolated static func registerMethodPrompt(_ methods: [MSALAuthMethod], selected: Int, contact: String, message: String? = nil)
        -> Prompt
    {
        Prompt(
            kind: .registerMethod, title: "Register a second factor", options: methods.map(option), selected: selected,
            fields: [Prompt.Field(label: "Contact", text: contact)], buttons: [.submit, .cancel],
            message: message ?? "Choose Email or SMS, then type an address or a phone number.")
    }

    // MARK: Both

    /// A code dialog's "Other method": back to the picker (MFA) or the contact dialog (registration).
    func otherMethodPressed() {
        switch model.prompt?.kind {
        case .mfaCode?:
            showPrompt(Self.mfaMethodPrompt(mfaMethods, selected: selectedIndex(of: mfaMethod, in: mfaMethods)))
        case .registerCode?:
            showPrompt(
                Self.registerMethodPrompt(
                    registerMethods, selected: selectedIndex(of: registerParameters?.authMethod, in: registerMethods),
                    contact: registerParameters?.verificationContact ?? ""))
        default:
            return
        }
    }

    /// An error without a state to go on with (an answer ended the flow): the dialog closes and the
    /// result says to sign in again.
    func endFlow(_ message: String) {
        closePrompt()
        clearFlowStates()
        showResultText(message + "\nSign in again.")
    }

    func selectedIndex(of method: MSALAuthMethod?, in methods: [MSALAuthMethod]) -> Int {
        methods.firstIndex { $0 === method } ?? 0
    }

    /// A method as a row: its channel and the masked contact the service shows for it.
    nonisolated static func option(_ method: MSALAuthMethod) -> Prompt.Option {
        let channel = method.channelTargetType
        let label = channel.isEmailType ? "Email" : channel.isSMSType ? "SMS" : channel.value == "password" ? "Password" : channel.value
        return Prompt.Option(label: label, detail: method.loginHint ?? "")
    }
}
