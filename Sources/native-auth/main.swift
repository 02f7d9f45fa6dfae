import Foundation
import LazyLoading
import MSAL
import MSALSecretService
import NativeAuthCLI
import NativeAuthEmulator

// One program under three names (docs/cli.md#one-program-three-names). Started as
// native-auth-emulator (the Debian package's link to this program) it is the emulator, the same as
// Sources/native-auth-emulator: chosen here, before anything starts a thread, as EmulatorProgram
// needs; its libmicrohttpd and libcrypto are loaded at their first call (Sources/LazyEmulator,
// Sources/LazyOpenSSL). One that cannot be loaded ends it with its "the server cannot start", 1
// (EmulatorCommandLine.exitStatuses; the rule of Sources/LazyLoading/LazyLoading.c).
if let name = CommandLine.arguments.first, (name as NSString).lastPathComponent == "native-auth-emulator" {
    lazy_loading_set_exit_status(1)
    EmulatorProgram.main(Array(CommandLine.arguments.dropFirst()))
}

// Otherwise the command-line tool (docs/cli.md; its logic is in Sources/NativeAuthCLI), also under
// the name native-auth-keyring. The keyring store is linked in, its libsecret and GLib loaded at the
// first keyring call (Sources/LazySecretService), so a plain `token` does not pay for them
// (docs/cli.md#the-keyring). A library loaded at its first call (libcurl, OpenSSL, libsecret) that
// cannot be loaded ends the tool with ExitCode.configuration (docs/cli.md#exit-codes).
lazy_loading_set_exit_status(ExitCode.configuration.rawValue)

struct SecretServiceKeyring: KeyringStore {
    func location(clientId: String, signalFile: URL) throws -> MSALNativeAuthTokenCacheLocation {
        .persistence(
            try MSALSecretServicePersistence(
                schemaName: "msal-native-auth.native-auth", attributes: ["client_id": clientId.lowercased()], signalFile: signalFile,
                label: "native-auth tokens"))
    }
}

// The emulator is linked in too: `--emulator` starts this program as native-auth-emulator.
let context = ToolContext.process(keyring: .linked(SecretServiceKeyring()), emulator: .linked)
exit(await NativeAuthTool.run(context.arguments, context: context))
