import Foundation
import MSAL

/// The code, password, attribute, method and contact dialogs: what they say, what their Submit and
/// Resend send, and the flow states they belong to (showing one: DemoController.swift).
extension DemoController {
    static func codePrompt(_ kind: Prompt.Kind, sentTo: String, codeLength: Int) -> Prompt {
        Prompt(
            kind: kind, title: "Enter the \(codeLength)-digit code", fields: [Prompt.Field(label: "Code")],
            buttons: [.submit, .resend, .cancel], message: "Sent to \(sentTo)")
    }

    static func passwordPrompt(_ kind: Prompt.Kind, title: String, label: String) -> Prompt {
        Prompt(kind: kind, title: title, fields: [Prompt.Field(label: label, masked: true)], buttons: [.submit, .cancel])
    }

    /// What a prompt says when a code it sent is refused.
    static func message(for error: VerifyCodeError) -> String {
        error.isInvalidCode ? "Invalid code. Try again or resend." : "Error: \(error.errorDescription ?? "")"
    }

    /// What a prompt says when a password it sent is refused.
    static func message(for error: PasswordRequiredError) -> String {
        error.isInvalidPassword ? "Invalid password: \(error.errorDescription ?? "")" : "Error: \(error.errorDescription ?? "")"
    }

    func submitPrompt(_ values: [String]) {
        guard let prompt = model.prompt else { return }
        if let v2State { return continueSignInV2(v2State, prompt, values) }
        let first = values.first ?? ""
        switch prompt.kind {
        case .signInCode: signInCodeState?.submitCode(code: first, delegate: startOperation())
        case .signInPassword: signInPasswordState?.submitPassword(password: first, delegate: startOperation())
        case .signUpCode: signUpCodeState?.submitCode(code: first, delegate: startOperation())
        case .signUpPassword: signUpPasswordState?.submitPassword(password: first, delegate: startOperation())
        case .attributes:
            var attributes: [String: Any] = [:]
            for (field, value) in zip(prompt.fields, values) where !value.isEmpty { attributes[field.name ?? field.label] = value }
            signUpAttributesState?.submitAttributes(attributes: attributes, delegate: startOperation())
        case .resetCode: resetCodeState?.submitCode(code: first, delegate: startOperation())
        case .resetPassword: resetPasswordState?.submitPassword(password: first, delegate: startOperation())
        case .mfaMethod, .signInMethod, .recoveryMethod: mfaMethodChosen(prompt.selected)
        case .mfaCode: (mfaState as? MFARequiredState)?.submitChallenge(challenge: first, delegate: startOperation())
        case .registerMethod: challengeAuthMethod(prompt.selected, contact: first.trimmingCharacters(in: .whitespaces))
        case .registerCode:
            (registerState as? RegisterStrongAuthVerificationRequiredState)?.submitChallenge(challenge: first, delegate: startOperation())
        }
        promptMessage("Checking...")
    }

    func resendPressed() {
        if v2State != nil { return resendSignInV2Code() }
        switch model.prompt?.kind {
        case .signInCode?: signInCodeState?.resendCode(delegate: startOperation())
        case .signUpCode?: signUpCodeState?.resendCode(delegate: startOperation())
        case .resetCode?: resetCodeState?.resendCode(delegate: startOperation())
        case .mfaCode?:
            guard let mfaMethod else { return }
            mfaState?.requestChallenge(authMethod: mfaMethod, delegate: startOperation())
        case .registerCode?:
            guard let registerParameters else { return }
            registerState?.challengeAuthMethod(parameters: registerParameters, delegate: startOperation())
        default: return
        }
        promptMessage("Sending a new code...")
    }

    func clearFlowStates() {
        signInCodeState = nil
        signInPasswordState = nil
        signUpCodeState = nil
        signUpPasswordState = nil
        signUpAttributesState = nil
        resetCodeState = nil
        resetPasswordState = nil
        mfaState = nil
        mfaMethods = []
        mfaMethod = nil
        registerState = nil
        registerMethods = []
        registerParameters = nil
        v2State = nil
    }
}
