import Foundation
import MSAL

#if canImport(Glibc)
    import Glibc
#endif

/// Where the tool talks to the person or script that ran it: results on stdout, prompts and
/// messages on stderr, answers from stdin. `SystemTerminal` is the process's; tests pass their own.
public protocol Terminal: AnyObject, Sendable {
    /// Whether stdin is a terminal (a person typing) rather than a pipe or a file.
    var inputIsTerminal: Bool { get }
    /// Writes the command's result to stdout.
    func output(_ text: String)
    /// Writes a message or prompt to stderr.
    func message(_ text: String)
    /// Shows `prompt` on stderr and reads one line from stdin, without its line end; nil at the end of input.
    func readLine(prompt: String) -> String?
    /// As `readLine`, but a terminal does not show what is typed.
    func readSecret(prompt: String) -> String?
}

/// The process's stdin, stdout and stderr.
public final class SystemTerminal: Terminal {
    public init() {}

    public var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    public func output(_ text: String) { _ = writeAll(STDOUT_FILENO, Data(text.utf8)) }

    public func message(_ text: String) { _ = writeAll(STDERR_FILENO, Data(text.utf8)) }

    public func readLine(prompt: String) -> String? {
        message(prompt)
        return Swift.readLine(strippingNewline: true)
    }

    public func readSecret(prompt: String) -> String? {
        // Echo goes off before the prompt shows, so nothing typed after it is ever echoed.
        guard inputIsTerminal, EchoOff.begin() else { return readLine(prompt: prompt) }
        message(prompt)
        defer {
            EchoOff.end()
            message("\n") // the Enter that ended the line was not echoed
        }
        return Swift.readLine(strippingNewline: true)
    }
}

/// Turns the terminal's echo off for a password and back on afterwards, also when a signal
/// (Ctrl-C, Ctrl-\, a kill, a hang-up, Ctrl-Z) ends or stops the process meanwhile.
enum EchoOff {
    /// The settings to restore; read by the signal handler, so a plain global.
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var active = false
    private static let signals = [SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGTSTP]

    /// Echo off on stdin; false when stdin is not a terminal.
    static func begin() -> Bool {
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return false }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        active = true
        for number in signals { signal(number, restoreAndResend) }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet) == 0 else {
            end()
            return false
        }
        return true
    }

    static func end() {
        guard active else { return }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
        active = false
        for number in signals { signal(number, SIG_DFL) }
    }
}

/// A signal while echo is off: echo back on, then the signal's default action (the process ends
/// with the status a shell reports as 128 + the signal; after Ctrl-Z and `fg`, echo goes off again).
private func restoreAndResend(_ number: Int32) {
    EchoOff.end()
    raise(number)
    if number == SIGTSTP { _ = EchoOff.begin() } // continued with `fg`: back to the hidden prompt
}
