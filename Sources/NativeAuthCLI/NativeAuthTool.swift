import Foundation
import MSAL

#if canImport(Glibc)
    import Glibc
#endif

/// The tool as a function of its arguments and context, so that tests run it in process; the
/// `native-auth` executable only calls `run` and exits with its status.
public enum NativeAuthTool {
    /// Runs one command and returns the exit status (`ExitCode`).
    public static func run(_ arguments: [String], context: ToolContext) async -> Int32 {
        let line: ParsedCommandLine
        do {
            line = try CommandLineParser.parse(arguments)
        } catch {
            let reporter = Reporter(terminal: context.terminal, json: arguments.contains("--json"))
            var error = error
            if !reporter.json { error.message += "\nTry 'native-auth --help'." }
            return reporter.failure(error)
        }
        let global: GlobalOptions
        let invocation: Invocation
        switch line {
        case .help(let command):
            context.terminal.output(command?.help ?? Command.overview)
            return ExitCode.success.rawValue
        case .version:
            context.terminal.output("native-auth \(MSALNativeAuthSDK.version)\n")
            return ExitCode.success.rawValue
        case .run(let parsedGlobal, let parsedInvocation):
            (global, invocation) = (parsedGlobal, parsedInvocation)
        }
        let reporter = Reporter(terminal: context.terminal, json: global.json)
        do throws(CLIError) {
            switch invocation {
            case .login(let options): try await LoginCommand(global: global, options: options, context: context, reporter: reporter).run()
            case .token(let options): try await TokenCommand(global: global, options: options, context: context, reporter: reporter).run()
            case .status: try await AccountCommands(global: global, context: context, reporter: reporter).status()
            case .accounts: try await AccountCommands(global: global, context: context, reporter: reporter).accounts()
            case .logout(let options): try await AccountCommands(global: global, context: context, reporter: reporter).logout(options)
            case .emulator(let options): try await EmulatorCommand(options: options, context: context, reporter: reporter).run()
            }
            return ExitCode.success.rawValue
        } catch {
            return reporter.failure(error)
        }
    }
}

extension ToolContext {
    /// The running process's context: its environment, stdin/stdout/stderr, and the directory of
    /// its executable (from /proc/self/exe, so a symbolic link or a PATH look-up finds the emulator
    /// beside it).
    public static func process(keyring: KeyringSupport, emulator: EmulatorSupport) -> ToolContext {
        ToolContext(
            environment: ProcessInfo.processInfo.environment, terminal: SystemTerminal(),
            executableDirectory: (currentExecutable() as NSString).deletingLastPathComponent, keyring: keyring, emulator: emulator,
            arguments: Array(CommandLine.arguments.dropFirst()))
    }
}

/// The path of this process's executable, from /proc/self/exe (the program itself, not a link
/// it was started through).
func currentExecutable() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard length > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// `strings` as a C `argv` (NULL-terminated), valid during `body`.
func withArgv<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
    let argv = strings.map { strdup($0) } + [nil]
    defer {
        for pointer in argv { free(pointer) }
    }
    return body(argv)
}
