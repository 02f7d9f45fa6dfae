import Foundation

/// One browser sign-in up to the authorization code (docs/error-mapping.md#loopback-redirect): takes the process's session
/// gate, opens the loopback listener, builds the authorize URL, starts the browser (or hands the
/// URL to the app), waits for the redirect and returns what the token request needs. The token
/// request itself (docs/error-mapping.md#code-redemption) is the caller's.
///
/// ```swift
/// // given: clientId: String, authority: URL
/// let authorization = InteractiveAuthorization(launcher: BrowserLauncher())
/// let grant = try await authorization.run(
///     InteractiveAuthorization.Request(clientId: clientId, authority: authority, scopes: ["User.Read"]))
/// // POST /token: code=grant.code, code_verifier=grant.codeVerifier, redirect_uri=grant.redirectURI
/// ```
package struct InteractiveAuthorization: Sendable {
    /// What the app asks for; mirrors `MSALInteractiveTokenParameters`.
    package struct Request: Sendable {
        /// `client_id`.
        package var clientId: String
        /// The authority; the authorize endpoint is `{authority}/oauth2/v2.0/authorize`.
        package var authority: URL
        /// The scopes the token is for.
        package var scopes: [String]
        /// Scopes to consent to now, without a token for them.
        package var extraScopesToConsent: [String] = []
        /// nil or `http://localhost` → a free port; `http://localhost:N` → port N.
        package var redirectURI: URL?
        /// `prompt` (MSAL's `promptType`).
        package var prompt: MSALPromptType = .selectAccount
        /// `login_hint`: the account's username or the app's hint.
        package var loginHint: String?
        /// `domain_hint`.
        package var domainHint: String?
        /// `claims` as JSON text, capabilities already merged in.
        package var claims: String?
        /// `instance_aware=true` (multiple clouds).
        package var instanceAware = false
        /// The app's `extraQueryParameters`.
        package var extraQueryParameters: [String: String] = [:]
        /// `x-app-name`.
        package var appName: String?
        /// `x-app-ver`.
        package var appVersion: String?
        /// `client-request-id`; also the token request's.
        package var correlationId: UUID = CorrelationID.next()

        /// The required values; set the others afterwards.
        package init(clientId: String, authority: URL, scopes: [String]) {
            self.clientId = clientId
            self.authority = authority
            self.scopes = scopes
        }
    }

    /// What the token request needs (RFC 6749 §4.1.3, RFC 7636 §4.5).
    package struct Grant: Sendable, Equatable {
        /// The authorization code. A credential: never log it.
        package var code: String
        /// `code_verifier`.
        package var codeVerifier: String
        /// `redirect_uri`, byte-identical to the authorize request's.
        package var redirectURI: String
        /// The redirect's `client_info`, for the account's home id and `X-AnchorMailbox`.
        package var clientInfo: String?
        /// The `nonce` sent; the id token must carry it (mismatch → -42600).
        package var nonce: String
        /// The `client-request-id` sent.
        package var correlationId: UUID
    }

    /// Starts the browser; its closure (the app's `browserLauncher`) comes first.
    package var launcher: BrowserLauncher
    /// The app's `signInAddressHandler` and `authorizationURLHandler`: shows the address when no
    /// browser could be started.
    package var addressHandler: (@Sendable (MSALSignInAddress) async -> Void)?
    /// How long to wait for the redirect once the browser is open.
    package var timeout: Double
    /// The app's pages for the redirect that ends the wait (`successPageHTML`, `errorPageHTML`).
    package var pages = LoopbackRedirectListener.ResultPages()
    /// Secrets' source.
    package var random: RandomBytes
    /// One session per process.
    package var gate: InteractiveSessionGate
    /// Called with the authorize URL just before it is opened (for logs; the URL holds no secret
    /// but the PKCE challenge, the state and the nonce).
    package var onURL: (@Sendable (URL) -> Void)?

    /// A coordinator; tests inject their own gate, randomness and launcher.
    package init(
        launcher: BrowserLauncher, addressHandler: (@Sendable (MSALSignInAddress) async -> Void)? = nil, timeout: Double = 300,
        random: RandomBytes = .system, gate: InteractiveSessionGate = .shared
    ) {
        self.launcher = launcher
        self.addressHandler = addressHandler
        self.timeout = timeout
        self.random = random
        self.gate = gate
    }

    /// Runs the sign-in up to the code.
    ///
    /// - Throws: `.sessionAlreadyRunning`; `.invalidRedirectURI`, `.portUnavailable`,
    ///   `.listenerFailed`; `.invalidParameter` for the URL; `.noBrowser` at once when nothing
    ///   could show the URL; `.cancelled` (timeout, task cancellation, `gate.cancelCurrent()`);
    ///   `.stateMismatch`; `.authorizationFailed` when the service answered with an error.
    package func run(_ request: Request) async throws(InteractiveAuthorizationError) -> Grant {
        guard gate.enter() else { throw .sessionAlreadyRunning }
        defer { gate.leave() }

        let secrets = AuthorizationSecrets.generate(using: random)
        let listener = try LoopbackRedirectListener(redirectURI: request.redirectURI, expectedState: secrets.state, pages: pages)
        // Opened just before the browser (RFC 8252 §8.3). Closed by `waitForResponse` however it
        // ends, or by `cancelAndWait()` on the ways out before it.
        let redirectURI = try listener.start().absoluteString
        do {
            try await openBrowser(for: request, secrets: secrets, redirectURI: redirectURI, listener: listener)
        } catch {
            await listener.cancelAndWait()
            throw error
        }

        let response = try await listener.waitForResponse(timeout: timeout)
        if let error = response.error {
            throw .authorizationFailed(error: error, description: response.errorDescription, subcode: response.errorSubcode)
        }
        guard let code = response.code else {
            // The listener only accepts a query with `code` or `error`.
            throw .invalidResponse("the redirect carried neither a code nor an error")
        }
        return Grant(
            code: code, codeVerifier: secrets.pkce.verifier, redirectURI: redirectURI, clientInfo: response.clientInfo,
            nonce: secrets.nonce,
            correlationId: request.correlationId)
    }

    /// Builds the authorize URL and shows it: the launcher, else the app's handler, else an error.
    private func openBrowser(
        for request: Request, secrets: AuthorizationSecrets, redirectURI: String, listener: LoopbackRedirectListener
    ) async throws(InteractiveAuthorizationError) {
        guard gate.attach(listener) else { throw .cancelled(.cancelCalled) }
        var authorize = AuthorizationRequest(
            authorizeEndpoint: AuthorizationRequest.authorizeEndpoint(authority: request.authority), clientId: request.clientId,
            redirectURI: redirectURI, scopes: request.scopes, secrets: secrets, correlationId: request.correlationId)
        authorize.extraScopesToConsent = request.extraScopesToConsent
        authorize.prompt = request.prompt
        authorize.loginHint = request.loginHint
        authorize.domainHint = request.domainHint
        authorize.claims = request.claims
        authorize.instanceAware = request.instanceAware
        authorize.extraQueryParameters = request.extraQueryParameters
        authorize.appName = request.appName
        authorize.appVersion = request.appVersion
        let url = try authorize.url()

        // The short address works whether or not a browser starts here (docs/usage.md#signing-in-over-ssh).
        listener.offerShortAddress(redirectingTo: url)
        onURL?(url)
        let report = await launcher.open(url)
        guard !report.launched else { return }
        guard let addressHandler, let shortURL = listener.shortAddress else {
            throw .noBrowser(
                "no browser could be started (\(report.summary)) and neither signInAddressHandler nor authorizationURLHandler "
                    + "is set; set one to show the sign-in address yourself, or set $BROWSER")
        }
        await addressHandler(
            MSALSignInAddress(authorizationURL: url, shortURL: shortURL, authority: request.authority, environment: launcher.environment))
    }
}
