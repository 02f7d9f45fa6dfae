import Foundation
import NativeAuthCLI

// The command-line tool (docs/cli.md); its logic is in Sources/NativeAuthCLI. The keyring store
// lives in native-auth-keyring, which this program runs in its place for --keyring.
let context = ToolContext.process { directory in .sibling(directory + "/native-auth-keyring") }
exit(await NativeAuthTool.run(context.arguments, context: context))
