import Dispatch
import Foundation
import MSAL
import MultiAPIDemoKit
import Synchronization

/// Set by the SIGINT/SIGTERM handler (a lock-free store, safe in a signal handler); the main loop
/// polls it and leaves through the same path as Ctrl-C, which restores the terminal.
let stopRequested = Atomic<Bool>(false)

/// `multi-api-demo`: the tutorial's "call two protected APIs" screen in a terminal.
@main
struct DemoMain {
    static let usage = """
        Usage: multi-api-demo [--config FILE [--keyring] | --conditional-access] [--v2] [--log FILE]

        The "call two protected APIs" screen of Microsoft Entra External ID native authentication,
        in a terminal: sign in, sign up, reset password, sign out, and call two protected APIs.

        With no --config it starts a local emulator of the native-auth API inside the program and
        shows the demo accounts and a mailbox with the one-time codes the emulator "sent".

        Options:
          --config FILE   talk to a real tenant, from a JSON file:
                            {"client_id": "…", "tenant_subdomain": "contoso",   (or "authority": "https://…")
                             "challenge_types": ["oob", "password"],
                             "capabilities": ["mfa_required", "registration_required"],   (optional; [] for none)
                             "api1": {"url": "https://…", "scopes": ["api://…/Scope"]},
                             "api2": {"url": "https://…", "scopes": ["api://…/Scope"]},
                             "cache_file": "/optional/token_cache.json",
                             "token_cache": "file"}   (or "keyring"; optional, default "file")
          --keyring       (with --config) keep tokens in the desktop keyring (Secret Service) instead
                          of a file, as "token_cache": "keyring" does; without a usable keyring
                          (SSH, no desktop) the file is used and the log says why
          --conditional-access
                          (emulator only) API 2 asks for an authentication context that only a
                          browser sign-in gives: it answers with a claims challenge, and the result
                          view offers "Continue in browser"
          --v2            Sign In through native auth V2 (experimental: the service decides each
                          step; the title bar shows "V2 (experimental)"); the password may stay
                          empty. Sign Up and Reset Password too: the service asks for the
                          attributes, codes and passwords in dialogs, then signs you in
          --log FILE      append the SDK's log (personal data masked) to FILE
          -h, --help      show this help

        Keys: Tab/Shift-Tab or arrows move, Enter or Space presses (or chooses a method in a list),
        PgUp/PgDn scroll the result, Esc closes a dialog or cancels the request in progress, Ctrl-C
        quits. Mouse clicks work on fields, buttons and list rows.
        When a flow needs a browser (or an API sends a claims challenge), "Continue in browser" opens
        the system browser ($BROWSER, xdg-open, wslview); when none starts, the result view shows the
        address to open, and the demo waits for the sign-in (Esc cancels).
        Colours follow NO_COLOR.

        Exit status: 0 when quit, 1 when the terminal cannot be used, 2 for bad arguments or configuration.
        """

    @MainActor
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())[...]
        var configPath: String?
        var logPath: String?
        var conditionalAccess = false
        var keyring = false
        var signInV2 = false
        while let argument = arguments.popFirst() {
            switch argument {
            case "-h", "--help":
                FileHandle.standardOutput.write(Data((usage + "\n").utf8))
                exit(0)
            case "--config":
                guard let value = arguments.popFirst() else { fail(2, "--config needs a file") }
                configPath = value
            case "--conditional-access":
                conditionalAccess = true
            case "--keyring":
                keyring = true
            case "--v2":
                signInV2 = true
            case "--log":
                guard let value = arguments.popFirst() else { fail(2, "--log needs a file") }
                logPath = value
            default:
                fail(2, "unknown option '\(argument)'. Try --help.")
            }
        }

        if conditionalAccess, configPath != nil {
            fail(2, "--conditional-access applies to the embedded emulator, not to --config")
        }
        if keyring, configPath == nil {
            fail(2, "--keyring applies to --config; the embedded emulator keeps tokens in memory")
        }
        let logger = logPath.map(makeLogger)
        let environment: DemoEnvironment
        do {
            if let configPath {
                guard let data = FileManager.default.contents(atPath: configPath) else {
                    fail(2, "cannot read the configuration file \(configPath)")
                }
                var configuration = try DemoConfiguration.load(data)
                if keyring { configuration.tokenCache = .keyring }
                environment = try DemoEnvironment.tenant(configuration, logger: logger, signInV2: signInV2)
            } else {
                environment = try DemoEnvironment.embedded(logger: logger, conditionalAccess: conditionalAccess, signInV2: signInV2)
            }
        } catch let problem as DemoConfiguration.Problem {
            fail(2, "configuration \(configPath ?? ""): \(problem)")
        } catch let error as NSError where error.domain == MSALErrorDomain {
            fail(2, "configuration \(configPath ?? ""): \(error.localizedDescription)")
        } catch {
            fail(1, "cannot start: \(error)")
        }

        // Before ncurses starts: it installs its own handlers only over default dispositions, and a
        // parent (a test runner, tmux) may have left SIGWINCH ignored, which would hide resizes.
        // A parent may also have left them blocked (a thread pool's mask is inherited across exec).
        var wanted = sigset_t()
        sigemptyset(&wanted)
        for number in [SIGINT, SIGTERM, SIGWINCH] { sigaddset(&wanted, number) }
        pthread_sigmask(SIG_UNBLOCK, &wanted, nil)
        signal(SIGWINCH, SIG_DFL)
        for number in [SIGINT, SIGTERM] {
            signal(number) { _ in stopRequested.store(true, ordering: .relaxed) }
        }

        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        guard let terminal = Terminal(colors: !noColor) else {
            environment.stop()
            fail(
                1,
                "cannot use this terminal (TERM=\(ProcessInfo.processInfo.environment["TERM"] ?? "unset")); run it in an interactive terminal"
            )
        }
        let controller = DemoController(environment: environment, size: terminal.size)

        var lastTick = Date()
        while !controller.model.quit {
            if stopRequested.load(ordering: .relaxed) {
                controller.handle(.interrupt)
                break
            }
            terminal.draw(render(controller.model))
            if let key = terminal.readKey() {
                controller.handle(key)
            }
            if Date().timeIntervalSince(lastTick) >= 0.08 {
                controller.handle(.tick)
                lastTick = Date()
            }
            // Lets the SDK's main-actor callbacks, URLSession completions and signals run.
            RunLoop.main.run(until: Date().addingTimeInterval(0.002))
        }
        terminal.close()
        environment.stop()
        exit(0)
    }

    static func fail(_ status: Int32, _ message: String) -> Never {
        FileHandle.standardError.write(Data("multi-api-demo: \(message)\n".utf8))
        exit(status)
    }

    static func makeLogger(path: String) -> MSALLoggerConfig {
        if !FileManager.default.fileExists(atPath: path), !FileManager.default.createFile(atPath: path, contents: nil) {
            fail(2, "cannot create the log file \(path)")
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { fail(2, "cannot write the log file \(path)") }
        handle.seekToEndOfFile()
        let logger = MSALLoggerConfig()
        logger.logLevel = .info
        logger.setLogCallback { level, message, _ in
            handle.write(Data("[\(level)] \(message ?? "")\n".utf8))
        }
        return logger
    }
}
