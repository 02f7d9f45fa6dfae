import Foundation

/// An interactive request's values, copied from the parameters when the call starts.
struct InteractiveTokenRequest: Sendable {
    var authorization: InteractiveAuthorization.Request
    /// App scopes with the OIDC defaults appended (the token request's `scope`).
    var scopes: [String]
    var launcher: BrowserLauncher
    var addressHandler: (@Sendable (MSALSignInAddress) async -> Void)?
    var timeout: Double
    /// The app's `successPageHTML` and `errorPageHTML`.
    var pages: LoopbackRedirectListener.ResultPages
}

extension MSALPublicClientApplication {
    /// Signs the user in through the system browser (docs/error-mapping.md#browser-sign-in): a loopback redirect on
    /// 127.0.0.1, PKCE, the authorization code redeemed at the token endpoint, the tokens written to
    /// the shared cache. This is MSAL's answer to `isBrowserRequired` and `.interactionRequired`.
    ///
    /// The browser is the app's `webviewParameters.browserLauncher`, else `$BROWSER`, `xdg-open`
    /// (with a display) or `wslview`; when none starts, `signInAddressHandler` gets the short
    /// address and its `ssh -L` line, and `authorizationURLHandler` the URL (for example to print
    /// them over SSH), and the wait goes on; without a handler the call fails at once with
    /// `internalErrorNoViewController`. Cancel with `cancelCurrentWebAuthSession()`, task
    /// cancellation or `webviewParameters.timeout`: `.userCanceled`.
    public func acquireToken(with parameters: MSALInteractiveTokenParameters, completionBlock: @escaping MSALCompletionBlock) {
        let request = interactiveRequest(parameters)
        CompletionDelivery(completionBlock, queue: parameters.completionBlockQueue).run { await request.then(self.interactiveToken) }
    }

    /// The `async` form of `acquireToken(with:completionBlock:)`; throws the same `NSError`s.
    nonisolated(nonsending) public func acquireToken(with parameters: MSALInteractiveTokenParameters) async throws -> MSALResult {
        try await interactiveToken(interactiveRequest(parameters).get()).get()
    }

    /// Ends the browser sign-in in progress with `.userCanceled`; false when none runs.
    @discardableResult
    public class func cancelCurrentWebAuthSession() -> Bool {
        InteractiveSessionGate.shared.cancelCurrent()
    }

    /// iOS hands MSAL the URL the app was opened with; on Linux the redirect comes to the SDK's
    /// loopback listener, so there is nothing to handle: always false.
    @discardableResult
    public class func handleMSALResponse(_ response: URL, sourceApplication: String?) -> Bool { false }

    /// The SDK's version.
    public class var sdkVersion: String? { MSALNativeAuthSDK.version }

    /// Always false: there is no broker on Linux.
    public var isCompatibleAADBrokerAvailable: Bool { false }

    func interactiveRequest(_ parameters: MSALInteractiveTokenParameters) -> Result<InteractiveTokenRequest, NSError> {
        let correlationId = parameters.correlationId ?? environment.uuid()
        if let problem = checkScopesAndAuthority(parameters, correlationId: correlationId) { return .failure(problem) }
        let webview = parameters.webviewParameters
        guard webview.webviewType == .default else {
            return .failure(
                StandardErrors.make(
                    .internal, internal: .internalErrorInvalidParameter,
                    description: "Only the system browser (MSALWebviewType.default) is available on Linux", correlationId: correlationId))
        }
        var redirect: URL?
        if let configured = environment.redirectUri {
            guard let url = URL(string: configured) else {
                return .failure(
                    StandardErrors.make(
                        .internal, internal: .internalErrorInvalidRedirectURI,
                        description: "The redirect URI '\(configured)' is not a URL", correlationId: correlationId))
            }
            redirect = url
        }
        var authorization = InteractiveAuthorization.Request(
            clientId: environment.clientId, authority: environment.authorityURL, scopes: parameters.scopes)
        authorization.extraScopesToConsent = parameters.extraScopesToConsent ?? []
        authorization.redirectURI = redirect
        authorization.prompt = parameters.promptType
        authorization.loginHint = parameters.account?.username ?? parameters.loginHint
        authorization.domainHint = parameters.domainHint
        authorization.claims = MSALClaimsRequest.wire(parameters.claimsRequest, capabilities: environment.clientCapabilities)
        authorization.instanceAware = environment.multipleCloudsSupported
        authorization.extraQueryParameters = parameters.extraQueryParameters ?? [:]
        authorization.appName = environment.appName
        authorization.appVersion = environment.appVersion
        authorization.correlationId = correlationId
        let launcher = webview.browserLauncher.map(BrowserLauncher.init(app:))
        let (showAddress, showURL) = (webview.signInAddressHandler, webview.authorizationURLHandler)
        let handler: (@Sendable (MSALSignInAddress) async -> Void)? =
            showAddress == nil && showURL == nil
            ? nil
            : { @Sendable address in
                showAddress?(address)
                showURL?(address.authorizationURL)
            }
        return .success(
            InteractiveTokenRequest(
                authorization: authorization, scopes: Scopes.withDefaults(parameters.scopes), launcher: launcher ?? BrowserLauncher(),
                addressHandler: handler, timeout: webview.timeout ?? .infinity,
                pages: LoopbackRedirectListener.ResultPages(successHTML: webview.successPageHTML, errorHTML: webview.errorPageHTML)))
    }

