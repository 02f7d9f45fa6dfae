import Foundation
import MSAL

/// `native-auth token`: the access token alone on stdout, from the cache or refreshed. Kept light
/// for scripts that call it often: one configuration file, the token cache, and the network only
/// when a refresh is due (docs/cli.md#token-and-its-cost).
struct TokenCommand {
    let global: GlobalOptions
    let options: TokenOptions
    let context: ToolContext
    let reporter: Reporter

    func run() async throws(CLIError) {
        let session = try Session.resolve(global, context, startEmulator: false)
        let scopes = options.scopes.isEmpty ? session.configuration.api1?.scopes ?? [] : options.scopes
        guard !scopes.isEmpty else {
            throw CLIError(.usage, "which API? pass --scope SCOPE (or set api1 in the configuration)")
        }
        let app = try session.application(context)
        guard let account = app.getNativeAuthUserAccount() else {
            if let problem = app.lastTokenCacheError {
                throw CLIError(.failure, "the token cache cannot be read: \(problem.localizedDescription)")
            }
            throw CLIError(.notSignedIn, "no account is signed in: run native-auth login")
        }
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = scopes
        parameters.forceRefresh = options.forceRefresh
        let token: MSALNativeAuthTokenResult
        do {
            token = try await account.getAccessToken(parameters: parameters)
        } catch {
            var mapped = ErrorMapping.native(error)
            if mapped.code == .network, let emulator = session.emulator, !EmulatorControl.isRunning(emulator) {
                mapped.message += " (the emulator is not running: its tokens are gone; native-auth --emulator login)"
            }
            throw mapped
        }
        reporter.result(token.accessToken, Self.json(token))
    }

    static func json(_ token: MSALNativeAuthTokenResult) -> [String: Any] {
        var object: [String: Any] = ["access_token": token.accessToken, "scopes": token.scopes]
        object["expires_on"] = token.expiresOn.map { ISO8601DateFormatter().string(from: $0) }
        return object
    }
}
