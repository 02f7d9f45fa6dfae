import MSAL

/// The tutorial's delegate callbacks, plus those of the code, password and attribute dialogs.
extension DemoController {
    // MARK: Sign-in

    func onSignInCompleted(result: MSALNativeAuthUserAccountResult) {
        closePrompt()
        clearFlowStates()
        showResultText("Signed in: \(result.account.username ?? "")")
        accountResult = result
        accessTokenAPI1 = nil
        accessTokenAPI2 = nil
        focus(.button(.api1))
        updateUI()
    }

    func onSignInStartError(error: SignInStartError) {
        if error.isBrowserRequired {
            offerBrowser("Signing in", error)
        } else if error.isUserNotFound || error.isInvalidCredentials || error.isInvalidUsername {
            showResultText("Invalid username or password")
        } else {
            showResultText("Error while signing in: \(error.errorDescription ?? "No error description")")
        }
    }

    func onSignInCodeRequired(newState: SignInCodeRequiredState, sentTo: String, codeLength: Int) {
        signInCodeState = newState
        showResultText("A code was sent to \(sentTo).")
        showPrompt(Self.codePrompt(.signInCode, sentTo: sentTo, codeLength: codeLength))
    }

    func onSignInPasswordRequired(newState: SignInPasswordRequiredState) {
        signInPasswordState = newState
        showPrompt(Self.passwordPrompt(.signInPassword, title: "Enter your password", label: "Password"))
    }

    func onSignInVerifyCodeError(error: VerifyCodeError, newState: SignInCodeRequiredState?) {
        if error.isBrowserRequired { return offerBrowser("Signing in", error) }
        signInCodeState = newState ?? signInCodeState
        promptMessage(Self.message(for: error))
    }

    func onSignInPasswordRequiredError(error: PasswordRequiredError, newState: SignInPasswordRequiredState?) {
        if error.isBrowserRequired { return offerBrowser("Signing in", error) }
        signInPasswordState = newState ?? signInPasswordState
        promptMessage(error.isInvalidPassword ? "Invalid password. Try again." : "Error: \(error.errorDescription ?? "")")
    }

    func onSignInResendCodeCodeRequired(newState: SignInCodeRequiredState, sentTo: String) {
        signInCodeState = newState
        promptMessage("A new code was sent to \(sentTo).")
    }

    func onResendCodeError(error: ResendCodeError) {
        if error.isBrowserRequired { return offerBrowser("Sending a new code", error) }
        promptMessage("Error while resending the code: \(error.errorDescription ?? "")")
    }

    // MARK: Sign-up

    func onSignUpStartError(error: SignUpStartError) {
        if error.isBrowserRequired {
            offerBrowser("Signing up", error)
        } else if error.isUserAlreadyExists {
            showResultText("Unable to sign up: User already exists")
        } else if error.isInvalidPassword {
            showResultText("Unable to sign up: The password is invalid. \(error.errorDescription ?? "")")
        } else if error.isInvalidUsername {
            showResultText("Unable to sign up: The username is invalid")
        } else {
            showResultText("Error while signing up: \(error.errorDescription ?? "No error description")")
        }
    }

    func onSignUpCodeRequired(newState: SignUpCodeRequiredState, sentTo: String, codeLength: Int) {
        signUpCodeState = newState
        showResultText("A verification code was sent to \(sentTo).")
        showPrompt(Self.codePrompt(.signUpCode, sentTo: sentTo, codeLength: codeLength))
    }

    func onSignUpAttributesInvalid(attributeNames: [String]) {
        showResultText("Invalid attributes: \(attributeNames.map(Self.readableLabel).joined(separator: ", "))")
    }

    func onSignUpVerifyCodeError(error: VerifyCodeError, newState: SignUpCodeRequiredState?) {
        if error.isBrowserRequired { return offerBrowser("Signing up", error) }
        signUpCodeState = newState ?? signUpCodeState
        promptMessage(Self.message(for: error))
    }

    func onSignUpPasswordRequired(newState: SignUpPasswordRequiredState) {
        signUpPasswordState = newState
        showResultText("Email verified. Choose a password.")
        showPrompt(Self.passwordPrompt(.signUpPassword, title: "Choose a password", label: "Password"))
    }

    func onSignUpPasswordRequiredError(error: PasswordRequiredError, newState: SignUpPasswordRequiredState?) {
        if error.isBrowserRequired { return offerBrowser("Signing up", error) }
        signUpPasswordState = newState ?? signUpPasswordState
        promptMessage(Self.message(for: error))
    }

