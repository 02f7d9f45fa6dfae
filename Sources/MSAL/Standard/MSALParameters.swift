import Foundation

/// The base of MSAL's parameter classes. Mirrors MSAL's `MSALParameters`.
open class MSALParameters {
    /// The queue completion blocks run on. Default: a private serial queue of the SDK (a Linux
    /// command-line program seldom serves a main queue).
    public var completionBlockQueue: DispatchQueue?

    /// Parameters whose completion blocks run on the SDK's private queue.
    public init() {}
}

/// What every token request has. Mirrors MSAL's `MSALTokenParameters`. A mutable class, as in MSAL:
/// the SDK copies the values when a call starts, so changing the object afterwards is safe.
open class MSALTokenParameters: MSALParameters {
    /// The scopes wanted: one resource's (`api://contoso/todolist/ToDoList.Read`, or
    /// `api://contoso/todolist/.default`). `openid`, `profile` and `offline_access` are added by the SDK.
    public var scopes: [String]
    /// The account to get a token for.
    public var account: MSALAccount?
    /// The authority of this call; nil: the application's. Only the application's authority is
    /// supported on Linux.
    public var authority: MSALAuthority?
    /// Claims to request (for example an authentication context from a claims challenge). A silent
    /// request with claims always goes to the network.
    public var claimsRequest: MSALClaimsRequest?
    /// Extra query parameters for the authorize and token requests.
    public var extraQueryParameters: [String: String]?
    /// The correlation id of this call; nil: a new one.
    public var correlationId: UUID?

    /// Parameters asking for `scopes`. Leave out `openid`, `profile` and `offline_access`: a call that
    /// passes them fails with `internalErrorInvalidParameter`.
    public init(scopes: [String]) {
        self.scopes = scopes
    }
}

/// How the browser sign-in prompts the user. Mirrors MSAL's `MSALPromptType`.
public enum MSALPromptType: UInt, Sendable {
    /// `prompt=select_account`.
    case selectAccount = 0
    /// `prompt=login`: always ask for credentials.
    case login = 1
    /// `prompt=consent`: always show the consent page.
    case consent = 2
    /// `prompt=create`: offer sign-up.
    case create = 3
    /// No `prompt`: the service decides.
    case promptIfNecessary = 4

    /// MSAL's default, `.promptIfNecessary`.
    public static var `default`: MSALPromptType { .promptIfNecessary }

    /// The `prompt` value sent, nil for `.promptIfNecessary`.
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

/// The parameters of `acquireToken(with:)`, the browser sign-in. Mirrors MSAL's `MSALInteractiveTokenParameters`.
///
/// ```swift
/// // given: application: MSALPublicClientApplication
/// let parameters = MSALInteractiveTokenParameters(scopes: ["user.read"], webviewParameters: MSALWebviewParameters())
/// let result = try await application.acquireToken(with: parameters)
/// ```
open class MSALInteractiveTokenParameters: MSALTokenParameters {
    /// Default `.promptIfNecessary`.
    public var promptType: MSALPromptType = .default
    /// Fills the sign-in page's username (ignored when `account` is set: its username is used).
    public var loginHint: String?
    /// Sent as `domain_hint` on the authorize request, to take the user straight to their organisation's
    /// sign-in page; nil sends none.
    public var domainHint: String?
    /// Scopes of other resources to consent to now, without a token for them.
    public var extraScopesToConsent: [String]?
    /// How the browser is shown (a copy of what was passed).
    public let webviewParameters: MSALWebviewParameters

    /// Parameters for a browser sign-in asking for `scopes`, shown as `webviewParameters` says.
    public init(scopes: [String], webviewParameters: MSALWebviewParameters) {
        self.webviewParameters = webviewParameters
        super.init(scopes: scopes)
    }
}

/// The parameters of `acquireTokenSilent(with:)`. Mirrors MSAL's `MSALSilentTokenParameters`.
open class MSALSilentTokenParameters: MSALTokenParameters {
    /// Skip the cached access token and redeem the refresh token.
    public var forceRefresh = false

