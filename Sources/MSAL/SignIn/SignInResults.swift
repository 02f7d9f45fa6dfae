/// How `signIn(parameters:)` went, when it did not fail.
public enum SignInStartResult: Sendable {
    /// The user is signed in.
    case completed(MSALNativeAuthUserAccountResult)
    /// A one-time code was sent; submit it on `newState`.
    case codeRequired(newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int)
    /// The server wants the password; submit it on `newState`.
    case passwordRequired(newState: SignInPasswordRequiredState)
    /// The password was right and the user must pass a second factor (see `SignInStepResult`).
    case awaitingMFA(authMethods: [MSALAuthMethod], newState: AwaitingMFAState)
    /// The password was right and the user must register a strong-auth method (see `SignInStepResult`).
    case strongAuthMethodRegistration(authMethods: [MSALAuthMethod], newState: RegisterStrongAuthState)

    /// The outcomes a start shares with every other step that can end a sign-in.
    var step: SignInStepResult? {
        switch self {
        case .completed(let result): .completed(result)
        case .awaitingMFA(let methods, let state): .awaitingMFA(authMethods: methods, newState: state)
        case .strongAuthMethodRegistration(let methods, let state): .strongAuthMethodRegistration(authMethods: methods, newState: state)
        case .codeRequired, .passwordRequired: nil
        }
    }

    init(_ step: SignInStepResult) {
        switch step {
        case .completed(let result): self = .completed(result)
        case .awaitingMFA(let methods, let state): self = .awaitingMFA(authMethods: methods, newState: state)
        case .strongAuthMethodRegistration(let methods, let state):
            self = .strongAuthMethodRegistration(authMethods: methods, newState: state)
        }
    }
}
