import Foundation
import MSAL
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Swift snippets of the tutorial "call multiple APIs with native authentication", as
/// written, with only their UIKit parts replaced (`@IBAction`, text views, `print`). If the SDK's
/// surface drifts from MSAL's, this file stops compiling.
@MainActor
final class TutorialViewController {
    var nativeAuth: MSALNativeAuthPublicClientApplication!
    var accountResult: MSALNativeAuthUserAccountResult?
    var resultText = ""
    var email = ""
    var password = ""

    let protectedAPIUrl1: String? = nil
    let protectedAPIUrl2: String? = nil
    let protectedAPIScopes1: [String] = []
    let protectedAPIScopes2: [String] = []

    var accessTokenAPI1: String?
    var accessTokenAPI2: String?

    func showResultText(_ text: String) { resultText = text }

    func signInPressed(_: Any) {
        guard !email.isEmpty, !password.isEmpty else {
            resultText = "Email or password not set"
            return
        }
        showResultText("Signing in...")
        let parameters = MSALNativeAuthSignInParameters(username: email)
        parameters.password = password
        nativeAuth.signIn(parameters: parameters, delegate: self)
    }

    func protectedApi1Pressed(_: Any) {
        guard let url = protectedAPIUrl1, !protectedAPIScopes1.isEmpty else {
            showResultText("API 1 not configured.")
            return
        }
        if let accessToken = accessTokenAPI1 {
            accessProtectedAPI(apiUrl: url, accessToken: accessToken)
        } else {
            let parameters = MSALNativeAuthGetAccessTokenParameters()
            parameters.scopes = protectedAPIScopes1
            accountResult?.getAccessToken(parameters: parameters, delegate: self)
            let message = "Retrieving access token to use with API 1..."
            showResultText(message)
        }
    }

    func accessProtectedAPI(apiUrl: String, accessToken: String) {
        guard let url = URL(string: apiUrl) else {
            showResultText("Invalid API url")
            return
        }
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            if let error = error {
                DispatchQueue.main.async { MainActor.assumeIsolated { self.showResultText(error.localizedDescription) } }
                return
            }
            guard let httpResponse = response as? HTTPURLResponse, (200...299).contains(httpResponse.statusCode) else {
                DispatchQueue.main.async {
                    MainActor.assumeIsolated { self.showResultText("Unsuccessful response found when accessing the API") }
                }
                return
            }
            guard let data = data, let result = try? JSONSerialization.jsonObject(with: data, options: []) else {
                DispatchQueue.main.async { MainActor.assumeIsolated { self.showResultText("Couldn't deserialize result JSON") } }
                return
            }
            let text =
                "Accessed API successfully using access token.\nHTTP response code: \(httpResponse.statusCode)\nHTTP response body: \(result)"
            DispatchQueue.main.async { MainActor.assumeIsolated { self.showResultText(text) } }
        }
        task.resume()
    }
}

extension TutorialViewController: SignInStartDelegate {
    func onSignInCompleted(result: MSAL.MSALNativeAuthUserAccountResult) {
        showResultText("Signed in: \(result.account.username ?? "")")
        accountResult = result
    }

    func onSignInStartError(error: MSAL.SignInStartError) {
        if error.isUserNotFound || error.isInvalidCredentials || error.isInvalidUsername {
            showResultText("Invalid username or password")
        } else {
            showResultText("Error while signing in: \(error.errorDescription ?? "No error description")")
        }
    }
}

extension TutorialViewController: CredentialsDelegate {
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
    }

    func onAccessTokenRetrieveError(error: MSAL.RetrieveAccessTokenError) {
        showResultText("Error retrieving access token: \(error.errorDescription ?? "No error description")")
    }
}

@Suite @MainActor struct TutorialSnippetTests {
    @Test func theTutorialControllerRunsAsWritten() {
        let controller = TutorialViewController()
        controller.signInPressed(())
        #expect(controller.resultText == "Email or password not set")
        controller.protectedApi1Pressed(())
        #expect(controller.resultText == "API 1 not configured.")
    }
}
