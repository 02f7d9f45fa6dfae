import Foundation
import MSAL
import MSALSecretService
import NativeAuthCLI

// native-auth with the keyring store linked in (libsecret): native-auth runs this program in its
// place when --keyring or "token_cache": "keyring" asks for the keyring (docs/cli.md#the-keyring).
struct SecretServiceKeyring: KeyringStore {
    func location(clientId: String, signalFile: URL) throws -> MSALNativeAuthTokenCacheLocation {
        .persistence(
            try MSALSecretServicePersistence(
                schemaName: "msal-native-auth.native-auth", attributes: ["client_id": clientId.lowercased()], signalFile: signalFile,
                label: "native-auth tokens"))
    }
}

let context = ToolContext.process { _ in .linked(SecretServiceKeyring()) }
exit(await NativeAuthTool.run(context.arguments, context: context))
