import Foundation
import MSAL
import NativeAuthEmulator

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The screen's controller: the tutorial "call multiple APIs with native authentication" with its
/// method names (`signInPressed`, `protectedApi1Pressed`, `accessProtectedAPI`,
/// `onAccessTokenRetrieveCompleted`, …), driving the model instead of UIKit views, plus the
/// code, password and attribute dialogs the other flows need (DemoController+Dialogs.swift).
@MainActor
public final class DemoController {
    public private(set) var model = DemoModel()
    let environment: DemoEnvironment
    var nativeAuth: MSALNativeAuthPublicClientApplication { environment.nativeAuth }

    // The tutorial's state.
    let protectedAPIUrl1: String?
    let protectedAPIUrl2: String?
    let protectedAPIScopes1: [String]
    let protectedAPIScopes2: [String]
    var accessTokenAPI1: String?
    var accessTokenAPI2: String?
    var accountResult: MSALNativeAuthUserAccountResult?

    // The states of the flow a dialog belongs to.
    var signInCodeState: SignInCodeRequiredState?
    var signInPasswordState: SignInPasswordRequiredState?
    var signUpCodeState: SignUpCodeRequiredState?
    var signUpPasswordState: SignUpPasswordRequiredState?
    var signUpAttributesState: SignUpAttributesRequiredState?
    var resetCodeState: ResetPasswordCodeRequiredState?
    var resetPasswordState: ResetPasswordRequiredState?
    /// MFA: the state to request a code or submit one on, the methods offered, the one chosen.
    var mfaState: MFABaseState?
    var mfaMethods: [MSALAuthMethod] = []
    var mfaMethod: MSALAuthMethod?
    /// Strong-auth registration: the state, the kinds of method offered, the last contact sent.
    var registerState: RegisterStrongAuthBaseState?
    var registerMethods: [MSALAuthMethod] = []
    var registerParameters: MSALNativeAuthChallengeAuthMethodParameters?
    /// The V2 flow's state the open dialog continues on (DemoController+V2.swift).
    var v2State: MSALNativeAuthState?
    /// Which V2 flow the buttons last started: what its errors say ("Error while signing up: …").
    var v2Scenario = MSALNativeAuthFlowScenario.signIn
    /// "Continue in browser" (DemoController+Browser): what the offer asks for, the generation of
    /// the browser sign-in under way, and whether its cancel must be asked again.
    var browserSignIn: BrowserSignIn?
    var browserSession: Int?
    var browserCancelPending = false
    /// The scopes and API of the last token request, for an answer that needs the browser.
    var tokenRequest: (scopes: [String], apiUrl: String?)?

    /// Each operation's callbacks go through a gate of this generation; Esc moves it on, so a
    /// cancelled operation's late answer is dropped.
    private(set) var generation = 0
    private var apiTask: URLSessionDataTask?

    public init(environment: DemoEnvironment, size: DemoModel.Size) {
        self.environment = environment
        protectedAPIUrl1 = environment.api1?.url
        protectedAPIUrl2 = environment.api2?.url
        protectedAPIScopes1 = environment.api1?.scopes ?? []
        protectedAPIScopes2 = environment.api2?.scopes ?? []
        model.size = size
        model.mode = environment.mode
        model.signInV2 = environment.signInV2
        model.mailbox = environment.mailbox.map { _ in [] }
        retrieveCachedAccount()
        if let banner = environment.banner, accountResult == nil {
            showResultText(banner)
        }
    }

    /// Applies a key: the pure update, then its effects.
    public func handle(_ key: Key) {
        if key == .tick {
            refreshMailbox()
            retryBrowserCancel()
        }
        for effect in update(&model, key) {
            perform(effect)
        }
    }

