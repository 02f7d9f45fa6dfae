import Foundation
import MSAL
import MSALSecretService
import NativeAuthCLI

// The command-line tool (docs/cli.md); its logic is in Sources/NativeAuthCLI. The keyring store is
// linked in, its libsecret and GLib loaded at the first keyring call (Sources/LazySecretService),
// so a plain `token` does not pay for them (docs/cli.md#the-keyring).
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
