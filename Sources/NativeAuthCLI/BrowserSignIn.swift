import Foundation
import MSAL

/// The browser sign-in `login` falls back to when the service requires it: MSAL's `acquireToken`
/// in the system browser (docs/usage.md#the-standard-msal-surface-and-the-browser).
enum BrowserSignIn {
    static func run(
        _ app: MSALNativeAuthPublicClientApplication, scopes: [String], loginHint: String?, terminal: any Terminal
    ) async throws(CLIError) -> MSALResult {
        let webview = MSALWebviewParameters()
        webview.signInAddressHandler = { address in terminal.message(noBrowserMessage(for: address)) }
        let parameters = MSALInteractiveTokenParameters(scopes: scopes, webviewParameters: webview)
        parameters.loginHint = loginHint
        terminal.message("Continuing in the browser; waiting for the sign-in there (Ctrl-C to give up).\n")
        do {
            return try await app.acquireToken(with: parameters)
        } catch {
            throw ErrorMapping.standard(error)
        }
    }

    /// What to tell the user when no browser can be started on this machine (SSH, a container):
    /// the listener's short address, and the `ssh -L` line for a browser on another machine. The
    /// one place this text is made.
    static func noBrowserMessage(for address: MSALSignInAddress) -> String {
        var text = """
            No browser could be started here. Open this address in a browser on this machine:

              \(address.shortURL.absoluteString)

            On your own machine, run this first, then open the address there:

              \(address.sshCommand)

            """
        if address.sshDestination == nil {
            text += "(Replace \(MSALSignInAddress.sshDestinationPlaceholder) with how you reach this machine.)\n"
        }
        return text
    }
}