    func perform(_ effect: DemoEffect) {
        switch effect {
        case .press(.signIn): signInPressed()
        case .press(.signUp): signUpPressed()
        case .press(.resetPassword): resetPasswordPressed()
        case .press(.signOut): signOutPressed()
        case .press(.api1): protectedApi1Pressed()
        case .press(.api2): protectedApi2Pressed()
        case .press(.continueInBrowser): continueInBrowserPressed()
        case .submit(let values): submitPrompt(values)
        case .resend: resendPressed()
        case .choose(let index): mfaMethodChosen(index)
        case .otherMethod: otherMethodPressed()
        case .cancelPrompt: clearFlowStates()
        case .cancelOperation: cancelOperation()
        case .quit:
            apiTask?.cancel()
            requestBrowserCancel()
        }
    }

    // MARK: Tutorial: buttons

    func signInPressed() {
        if model.signInV2 { return signInV2Pressed() }
        guard !model.email.isEmpty, !model.password.isEmpty else {
            showResultText("Email or password not set")
            return
        }
        showResultText("Signing in...")
        let parameters = MSALNativeAuthSignInParameters(username: model.email)
        parameters.password = model.password
        parameters.scopes = []
        nativeAuth.signIn(parameters: parameters, delegate: startOperation())
    }

    func signUpPressed() {
        if model.signInV2 { return signUpV2Pressed() }
        guard !model.email.isEmpty else {
            showResultText("Email not set")
            return
        }
        showResultText("Signing up...")
        let parameters = MSALNativeAuthSignUpParameters(username: model.email)
        parameters.password = model.password.isEmpty ? nil : model.password
        nativeAuth.signUp(parameters: parameters, delegate: startOperation())
    }

    func resetPasswordPressed() {
        if model.signInV2 { return resetPasswordV2Pressed() }
        guard !model.email.isEmpty else {
            showResultText("Email not set")
            return
        }
        showResultText("Resetting password...")
        nativeAuth.resetPassword(parameters: MSALNativeAuthResetPasswordParameters(username: model.email), delegate: startOperation())
    }

    func signOutPressed() {
        guard accountResult != nil else {
            showResultText("Not currently signed in")
            return
        }
        accountResult?.signOut()
        accountResult = nil
        accessTokenAPI1 = nil
        accessTokenAPI2 = nil
        showResultText("Signed out")
        model.focus = .email
        updateUI()
    }

    func protectedApi1Pressed() {
        guard let url = protectedAPIUrl1, !protectedAPIScopes1.isEmpty else {
            showResultText("API 1 not configured.")
            return
        }
        if let accessToken = accessTokenAPI1 {
            accessProtectedAPI(apiUrl: url, accessToken: accessToken)
        } else {
            requestAccessToken(scopes: protectedAPIScopes1, apiUrl: url, message: "Retrieving access token to use with API 1...")
        }
    }

    func protectedApi2Pressed() {
        guard let url = protectedAPIUrl2, !protectedAPIScopes2.isEmpty else {
            showResultText("API 2 not configured.")
            return
        }
        if let accessToken = accessTokenAPI2 {
            accessProtectedAPI(apiUrl: url, accessToken: accessToken)
        } else {
            requestAccessToken(scopes: protectedAPIScopes2, apiUrl: url, message: "Retrieving access token to use with API 2...")
        }
    }

    private func requestAccessToken(scopes: [String], apiUrl: String, message: String) {
        guard let accountResult else {
            showResultText("Sign in first.")
            return
        }
        tokenRequest = (scopes, apiUrl)
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = scopes
        accountResult.getAccessToken(parameters: parameters, delegate: startOperation())
        showResultText(message)
    }

    // MARK: Tutorial: helpers

    /// Replaces the result view's text (and takes back a "Continue in browser" offered with the old one).
    func showResultText(_ text: String) {
        model.result = text
        model.resultScroll = 0
        model.withdrawBrowserOffer()
        model.signInAddress = nil
    }

    func updateUI() {
        model.signedInAs = accountResult?.account.username
    }

    func retrieveCachedAccount() {
        accountResult = nativeAuth.getNativeAuthUserAccount()
        if let accountResult, let username = accountResult.account.username {
            showResultText("Account found in cache: \(username)")
        } else {
            accountResult = nil
            showResultText("")
        }
        updateUI()
    }

