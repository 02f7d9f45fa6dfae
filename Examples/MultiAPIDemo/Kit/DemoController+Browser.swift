import Foundation
import MSAL

/// "Continue in browser": when a native flow answers that a browser is required, or an API sends a
/// claims challenge, the result view offers the browser sign-in, MSAL's `acquireToken(with:)` on
/// the same application. Its tokens land in the same cache, so the account and both API buttons
/// then work as after a native sign-in.
extension DemoController {
    /// What "Continue in browser" asks for.
    struct BrowserSignIn {
        /// The scopes of the API that needed it (API 1's by default).
        var scopes: [String]
        /// The claims an API's challenge asked for.
        var claims: MSALClaimsRequest?
        /// The API called again with the new token (the one that was refused or had no token).
        var retryURL: String?
    }

    // MARK: The offer

    /// A native flow answered "browser required": its dialog closes and the result view offers the browser.
    func offerBrowser(_ flow: String, _ error: MSALNativeAuthError, scopes: [String]? = nil, retryURL: String? = nil) {
        closePrompt()
        clearFlowStates()
        offerBrowser(
            "\(flow) needs a web browser: \(error.errorDescription ?? "the service asks for a browser sign-in").",
            BrowserSignIn(scopes: scopes ?? protectedAPIScopes1, claims: nil, retryURL: retryURL))
    }

    func offerBrowser(_ text: String, _ request: BrowserSignIn) {
        showResultText(text + "\nPress Continue in browser to sign in there.")
        browserSignIn = request
        showBrowserButton()
    }

    /// The API's 401 asked for claims (`WWW-Authenticate: … claims="<base64 JSON>"`): the browser
    /// sign-in requests them, then the API is called again with the new token.
    func onClaimsChallenge(_ claims: String, apiUrl: String) {
        let name = apiUrl == protectedAPIUrl2 ? "API 2" : "API 1"
        // The held token lacks what the API asks for.
        if name == "API 2" { accessTokenAPI2 = nil } else { accessTokenAPI1 = nil }
        let request: MSALClaimsRequest
        do {
            request = try MSALClaimsRequest(jsonString: claims)
        } catch {
            showResultText("Unsuccessful response found when accessing the API (HTTP 401): its claims challenge cannot be read")
            return
        }
        offerBrowser(
            "\(name) asks for a stronger sign-in (HTTP 401, a claims challenge: \(claims)).",
            BrowserSignIn(
                scopes: name == "API 2" ? protectedAPIScopes2 : protectedAPIScopes1, claims: request, retryURL: apiUrl))
    }