    /// Parameters for a token for `account` without the user, asking for `scopes`.
    public init(scopes: [String], account: MSALAccount) {
        super.init(scopes: scopes)
        self.account = account
    }
}

/// Opens the authorization URL somewhere a person can sign in. The SDK's default starts the
/// system browser (see `MSALWebviewParameters.browserLauncher`); tests and headless tools bring their own.
public protocol MSALBrowserLauncher: Sendable {
    /// Opens `url`; throws when it cannot.
    func open(_ url: URL) async throws
}

/// How the browser sign-in is shown. Mirrors MSAL's `MSALWebviewParameters`; on Linux the sign-in
/// runs in the system browser with a loopback redirect, so the Apple view controller is replaced
/// by the members below.
public final class MSALWebviewParameters: @unchecked Sendable {
    // `@unchecked`: a parameter object the app fills before the call; the SDK copies it at call time.

    /// Only `.default` (the system browser) on Linux.
    public var webviewType: MSALWebviewType = .default
    /// Accepted and ignored (docs/compatibility.md): the system browser started through `$BROWSER`,
    /// `xdg-open` or `wslview` cannot be asked for a private window; give a `browserLauncher` that opens one.
    public var prefersEphemeralWebBrowserSession = false
    /// Opens the authorization URL. Nil: `$BROWSER`, then `xdg-open` on a desktop, then `wslview` on WSL.
    public var browserLauncher: (any MSALBrowserLauncher)?
    /// Receives the authorization URL when no browser could be started (for example over SSH), to
    /// show it to the user; the sign-in then waits for the redirect. Without it (or
    /// `signInAddressHandler`), that case fails at once with `internalErrorNoViewController`.
    public var authorizationURLHandler: (@Sendable (URL) -> Void)?
    /// Receives the short form of the sign-in address when no browser could be started: the SDK
    /// listener's `http://localhost:PORT/` plus a random path, which redirects to the authorization
    /// URL while the sign-in waits, and the `ssh -L` line that forwards it (docs/usage.md#signing-in-over-ssh).
    /// Called as well as `authorizationURLHandler` when both are set.
    public var signInAddressHandler: (@Sendable (MSALSignInAddress) -> Void)?
    /// How long to wait for the user; nil: until cancelled.
    public var timeout: TimeInterval?
    /// The page (HTML) the SDK's loopback listener answers the browser with when the sign-in
    /// redirect brings a code; nil: a plain "Authentication completed" page. Sent exactly as given:
    /// nothing in it is replaced (the redirect's query holds the code, which no page shows).
    public var successPageHTML: String?
    /// The page (HTML) the loopback listener answers with when the redirect brings an error (the
    /// user cancelled, the service refused); nil: a plain page naming the error. `$error`,
    /// `$error_description` and `$error_subcode` (or `${error}` …) are replaced by the redirect's
    /// values, HTML-escaped (an absent value by nothing), and `$$` by `$`, as MSAL for Python's
    /// `error_template`. The escaping is for text and quoted attribute values: keep the
    /// placeholders out of scripts, styles and URLs.
    ///
    /// ```swift
    /// let webview = MSALWebviewParameters()
    /// webview.errorPageHTML = "<!DOCTYPE html><title>Sign-in failed</title><p>Sign-in failed: $error_description</p>"
    /// ```
    public var errorPageHTML: String?

    /// The defaults: the system browser started by the SDK, no URL handler, no time limit, plain pages.
    public init() {}
}

/// Where the browser sign-in is shown. Mirrors MSAL's `MSALWebviewType`; Linux has only the system browser.
public enum MSALWebviewType: Int, Sendable {
    case `default` = 0
    case authenticationSession = 1
    case wkWebView = 2
}

/// The parameters of `signout(with:signoutParameters:)`. Mirrors MSAL's `MSALSignoutParameters`.
public final class MSALSignoutParameters: MSALParameters {
    /// How the browser is opened for `signoutFromBrowser`. Nil after `init()`: `signoutFromBrowser` then
    /// fails the sign-out with `internalErrorInvalidParameter`.
    public let webviewParameters: MSALWebviewParameters?
    /// Also end the browser's session (opens the logout page).
    public var signoutFromBrowser = false
    /// Remove the account's tokens of every client id in the cache, not only this one's.
    public var wipeAccount = false
    /// Remove every account's tokens from the cache.
    public var wipeCacheForAllAccounts = false
    /// Extra query parameters for the logout page that `signoutFromBrowser` opens.
    public var extraQueryParameters: [String: String]?

    public override init() {
        webviewParameters = nil
    }

    /// Parameters that can also end the browser session (`signoutFromBrowser`), in a browser opened as
    /// `webviewParameters` says.
    public init(webviewParameters: MSALWebviewParameters) {
        self.webviewParameters = webviewParameters
    }
}