    func onSignUpAttributesRequired(attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState) {
        signUpAttributesState = newState
        showResultText("A few more details are needed.")
        showPrompt(
            Prompt(
                kind: .attributes, title: "About you",
                fields: attributes.map { Prompt.Field(label: Self.readableLabel($0.name), name: $0.name) },
                buttons: [.submit, .cancel]))
    }

    func onSignUpAttributesInvalid(attributeNames: [String], newState: SignUpAttributesRequiredState) {
        signUpAttributesState = newState
        promptMessage("Invalid: \(attributeNames.map(Self.readableLabel).joined(separator: ", ")). Try other values.")
    }

    /// An attribute's name as a label: camelCase split into words, the first capitalised
    /// (`displayName` → `Display name`, `city` → `City`, `postalCode` → `Postal code`).
    nonisolated static func readableLabel(_ name: String) -> String {
        var words: [String] = []
        var word = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            // A capital starts a word, unless it continues an acronym (`userID`, `URLPath` → `URL path`).
            let previousIsUpper = word.last?.isUppercase ?? false
            let startsWord = character.isUppercase && !word.isEmpty && (!previousIsUpper || (next?.isLowercase ?? false))
            if character == "_" || character == "-" || character == " " {
                if !word.isEmpty { words.append(word) }
                word = ""
                continue
            }
            if startsWord {
                words.append(word)
                word = ""
            }
            word.append(character)
        }
        if !word.isEmpty { words.append(word) }
        guard let first = words.first else { return name }
        let rest = words.dropFirst().map { word in word.allSatisfy(\.isUppercase) ? word : word.lowercased() }
        return ([first.prefix(1).uppercased() + first.dropFirst()] + rest).joined(separator: " ")
    }

    func onSignUpAttributesRequiredError(error: AttributesRequiredError) {
        if error.isBrowserRequired { return offerBrowser("Signing up", error) }
        closePrompt()
        showResultText("Error while submitting attributes: \(error.errorDescription ?? "")")
    }

    func onSignUpCompleted(newState: SignInAfterSignUpState) {
        showResultText("Signed up. Signing in...")
        newState.signIn(parameters: MSALNativeAuthSignInAfterSignUpParameters(), delegate: startOperation())
    }

    func onSignInAfterPreviousFlowError(_ error: MSALNativeAuthGenericError) {
        if error.isBrowserRequired { return offerBrowser("Signing in", error) }
        closePrompt()
        showResultText("Error while signing in: \(error.errorDescription ?? "")")
    }

    // MARK: Password reset

    func onResetPasswordStartError(error: ResetPasswordStartError) {
        if error.isBrowserRequired {
            offerBrowser("Resetting the password", error)
        } else if error.isUserNotFound {
            showResultText("Unable to reset password: User not found")
        } else if error.isUserDoesNotHavePassword {
            showResultText("Unable to reset password: This account signs in with email codes and has no password")
        } else {
            showResultText("Error while resetting password: \(error.errorDescription ?? "No error description")")
        }
    }

    func onResetPasswordCodeRequired(newState: ResetPasswordCodeRequiredState, sentTo: String, codeLength: Int) {
        resetCodeState = newState
        showResultText("A code was sent to \(sentTo).")
        showPrompt(Self.codePrompt(.resetCode, sentTo: sentTo, codeLength: codeLength))
    }

    func onResetPasswordVerifyCodeError(error: VerifyCodeError, newState: ResetPasswordCodeRequiredState?) {
        if error.isBrowserRequired { return offerBrowser("Resetting the password", error) }
        resetCodeState = newState ?? resetCodeState
        promptMessage(Self.message(for: error))
    }

    func onPasswordRequired(newState: ResetPasswordRequiredState) {
        resetPasswordState = newState
        showResultText("Code verified. Choose a new password.")
        showPrompt(Self.passwordPrompt(.resetPassword, title: "Choose a new password", label: "New password"))
    }

    func onResetPasswordRequiredError(error: PasswordRequiredError, newState: ResetPasswordRequiredState?) {
        if error.isBrowserRequired { return offerBrowser("Resetting the password", error) }
        resetPasswordState = newState ?? resetPasswordState
        promptMessage(Self.message(for: error))
    }

    func onResetPasswordCompleted(newState: SignInAfterResetPasswordState) {
        showResultText("Password reset. Signing in...")
        newState.signIn(parameters: MSALNativeAuthSignInAfterResetPasswordParameters(), delegate: startOperation())
    }

    // MARK: Tutorial: tokens

    func onAccessTokenRetrieveCompleted(result: MSALNativeAuthTokenResult) {
        if protectedAPIScopes1.allSatisfy(result.scopes.contains), let url = protectedAPIUrl1 {
            accessTokenAPI1 = result.accessToken
            accessProtectedAPI(apiUrl: url, accessToken: result.accessToken)
        }
        if protectedAPIScopes2.allSatisfy(result.scopes.contains(_:)), let url = protectedAPIUrl2 {
            accessTokenAPI2 = result.accessToken
            accessProtectedAPI(apiUrl: url, accessToken: result.accessToken)
        }
        showResultText("Signed in." + "\n\n" + "Scopes:\n\(result.scopes)" + "\n\n" + "Access Token:\n\(result.accessToken)")
        updateUI()
    }

    func onAccessTokenRetrieveError(error: RetrieveAccessTokenError) {
        if error.isBrowserRequired {
            return offerBrowser("Getting an access token", error, scopes: tokenRequest?.scopes, retryURL: tokenRequest?.apiUrl)
        }
        showResultText("Error retrieving access token: \(error.errorDescription ?? "No error description")")
    }
}

