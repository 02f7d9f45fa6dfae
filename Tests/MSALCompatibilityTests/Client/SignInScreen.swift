import MSAL

/// A screen in the shape of MSAL's sample view controllers, on Linux an ordinary class: one object
/// that starts the sign-in and serves every step of it, then fetches a token. Its state lives in
/// stored properties that the callbacks update and the owner reads.
class SignInScreen: SignInStartDelegate, SignInVerifyCodeDelegate, SignInPasswordRequiredDelegate, CredentialsDelegate {
    let nativeAuth: MSALNativeAuthPublicClientApplication
    var onChange: (() -> Void)?

    private(set) var status = "Signed out"
    private(set) var codeState: SignInCodeRequiredState?
    private(set) var accountResult: MSALNativeAuthUserAccountResult?
    private(set) var accessToken: String?

    init(nativeAuth: MSALNativeAuthPublicClientApplication) {
        self.nativeAuth = nativeAuth
    }

    func signInPressed(email: String) {
        let parameters = MSALNativeAuthSignInParameters(username: email)
        parameters.scopes = Configuration.scopes
        nativeAuth.signIn(parameters: parameters, delegate: self)
    }

    func codeEntered(_ code: String) {
        codeState?.submitCode(code: code, delegate: self)
    }

    // MARK: SignInStartDelegate

    func onSignInStartError(error: SignInStartError) {
        show("Sign-in failed: \(error.errorDescription ?? "")")
    }

    func onSignInCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        codeState = newState
        show("Enter the code sent to \(sentTo)")
    }

    func onSignInPasswordRequired(newState: SignInPasswordRequiredState) {
        show("Password required")
    }

    // MARK: SignInVerifyCodeDelegate, SignInPasswordRequiredDelegate

    func onSignInVerifyCodeError(error: VerifyCodeError, newState: SignInCodeRequiredState?) {
        codeState = newState
        show(error.isInvalidCode ? "Wrong code" : "Error: \(error.errorDescription ?? "")")
    }

    func onSignInPasswordRequiredError(error: PasswordRequiredError, newState: SignInPasswordRequiredState?) {
        show("Error: \(error.errorDescription ?? "")")
    }

    func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        accountResult = result
        codeState = nil
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = Configuration.secondScopes
        result.getAccessToken(parameters: parameters, delegate: self)
        show("Signed in as \(result.account.username ?? "")")
    }

    // MARK: CredentialsDelegate

    func onAccessTokenRetrieveCompleted(result: MSALNativeAuthTokenResult) {
        accessToken = result.accessToken
        show("Token for \(result.scopes.joined(separator: " "))")
    }

    func onAccessTokenRetrieveError(error: RetrieveAccessTokenError) {
        show("Token error: \(error.errorDescription ?? "")")
    }

    private func show(_ text: String) {
        status = text
        onChange?()
    }
}

/// The same screen isolated to the main actor, as a `UIViewController` subclass is on Apple
/// platforms: both shapes conform.
@MainActor
final class MainActorSignInScreen: SignInStartDelegate, CredentialsDelegate {
    private(set) var result: MSALNativeAuthUserAccountResult?
    private(set) var error: SignInStartError?
    private(set) var token: MSALNativeAuthTokenResult?
    var done: (() -> Void)?

    func onSignInStartError(error: SignInStartError) {
        self.error = error
        done?()
    }

    func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        self.result = result
        result.getAccessToken(parameters: MSALNativeAuthGetAccessTokenParameters(), delegate: self)
    }

    func onAccessTokenRetrieveCompleted(result: MSALNativeAuthTokenResult) {
        token = result
        done?()
    }

    func onAccessTokenRetrieveError(error: RetrieveAccessTokenError) {
        done?()
    }
}