    func interactiveToken(_ request: InteractiveTokenRequest) async -> Result<MSALResult, NSError> {
        let correlationId = request.authorization.correlationId
        let logger = environment.logger
        var flow = InteractiveAuthorization(launcher: request.launcher, addressHandler: request.addressHandler, timeout: request.timeout)
        flow.pages = request.pages
        flow.onURL = { url in logger.info("Browser sign-in opens \(url.scheme ?? "")://\(url.host ?? "")\(url.path)") }
        let grant: InteractiveAuthorization.Grant
        do throws(InteractiveAuthorizationError) {
            grant = try await flow.run(request.authorization)
        } catch {
            logger.warning("Browser sign-in ended without a code: \(error.description)")
            return .failure(StandardErrors.fromInteractive(error, correlationId: correlationId))
        }

        // Code redemption (docs/error-mapping.md#code-redemption): the same redirect URI, the verifier, the requested scopes.
        let answer = await client.call(
            .token,
            [
                ("grant_type", "authorization_code"), ("code", grant.code), ("redirect_uri", grant.redirectURI),
                ("code_verifier", grant.codeVerifier), ("scope", Scopes.wire(request.scopes)), ("client_info", "1"),
                ("claims", request.authorization.claims),
            ], correlationId: correlationId, expecting: TokenResponse.self)
        let id = answer.correlationId
        switch answer.outcome {
        case .success(let response):
            return store(response, request: request, nonce: grant.nonce, correlationId: id)
        case .redirect(let reason):
            return .failure(
                StandardErrors.make(
                    .interactionRequired, description: reason ?? "The service asked for the browser again", correlationId: id))
        case .apiError(let error):
            return .failure(
                StandardErrors.fromServer(
                    .init(
                        error: error.error.rawValue, suberror: error.suberror?.rawValue, codes: error.errorCodes,
                        description: error.errorDescription),
                    flow: .interactive, correlationId: id))
        case .failure(let failure):
            return .failure(StandardErrors.fromNetwork(failure, correlationId: id))
        }
    }

    /// Checks the answer (the nonce, the account), writes it to the shared cache without removing
    /// other accounts, and reports declined scopes after saving, as MSAL does.
    private func store(_ response: TokenResponse, request: InteractiveTokenRequest, nonce: String, correlationId: UUID) -> Result<
        MSALResult, NSError
    > {
        let now = environment.clock.now()
        let parsed: ParsedTokenResponse
        let account: MSALNativeAuthUserAccountResult
        do {
            parsed = try ParsedTokenResponse(response, requestedScopes: request.scopes)
            account = try MSALNativeAuthUserAccountResult.make(
                from: response, requestedScopes: request.scopes, authority: environment.authorityURL, now: now,
                correlationId: correlationId,
                client: client)
        } catch {
            return .failure(
                StandardErrors.make(
                    .internal, internal: .internalErrorInvalidResponse, description: error.message, correlationId: correlationId))
        }
        if let sent = parsed.idToken?.string("nonce"), sent != nonce {
            return .failure(
                StandardErrors.make(
                    .internal, internal: .internalErrorInvalidResponse, description: "The id token's nonce is not the one sent",
                    correlationId: correlationId))
        }
        do {
            _ = try environment.cache.save(
                response, clientInfo: parsed.clientInfo, idToken: parsed.idToken, scopes: ScopeSet(parsed.grantedScopes), now: now,
                condition: .signIn(singleAccount: false))
        } catch {
            environment.logger.warning("The new tokens could not be cached: \(error.message)")
        }
        let expiresOn = response.expiresOn.map { Date(timeIntervalSince1970: $0) } ?? now.addingTimeInterval(response.expiresIn ?? 600)
        let result = makeResult(
            accessToken: response.accessToken ?? "", expiresOn: response.accessToken == nil ? nil : expiresOn, scopes: parsed.grantedScopes,
            account: account, correlationId: correlationId)
        let declined = ScopeSet(request.scopes).declined(by: ScopeSet(parsed.grantedScopes + ["email"]))
        guard declined.isEmpty else {
            return .failure(
                StandardErrors.make(
                    .serverDeclinedScopes, description: "The server declined \(declined.joined(separator: " "))",
                    correlationId: correlationId,
                    extra: [MSALGrantedScopesKey: result.scopes, MSALDeclinedScopesKey: declined, MSALInvalidResultKey: result]))
        }
        environment.logger.info("Browser sign-in completed for account \(pii: result.account.username)")
        return .success(result)
    }
}

extension StandardErrors {
    /// A browser sign-in that ended before the code: MSAL's code for each reason (docs/error-mapping.md#internal-codes, #server-answers).
    static func fromInteractive(_ error: InteractiveAuthorizationError, correlationId: UUID) -> NSError {
        if case .authorizationFailed(let code, let description, let subcode) = error {
            var answer = ServerAnswer(error: code, suberror: subcode, codes: [], description: description)
            if answer.description == nil { answer.description = "The sign-in page answered \(code)" }
            return fromServer(answer, flow: .interactive, correlationId: correlationId)
        }
        let code = MSALError(rawValue: error.msalErrorCode) ?? .internal
        let internalCode = error.internalErrorCode.flatMap(MSALInternalError.init(rawValue:))
        return StandardErrors.make(code, internal: internalCode, description: error.description, correlationId: correlationId)
    }
}

extension BrowserLauncher {
    /// The app's `MSALBrowserLauncher` first (an error from it means "not shown": the next
    /// candidate is tried), then the system's.
    init(app: any MSALBrowserLauncher) {
        self.init(launch: { url in
            do {
                try await app.open(url)
                return true
            } catch {
                return false
            }
        })
    }
}
