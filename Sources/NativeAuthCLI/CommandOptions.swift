import CommandLineOptions

/// A command's own options, typed: the list `specs` is what the command line is decoded by and what
/// `native-auth COMMAND --help` prints.
protocol CommandOptions: Equatable, Sendable {
    init()
    static var specs: [OptionSpec<Self>] { get }
}

extension CommandOptions {
    static var helpEntries: [OptionHelp] { specs.map(\.helpEntry) }
    static var names: [String] { specs.map(\.name) }
}

/// Options every command takes, before or after the command.
struct GlobalOptions: CommandOptions {
    /// `--config FILE`.
    var config: String?
    var emulator = false
    var keyring = false
    var json = false

    static let specs: [OptionSpec<Self>] = [
        .value("config", "FILE", \.config, "the app's configuration (default $XDG_CONFIG_HOME/native-auth/config.json)"),
        .flag("emulator", \.emulator, "use the local emulator instead of a tenant (started in the background at the first use)"),
        .flag("keyring", \.keyring, "keep tokens in the desktop keyring (Secret Service) instead of a file"),
        .flag("json", \.json, "print the result, and errors on stderr, as JSON"),
    ]
}

/// `native-auth login`.
struct LoginOptions: CommandOptions {
    var username: String?
    /// `-` reads it from stdin.
    var password: String?
    var code: String?
    var method: String?
    var contact: String?
    var scopes: [String] = []
    var noPrompt = false
    /// Native auth V2 (experimental): `signInV2`; a continuation needs no flag (the saved state says which API).
    var v2 = false
    /// The id a Redis-saved sign-in was saved under (`"saved_sign_ins": "redis"`).
    var signInId: String?

    /// The channels `--method` names a second factor by (`MSALNativeAuthChannelType.value`), besides a
    /// method's id: in its help and, through `OptionSpec.suggestions`, in the shell completions.
    static let methodChannels = ["email", "sms"]

    static let specs: [OptionSpec<Self>] = [
        .value("username", "EMAIL", \.username, "the account to sign in (asked for when missing)"),
        .value(
            "password", "PASSWORD", \.password, "the password; '-' reads one line from stdin (a value on the command line is visible to ps)"
        ),
        .value("code", "CODE", \.code, "the one-time code sent by email or SMS (sign-in, MFA or registration)"),
        .value(
            "method", "METHOD", \.method,
            "the second factor to send a code to: \(methodChannels.map { "'\($0)'" }.joined(separator: ", ")) or a method id"
        ).suggesting(methodChannels),
        .value("contact", "CONTACT", \.contact, "the email address or phone number to register as a second factor"),
        .values("scope", "SCOPE", \.scopes, "also get a token for SCOPE at sign-in (repeatable)"),
        .flag("no-prompt", \.noPrompt, "never ask: when the sign-in needs input, save it and exit 4 naming the option to pass"),
        .flag("v2", \.v2, "sign in through native auth V2 (experimental): the service decides the steps"),
        .value(
            "sign-in-id", "ID", \.signInId,
            "continue the sign-in saved in Redis under ID (\"saved_sign_ins\": \"redis\"); an id continues once, from any machine"),
    ]
}

/// `native-auth token`.
struct TokenOptions: CommandOptions {
    var scopes: [String] = []
    var forceRefresh = false

    static let specs: [OptionSpec<Self>] = [
        .values("scope", "SCOPE", \.scopes, "a scope the token is for (repeatable; default: api1's scopes in the configuration)"),
        .flag("force-refresh", \.forceRefresh, "redeem the refresh token even when a cached token is good"),
    ]
}

/// `native-auth logout`.
struct LogoutOptions: CommandOptions {
    var all = false

    static let specs: [OptionSpec<Self>] = [.flag("all", \.all, "forget every account of the app, not only the signed-in one")]
}

/// `native-auth emulator ACTION [EMAIL]`: the flag, and the action and its argument (positionals).
struct EmulatorOptions: CommandOptions {
    var latest = false
    var action = ""
    /// The email address of `mailbox EMAIL`.
    var argument: String?

    /// The emulator's actions, the first positional: what `EmulatorCommand` runs, its help and the completions.
    enum Action: String, CaseIterable {
        case start, stop, status, mailbox

        /// The action as its usage writes it: `mailbox EMAIL` takes the account's address.
        var usage: String { self == .mailbox ? "mailbox EMAIL" : rawValue }

        /// `start, stop, status or mailbox EMAIL`.
        static var list: String { allCases.dropLast().map(\.usage).joined(separator: ", ") + " or " + (allCases.last?.usage ?? "") }
    }

    static let specs: [OptionSpec<Self>] = [.flag("latest", \.latest, "mailbox: print only the newest code")]
}

/// `status` and `accounts`.
struct NoOptions: CommandOptions {
    static let specs: [OptionSpec<Self>] = []
}
