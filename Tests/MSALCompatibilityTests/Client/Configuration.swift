// Imports MSAL alone: `NSObject` and `URL` come through it, as on Apple platforms.
import MSAL

/// The app's settings, kept the way MSAL's sample app keeps them: a plain `NSObject` subclass.
class Configuration: NSObject {
    static let clientId = "11111111-1111-4111-8111-111111111111"
    static let codeOnlyClientId = "22222222-2222-4222-8222-222222222222"
    static let scopes = ["api://emulator/todolist/ToDoList.Read"]
    static let secondScopes = ["api://emulator/profile/Profile.Read"]

    /// The application, as MSAL's documentation builds it, for the authority the tests serve.
    static func makeApplication(authority: URL, clientId: String = clientId) throws -> MSALNativeAuthPublicClientApplication {
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: clientId, authority: try MSALCIAMAuthority(url: authority, validateFormat: false),
            challengeTypes: [.OOB, .password])
        config.capabilities = [.mfaRequired, .registrationRequired]
        config.tokenCacheLocation = .inMemory
        return try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
    }
}