    func accessProtectedAPI(apiUrl: String, accessToken: String) {
        guard let url = URL(string: apiUrl), url.scheme != nil, url.host != nil else {
            // As in the tutorial, reported after whatever the caller shows next.
            DispatchQueue.main.async { MainActor.assumeIsolated { self.showResultText("Invalid API url") } }
            return
        }
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
        let current = beginBusy()
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            let status = (response as? HTTPURLResponse)?.statusCode
            let text: String
            // A claims challenge (conditional access): the browser can get a token with those claims.
            let challenge =
                status == 401
                ? ((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "WWW-Authenticate")).flatMap {
                    Self.claimsChallenge(wwwAuthenticate: $0)
                } : nil
            if let error {
                text = error.localizedDescription
            } else if let status, (200...299).contains(status) {
                if let data, let result = try? JSONSerialization.jsonObject(with: data, options: []) {
                    text = """
                        Accessed API successfully using access token.
                        HTTP response code: \(status)
                        HTTP response body:
                        \(Self.describe(result))
                        """
                } else {
                    text = "Couldn't deserialize result JSON"
                }
            } else {
                text = "Unsuccessful response found when accessing the API" + (status.map { " (HTTP \($0))" } ?? "")
            }
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    guard self.endBusy(current) else { return }
                    if let challenge {
                        self.onClaimsChallenge(challenge, apiUrl: apiUrl)
                    } else {
                        self.showResultText(text)
                    }
                }
            }
        }
        apiTask = task
        task.resume()
    }

    nonisolated static func describe(_ json: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else {
            return "\(json)"
        }
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: Dialogs (what they say and send: DemoController+Dialogs.swift)

    func showPrompt(_ prompt: Prompt) {
        model.prompt = prompt
        if !prompt.options.isEmpty {
            model.focus = .promptOption(min(max(0, prompt.selected), prompt.options.count - 1))
        } else {
            model.focus = prompt.fields.isEmpty ? .promptButton(prompt.buttons[0]) : .promptField(0)
        }
    }

    func focus(_ focus: Focus) {
        model.focus = focus
    }

    /// Shows where to sign in, to copy (until the result text changes).
    func showSignInAddress(_ address: SignInAddress) {
        model.signInAddress = address
    }

    /// Shows the "Continue in browser" button under the result text, with the focus on it.
    func showBrowserButton() {
        model.browserOffered = true
        model.focus = .button(.continueInBrowser)
    }

    func closePrompt() {
        model.prompt = nil
        model.focus = .email
    }

    func promptMessage(_ text: String) {
        model.prompt?.message = text
    }

    // MARK: Busy and cancel

    /// Starts an operation: busy, and a gate for its callbacks.
    func startOperation() -> CallbackGate {
        CallbackGate(controller: self, generation: beginBusy())
    }

    func beginBusy() -> Int {
        generation += 1
        model.busy = true
        return generation
    }

    /// Ends the operation of `current`; false when it was cancelled (or superseded).
    func endBusy(_ current: Int) -> Bool {
        guard current == generation else { return false }
        model.busy = false
        return true
    }

    private func cancelOperation() {
        let browser = browserSession == generation
        generation += 1
        model.busy = false
        apiTask?.cancel()
        apiTask = nil
        if browser {
            cancelBrowserSignIn()
        } else if model.prompt != nil {
            promptMessage("Cancelled.")
        } else {
            showResultText("Cancelled.")
        }
    }

    private func refreshMailbox() {
        guard let mail = environment.mailbox else { return }
        model.mailbox = mail.prefix(3).map(Self.mailboxLine)
    }

    /// One mailbox line: the code, what it is for, the channel and where it went (for example
    /// `12345678  mfa  sms to +15550100`).
    nonisolated static func mailboxLine(_ message: EmulatorMail) -> String {
        let purpose = message.purpose.replacingOccurrences(of: "_", with: " ")
        return "\(message.code)  \(purpose)  \(message.channel) to \(message.target)"
    }
}
