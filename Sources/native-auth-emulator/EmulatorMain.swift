import NativeAuthEmulator

/// `native-auth-emulator`: serves the native-auth API on loopback for offline development
/// (Sources/NativeAuthEmulator/EmulatorProgram.swift; the Debian package's `native-auth-emulator`
/// is a link to native-auth, which runs the same code under that name).
@main
struct EmulatorMain {
    static func main() {
        EmulatorProgram.main(Array(CommandLine.arguments.dropFirst()))
    }
}
