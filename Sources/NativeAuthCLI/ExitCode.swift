/// The tool's exit statuses, one per thing a script can act on (docs/cli.md#exit-codes). The
/// numbers are part of the tool's interface: never renumber a case.
public enum ExitCode: Int32, CaseIterable, Sendable {
    /// The command did what it was asked.
    case success = 0
    /// Any other failure: the service refused for another reason, an unexpected answer, a cache
    /// that cannot be read or written.
    case failure = 1
    /// The command line is wrong: an unknown command or option, a missing value.
    case usage = 2
    /// The configuration cannot be used: no or a bad configuration file, an unusable authority,
    /// no keyring, Redis settings or credentials the server refuses, an emulator that cannot start,
    /// a directory with the wrong owner.
    case configuration = 3
    /// The sign-in waits for the user (a code, a password, a method): with `--no-prompt`, or when
    /// the input ended. The flow is saved; the message says which option to pass next.
    case needsInput = 4
    /// The service refused the credentials: a wrong password or code, an unknown user.
    case wrongCredentials = 5
    /// The service requires a browser sign-in and none was done (`--no-prompt`, or it failed or was
    /// cancelled).
    case browserRequired = 6
    /// The service could not be reached or did not answer usably (connection, timeout, an HTTP
    /// status or body the protocol does not use), or the Redis server of the configuration could
    /// not be reached or did not answer in time.
    case network = 7
    /// No account is signed in, or its sign-in has expired or been revoked: run `login`.
    case notSignedIn = 8
    /// `login --code`/`--password`/`--method` with no saved sign-in to continue, or one that
    /// expired, was damaged, or belongs to another app or version: start again with `login`.
    case noSavedFlow = 9

    /// One line for `--help` and docs/cli.md.
    public var summary: String {
        switch self {
        case .success: "success"
        case .failure: "other failure (the service refused, an unexpected answer, the token cache)"
        case .usage: "usage: unknown command or option, missing or bad value"
        case .configuration: "configuration: missing or bad file, keyring or emulator unavailable, Redis refused the password"
        case .needsInput: "needs user input: the sign-in is saved; pass what the message names"
        case .wrongCredentials: "wrong password or code, or unknown user"
        case .browserRequired: "browser sign-in required and not done"
        case .network: "network: the service (or Redis) could not be reached or answered unusably"
        case .notSignedIn: "not signed in, or the sign-in expired: run login"
        case .noSavedFlow: "no saved sign-in to continue (missing, expired, other app)"
        }
    }

    /// The name `--json` error objects carry, for scripts that prefer names to numbers.
    public var name: String {
        switch self {
        case .success: "success"
        case .failure: "failure"
        case .usage: "usage"
        case .configuration: "configuration"
        case .needsInput: "needs_input"
        case .wrongCredentials: "wrong_credentials"
        case .browserRequired: "browser_required"
        case .network: "network"
        case .notSignedIn: "not_signed_in"
        case .noSavedFlow: "no_saved_flow"
        }
    }

    /// The table of statuses for `native-auth --help`.
    static var helpTable: String {
        allCases.map { "  \(padded(String($0.rawValue), 4))\($0.summary)" }.joined(separator: "\n")
    }
}

/// A failure the tool reports: the message for stderr and the exit status.
public struct CLIError: Error, Equatable, CustomStringConvertible {
    public var code: ExitCode
    public var message: String
    /// For `.needsInput`: what the sign-in waits for (printed on stdout with `--json`).
    var waiting: WaitingFor?
    /// The sign-in stays saved: the answer given as an option was wrong, and the next invocation may
    /// give another.
    var keepsSavedFlow = false
    /// The id a sign-in was saved under in Redis: the command's result on stdout, never in the message.
    var signInId: String?

    public init(_ code: ExitCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    /// This error after its sign-in was saved under `id` in Redis (nil: in the file): the next
    /// command it names passes `--sign-in-id ID`, and the id itself goes to stdout.
    func savedUnder(_ id: String?) -> CLIError {
        guard let id else { return self }
        var error = self
        let next = "native-auth login --sign-in-id ID "
        error.message = message.replacingOccurrences(of: "native-auth login ", with: next) + " (ID: the sign-in id printed on stdout)"
        if var waiting = error.waiting {
            waiting.next = waiting.next.replacingOccurrences(of: "native-auth login ", with: next)
            error.waiting = waiting
        }
        error.signInId = id
        return error
    }
}
