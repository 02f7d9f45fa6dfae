/// What the sign-in page must show, sent as `prompt` (OpenID Connect Core §3.1.2.1); mirrors
/// MSAL's `MSALPromptType`.
package enum AuthorizationPrompt: Sendable, Equatable {
    /// `select_account`: the account picker, even with one signed-in account (MSAL's default).
    case selectAccount
    /// `login`: ask for credentials again.
    case login
    /// `consent`: show the consent screen even if consent was given.
    case consent
    /// `create`: start at the sign-up page (External ID).
    case create
    /// No `prompt`: the service decides; a user with a browser session may see nothing.
    case promptIfNecessary

    /// The `prompt` value, nil when none is sent.
    package var wireValue: String? {
        switch self {
        case .selectAccount: "select_account"
        case .login: "login"
        case .consent: "consent"
        case .create: "create"
        case .promptIfNecessary: nil
        }
    }
}