/// Forwards SDK callbacks to the controller while their operation is current. One gate per
/// operation: after Esc the controller's generation moves on and the late answer is dropped.
@MainActor
final class CallbackGate: SignInStartDelegate, SignInVerifyCodeDelegate, SignInPasswordRequiredDelegate, SignInResendCodeDelegate,
    SignUpStartDelegate, SignUpVerifyCodeDelegate, SignUpResendCodeDelegate, SignUpPasswordRequiredDelegate,
    SignUpAttributesRequiredDelegate, SignInAfterSignUpDelegate, ResetPasswordStartDelegate, ResetPasswordVerifyCodeDelegate,
    ResetPasswordResendCodeDelegate, ResetPasswordRequiredDelegate, SignInAfterResetPasswordDelegate, CredentialsDelegate,
    MFARequestChallengeDelegate, MFASubmitChallengeDelegate, RegisterStrongAuthChallengeDelegate, RegisterStrongAuthSubmitChallengeDelegate
{
    private weak var controller: DemoController?
    private let generation: Int

    init(controller: DemoController, generation: Int) {
        self.controller = controller
        self.generation = generation
    }

    /// The controller, if this operation is still the current one (which then ends).
    private var current: DemoController? {
        guard let controller, controller.endBusy(generation) else { return nil }
        return controller
    }

    func onSignInCompleted(result: MSALNativeAuthUserAccountResult) { current?.onSignInCompleted(result: result) }
    func onSignInStartError(error: SignInStartError) { current?.onSignInStartError(error: error) }
    func onSignInCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        current?.onSignInCodeRequired(newState: newState, sentTo: sentTo, codeLength: codeLength)
    }
    func onSignInPasswordRequired(newState: SignInPasswordRequiredState) { current?.onSignInPasswordRequired(newState: newState) }
    func onSignInVerifyCodeError(error: VerifyCodeError, newState: SignInCodeRequiredState?) {
        current?.onSignInVerifyCodeError(error: error, newState: newState)
    }
    func onSignInPasswordRequiredError(error: PasswordRequiredError, newState: SignInPasswordRequiredState?) {
        current?.onSignInPasswordRequiredError(error: error, newState: newState)
    }
    func onSignInResendCodeError(error: ResendCodeError, newState: SignInCodeRequiredState?) { current?.onResendCodeError(error: error) }
    func onSignInResendCodeCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        current?.onSignInResendCodeCodeRequired(newState: newState, sentTo: sentTo)
    }

    func onSignUpStartError(error: SignUpStartError) { current?.onSignUpStartError(error: error) }
    func onSignUpCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        current?.onSignUpCodeRequired(newState: newState, sentTo: sentTo, codeLength: codeLength)
    }
    func onSignUpAttributesInvalid(attributeNames: [String]) { current?.onSignUpAttributesInvalid(attributeNames: attributeNames) }
    func onSignUpVerifyCodeError(error: VerifyCodeError, newState: SignUpCodeRequiredState?) {
        current?.onSignUpVerifyCodeError(error: error, newState: newState)
    }
    func onSignUpAttributesRequired(attributes: [MSALNativeAuthRequiredAttribute], newState: SignUpAttributesRequiredState) {
        current?.onSignUpAttributesRequired(attributes: attributes, newState: newState)
    }
    func onSignUpPasswordRequired(newState: SignUpPasswordRequiredState) { current?.onSignUpPasswordRequired(newState: newState) }
    func onSignUpCompleted(newState: SignInAfterSignUpState) { current?.onSignUpCompleted(newState: newState) }
    func onSignUpResendCodeError(error: ResendCodeError, newState: SignUpCodeRequiredState?) { current?.onResendCodeError(error: error) }
    func onSignUpResendCodeCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        guard let controller = current else { return }
        controller.signUpCodeState = newState
        controller.promptMessage("A new code was sent to \(sentTo).")
    }
    func onSignUpPasswordRequiredError(error: PasswordRequiredError, newState: SignUpPasswordRequiredState?) {
        current?.onSignUpPasswordRequiredError(error: error, newState: newState)
    }
    func onSignUpAttributesRequiredError(error: AttributesRequiredError) { current?.onSignUpAttributesRequiredError(error: error) }
    func onSignUpAttributesInvalid(attributeNames: [String], newState: SignUpAttributesRequiredState) {
        current?.onSignUpAttributesInvalid(attributeNames: attributeNames, newState: newState)
    }
    func onSignInAfterSignUpError(error: SignInAfterSignUpError) { current?.onSignInAfterPreviousFlowError(error) }

    func onResetPasswordStartError(error: ResetPasswordStartError) { current?.onResetPasswordStartError(error: error) }
    func onResetPasswordCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        current?.onResetPasswordCodeRequired(newState: newState, sentTo: sentTo, codeLength: codeLength)
    }
    func onResetPasswordVerifyCodeError(error: VerifyCodeError, newState: ResetPasswordCodeRequiredState?) {
        current?.onResetPasswordVerifyCodeError(error: error, newState: newState)
    }
    func onPasswordRequired(newState: ResetPasswordRequiredState) { current?.onPasswordRequired(newState: newState) }
    func onResetPasswordResendCodeError(error: ResendCodeError, newState: ResetPasswordCodeRequiredState?) {
        guard let controller = current else { return }
        controller.resetCodeState = newState
        controller.onResendCodeError(error: error)
    }
    func onResetPasswordResendCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType,
        codeLength: Int
    ) {
        guard let controller = current else { return }
        controller.resetCodeState = newState
        controller.promptMessage("A new code was sent to \(sentTo).")
    }
    func onResetPasswordRequiredError(error: PasswordRequiredError, newState: ResetPasswordRequiredState?) {
        current?.onResetPasswordRequiredError(error: error, newState: newState)
    }
    func onResetPasswordCompleted(newState: SignInAfterResetPasswordState) { current?.onResetPasswordCompleted(newState: newState) }
    func onSignInAfterResetPasswordError(error: SignInAfterResetPasswordError) { current?.onSignInAfterPreviousFlowError(error) }

    // Second factor and strong-auth registration (DemoController+StrongAuth).
    func onSignInAwaitingMFA(authMethods: [MSALAuthMethod], newState: AwaitingMFAState) {
        current?.onSignInAwaitingMFA(authMethods: authMethods, newState: newState)
    }
    func onSignInStrongAuthMethodRegistration(authMethods: [MSALAuthMethod], newState: RegisterStrongAuthState) {
        current?.onSignInStrongAuthMethodRegistration(authMethods: authMethods, newState: newState)
    }

    func onMFARequestChallengeVerificationRequired(
        newState: MFARequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) {
        current?.onMFARequestChallengeVerificationRequired(newState: newState, sentTo: sentTo, codeLength: codeLength)
    }
    func onMFARequestChallengeSelectionRequired(authMethods: [MSALAuthMethod], newState: MFARequiredState) {
        // Not sent by the service today (MSAL declares it): the same picker, with the new state.
        guard let controller = current else { return }
        controller.mfaState = newState
        controller.mfaMethods = authMethods
        controller.showPrompt(DemoController.mfaMethodPrompt(authMethods, selected: 0))
    }
    func onMFARequestChallengeError(error: MFARequestChallengeError, newState: MFARequiredState?) {
        current?.onMFARequestChallengeError(error: error, newState: newState)
    }
    func onMFASubmitChallengeError(error: MFASubmitChallengeError, newState: MFARequiredState?) {
        current?.onMFASubmitChallengeError(error: error, newState: newState)
    }

    func onRegisterStrongAuthVerificationRequired(result: MSALNativeAuthRegisterStrongAuthVerificationRequiredResult) {
        current?.onRegisterStrongAuthVerificationRequired(result: result)
    }
    func onRegisterStrongAuthChallengeError(error: RegisterStrongAuthChallengeError, newState: RegisterStrongAuthState?) {
        current?.onRegisterStrongAuthChallengeError(error: error, newState: newState)
    }
    func onRegisterStrongAuthSubmitChallengeError(
        error: RegisterStrongAuthSubmitChallengeError, newState: RegisterStrongAuthVerificationRequiredState?
    ) {
        current?.onRegisterStrongAuthSubmitChallengeError(error: error, newState: newState)
    }

    func onAccessTokenRetrieveCompleted(result: MSALNativeAuthTokenResult) { current?.onAccessTokenRetrieveCompleted(result: result) }
    func onAccessTokenRetrieveError(error: RetrieveAccessTokenError) { current?.onAccessTokenRetrieveError(error: error) }
}
