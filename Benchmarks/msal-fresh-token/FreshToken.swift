import Foundation
import MSAL

/// What a command-line tool's `token` command does, and nothing more, through MSAL's public API
/// only: an application on a cache file, the signed-in account, one cached access token printed.
/// `msal-benchmarks --only fresh-token` starts it many times (BENCHMARKS.md).
///
///     msal-fresh-token CACHE_FILE CLIENT_ID AUTHORITY SCOPE…
///
/// Exits 0 after printing the token, 1 when no account is signed in or no token can be had, 2 on
/// bad arguments.
@main
struct FreshToken {
    static func main() async {
        let arguments = CommandLine.arguments
        guard arguments.count >= 5, let authorityURL = URL(string: arguments[3]) else {
            FileHandle.standardError.write(Data("usage: msal-fresh-token CACHE_FILE CLIENT_ID AUTHORITY SCOPE…\n".utf8))
            exit(2)
        }
        do {
            let config = MSALNativeAuthPublicClientApplicationConfig(
                clientId: arguments[2], authority: try MSALCIAMAuthority(url: authorityURL), challengeTypes: [.OOB, .password])
            config.tokenCacheLocation = .file(URL(fileURLWithPath: arguments[1]))
            let app = try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
            guard let account = app.getNativeAuthUserAccount() else {
                FileHandle.standardError.write(Data("msal-fresh-token: no signed-in account in the cache\n".utf8))
                exit(1)
            }
            let parameters = MSALNativeAuthGetAccessTokenParameters()
            parameters.scopes = Array(arguments[4...])
            let result = try await account.getAccessToken(parameters: parameters)
            print(result.accessToken)
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("msal-fresh-token: \(error)\n".utf8))
            exit(1)
        }
    }
}
