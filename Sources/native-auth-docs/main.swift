import Foundation
import NativeAuthCLI
import NativeAuthEmulator

// Writes native-auth's manual page and shell completions (CommandReference) and the emulator's
// manual page (EmulatorCommandLine.manPage) into the directory given; scripts/package puts them
// into the Debian package.
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let directory = arguments.first, !directory.hasPrefix("-") else {
    FileHandle.standardError.write(Data("usage: native-auth-docs DIRECTORY\n".utf8))
    exit(2)
}
do {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for file in CommandReference.files + [("native-auth-emulator.1", EmulatorCommandLine.manPage)] {
        try Data(file.text.utf8).write(to: URL(fileURLWithPath: directory).appendingPathComponent(file.name))
    }
} catch {
    FileHandle.standardError.write(Data("native-auth-docs: \(error)\n".utf8))
    exit(1)
}