    /// The claims JSON of a claims challenge: the `claims` parameter of a `WWW-Authenticate` header,
    /// base64 (standard or URL-safe, padded or not); nil when there is none or it does not decode.
    nonisolated static func claimsChallenge(wwwAuthenticate header: String) -> String? {
        guard let range = header.range(of: #"(^|[\s,])claims="[^"]*""#, options: .regularExpression) else { return nil }
        let quoted = header[range].drop(while: { $0 != "\"" }).dropFirst().dropLast()
        var base64 = quoted.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard !quoted.isEmpty, let data = Data(base64Encoded: base64), let json = String(data: data, encoding: .utf8) else { return nil }
        return json
    }

    // MARK: The browser sign-in

    /// "Continue in browser": `acquireToken` with the offer's scopes and claims, the email field
    /// as the login hint. The default launcher opens the system browser; when none starts, the
    /// short address and its `ssh -L` line are shown and the sign-in keeps waiting (Esc cancels).
    func continueInBrowserPressed() {
        guard model.browserOffered, let request = browserSignIn else { return }
        // One browser sign-in per process: a cancelled one must have answered before the next.
        guard browserSession == nil else {
            offerBrowser("The cancelled browser sign-in is still closing. Try again in a moment.", request)
            return
        }
        let webview = MSALWebviewParameters()
        webview.browserLauncher = environment.browserLauncher
        let current = beginBusy()
        browserSession = current
        webview.signInAddressHandler = { [weak self] address in
            DispatchQueue.main.async { MainActor.assumeIsolated { self?.showSignInAddress(address, current) } }
        }
        let parameters = MSALInteractiveTokenParameters(scopes: request.scopes, webviewParameters: webview)
        parameters.claimsRequest = request.claims
        parameters.loginHint = model.email.isEmpty ? accountResult?.account.username : model.email
        parameters.completionBlockQueue = .main
        showResultText("Opening the browser to sign in... Finish there, or press Esc to cancel.")
        nativeAuth.acquireToken(with: parameters) { [weak self] result, error in
            MainActor.assumeIsolated { self?.onBrowserSignInCompleted(result, error, current, request) }
        }
    }

    /// No browser could be started (over SSH, for example): the SDK listener's short address and
    /// the `ssh -L` line that forwards it, while the sign-in waits.
    func showSignInAddress(_ address: MSALSignInAddress, _ current: Int) {
        guard current == generation, model.busy else { return }
        showResultText("No browser could be started. Open \(address.shortURL) in a browser; the demo waits (Esc cancels).")
        showSignInAddress(
            SignInAddress(
                shortURL: address.shortURL.absoluteString, sshCommand: address.sshCommand, placeholderHost: address.sshDestination == nil))
    }

    private func onBrowserSignInCompleted(_ result: MSALResult?, _ error: (any Error)?, _ current: Int, _ request: BrowserSignIn) {
        if browserSession == current {
            browserSession = nil
            browserCancelPending = false
        }
        guard endBusy(current) else { return }
        guard let result else {
            let error = (error ?? NSError(domain: MSALErrorDomain, code: MSALError.internal.rawValue)) as NSError
            if error.domain == MSALErrorDomain, error.code == MSALError.userCanceled.rawValue {
                offerBrowser("Browser sign-in cancelled.", request)
            } else {
                offerBrowser("Error while signing in with the browser: \(error.localizedDescription)", request)
            }
            return
        }
        browserSignIn = nil
        // One account, as after a native sign-in: a different user signed in on the page replaces the previous one.
        if let accounts = try? nativeAuth.allAccounts() {
            for account in accounts where account.identifier != result.account.identifier { try? nativeAuth.remove(account) }
        }
        retrieveSignedInAccount()
        accessTokenAPI1 = nil
        accessTokenAPI2 = nil
        if !protectedAPIScopes1.isEmpty, protectedAPIScopes1.allSatisfy(result.scopes.contains) { accessTokenAPI1 = result.accessToken }
        if !protectedAPIScopes2.isEmpty, protectedAPIScopes2.allSatisfy(result.scopes.contains) { accessTokenAPI2 = result.accessToken }
        showResultText("Signed in with the browser: \(result.account.username ?? "")")
        focus(.button(.api1))
        updateUI()
        if let url = request.retryURL {
            accessProtectedAPI(apiUrl: url, accessToken: result.accessToken)
        }
    }

    /// The account the browser sign-in left in the cache, as `getNativeAuthUserAccount()` returns it.
    private func retrieveSignedInAccount() {
        accountResult = nativeAuth.getNativeAuthUserAccount()
    }

    // MARK: Cancel

    /// Esc while the browser sign-in waits: the session is cancelled and the offer comes back.
    func cancelBrowserSignIn() {
        guard let request = browserSignIn else { return }
        requestBrowserCancel()
        offerBrowser("Browser sign-in cancelled.", request)
    }

    /// Asks the SDK to end the session; a cancel that comes before the session has started is
    /// lost, so it is asked again on each tick until the session's answer arrives.
    func requestBrowserCancel() {
        guard browserSession != nil else { return }
        browserCancelPending = !MSALPublicClientApplication.cancelCurrentWebAuthSession()
    }

    func retryBrowserCancel() {
        if browserCancelPending { requestBrowserCancel() }
    }
}
