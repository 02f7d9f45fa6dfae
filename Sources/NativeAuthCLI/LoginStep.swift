import Foundation
import MSAL

/// Where a code went, as the service said.
struct SentCode: Equatable, Sendable {
    var sentTo: String
    var channel: String
    var codeLength: Int
}

extension SentCode {
    /// Where the code of `sent` went.
    init<State>(_ sent: CodeRequiredResult<State>) {
        self.init(sentTo: sent.sentTo, channel: sent.channelTargetType.value, codeLength: sent.codeLength)
    }
}

/// A sign-in step that waits for the user, with the SDK state that continues it.
enum PendingStep {
    case password(SignInPasswordRequiredState)
    case code(SignInCodeRequiredState, SentCode)
    case mfaMethod([MSALAuthMethod], AwaitingMFAState)
    /// A second-factor code was sent to `method` (nil after a restore that does not say which).
    case mfaCode(MFARequiredState, method: MSALAuthMethod?, methods: [MSALAuthMethod], SentCode)
    case registerMethod([MSALAuthMethod], RegisterStrongAuthState)
    case registerCode(RegisterStrongAuthVerificationRequiredState, SentCode)
    // Native auth V2 (experimental; docs/cli.md#native-auth-v2-experimental): the state says where a code went.
    case v2Password(MSALNativeAuthPasswordRequiredState)
    case v2Code(MSALNativeAuthCodeRequiredState)
    /// A choice of first factor or of second factor (the state's `purpose`).
    case v2Method(MSALNativeAuthAuthMethodSelectionRequiredState)
    case v2MFACode(MSALNativeAuthMFAVerificationRequiredState)
    case v2RegisterMethod(MSALNativeAuthStrongAuthRegistrationRequiredState)
    case v2RegisterCode(MSALNativeAuthStrongAuthVerificationRequiredState)

    /// What the user must give, named as the option that gives it.
    var needs: Needs {
        switch self {
        case .password, .v2Password: .password
        case .code, .mfaCode, .registerCode, .v2Code, .v2MFACode, .v2RegisterCode: .code
        case .mfaMethod, .v2Method: .method
        case .registerMethod, .v2RegisterMethod: .contact
        }
    }

    enum Needs: String {
        case username, password, code, method, contact

        /// How the next invocation passes it.
        var nextCommand: String {
            switch self {
            case .username: "native-auth login --username EMAIL"
            case .password: "native-auth login --password -   (one line on stdin; or --password PASSWORD)"
            case .code: "native-auth login --code CODE"
            case .method: "native-auth login --method email|sms|password|ID"
            case .contact: "native-auth login --method email|sms --contact ADDRESS-OR-PHONE"
            }
        }
    }

    var sent: SentCode? {
        switch self {
        case .code(_, let sent), .mfaCode(_, _, _, let sent), .registerCode(_, let sent): sent
        case .v2Code(let state): SentCode(sentTo: state.sentTo, channel: state.channel.value, codeLength: state.codeLength)
        case .v2MFACode(let state): SentCode(sentTo: state.sentTo, channel: state.channel.value, codeLength: state.codeLength)
        case .v2RegisterCode(let state): SentCode(sentTo: state.sentTo, channel: state.channel.value, codeLength: state.codeLength)
        case .password, .mfaMethod, .registerMethod, .v2Password, .v2Method, .v2RegisterMethod: nil
        }
    }

    var methods: [MSALAuthMethod] {
        switch self {
        case .mfaMethod(let methods, _), .mfaCode(_, _, let methods, _), .registerMethod(let methods, _): methods
        case .v2Method(let state): state.authMethods
        case .v2RegisterMethod(let state): state.authMethods
        case .password, .code, .registerCode, .v2Password, .v2Code, .v2MFACode, .v2RegisterCode: []
        }
    }

    /// The step's name in `--json` output and the saved file.
    var name: String {
        switch self {
        case .password: "password"
        case .code: "code"
        case .mfaMethod: "mfa_method"
        case .mfaCode: "mfa_code"
        case .registerMethod: "register_method"
        case .registerCode: "register_code"
        case .v2Password: "v2_password"
        case .v2Code: "v2_code"
        case .v2Method: "v2_method"
        case .v2MFACode: "v2_mfa_code"
        case .v2RegisterMethod: "v2_register_method"
        case .v2RegisterCode: "v2_register_code"
        }
    }

    /// Where a native auth V2 call led; a step this tool does not take (sign-up, reset) is a failure.
    static func after(_ result: MSALNativeAuthFlowResult) throws(CLIError) -> LoginOutcome {
        switch result {
        case .completed(let account, _): return .signedIn(account)
        case .passwordRequired(let state): return .pending(.v2Password(state))
        case .codeRequired(let state): return .pending(.v2Code(state))
        case .authMethodSelectionRequired(let state): return .pending(.v2Method(state))
        case .mfaVerificationRequired(let state): return .pending(.v2MFACode(state))
        case .strongAuthRegistrationRequired(let state): return .pending(.v2RegisterMethod(state))
        case .strongAuthVerificationRequired(let state): return .pending(.v2RegisterCode(state))
        default: throw CLIError(.failure, "the service asked for a step login does not take (\(result.scenario))")
        }
    }

    /// Where a sign-in step led.
    static func after(_ result: SignInStepResult) -> LoginOutcome {
        switch result {
        case .completed(let account): .signedIn(account)
        case .awaitingMFA(let methods, let state): .pending(.mfaMethod(methods, state))
        case .strongAuthMethodRegistration(let methods, let state): .pending(.registerMethod(methods, state))
        }
    }

    static func after(_ result: SignInStartResult) -> LoginOutcome {
        switch result {
        case .completed(let account): .signedIn(account)
        case .codeRequired(let state, let sentTo, let channel, let length):
            .pending(.code(state, SentCode(sentTo: sentTo, channel: channel.value, codeLength: length)))
        case .passwordRequired(let state): .pending(.password(state))
        case .awaitingMFA(let methods, let state): .pending(.mfaMethod(methods, state))
        case .strongAuthMethodRegistration(let methods, let state): .pending(.registerMethod(methods, state))
        }
    }
}

/// Where a sign-in is.
enum LoginOutcome {
    case signedIn(MSALNativeAuthUserAccountResult)
    case pending(PendingStep)

    /// The waiting step, if the sign-in waits.
    var pending: PendingStep? {
        if case .pending(let step) = self { step } else { nil }
    }
}

/// One method as the user sees it: `sms +*******0100`.
func describe(_ method: MSALAuthMethod) -> String {
    method.channelTargetType.value + (method.loginHint.map { " " + $0 } ?? "")
}

/// The method `choice` names: a number in the list (from 1), a method id, or a channel (`email`, `sms`).
func method(_ choice: String, in methods: [MSALAuthMethod]) -> MSALAuthMethod? {
    let wanted = choice.trimmingCharacters(in: .whitespaces).lowercased()
    if let number = Int(wanted), methods.indices.contains(number - 1) { return methods[number - 1] }
    return methods.first { $0.id.lowercased() == wanted } ?? methods.first { $0.channelTargetType.value.lowercased() == wanted }
}
