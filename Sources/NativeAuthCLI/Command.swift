import CommandLineOptions

/// The tool's commands, with the options and help of each (docs/cli.md#commands).
public enum Command: String, CaseIterable, Sendable {
    case login, token, status, accounts, logout, emulator

    struct Spec {
        var summary: String
        var usage: String
        /// The command's own options: what it is parsed by and its help lists.
        var options: any CommandOptions.Type
        var positionals: (min: Int, max: Int, names: String) = (0, 0, "")
        var details: String
    }

    var spec: Spec {
        switch self {
        case .login:
            Spec(
                summary: "sign in (email, password or code, MFA, method registration)",
                usage: "native-auth login [--username EMAIL] [--password PASSWORD|-] [--scope SCOPE]... [--no-prompt]\n"
                    + "       native-auth login [--code CODE] [--password PASSWORD|-] [--method METHOD] [--contact CONTACT] [--no-prompt]",
                options: LoginOptions.self,
                details: """
                    In a terminal it asks for what the sign-in needs (the password without echo); without one it
                    reads the answers from stdin, one per line. An empty code sends a new one.

                    With --no-prompt, a step that needs input saves the sign-in and exits with status 4; the next
                    invocation continues it with --code, --password, --method or --contact:
                      native-auth login --no-prompt --username grace@example.com   # a code is sent; exit 4
                      native-auth login --no-prompt --code 12345678                 # signed in; exit 0
                    A login without these options (or with --username) starts a new sign-in.
                    When the service requires the browser, login opens it (or prints the address to open);
                    with --no-prompt it exits with status 6 instead.
                    """)
        case .token:
            Spec(
                summary: "print an access token (cached, or refreshed)",
                usage: "native-auth token --scope SCOPE [--scope SCOPE]... [--force-refresh]",
                options: TokenOptions.self,
                details: """
                    Prints only the access token on stdout, for example:
                      curl -H "Authorization: Bearer $(native-auth token --scope api://contoso/todolist/ToDoList.Read)" https://api.contoso.com/todolist
                    It never asks anything: with no account signed in it exits with status 8.
                    """)
        case .status:
            Spec(
                summary: "show the signed-in account and any sign-in waiting for input",
                usage: "native-auth status", options: NoOptions.self,
                details: "Exits with status 0 when an account is signed in, 8 when none is.")
        case .accounts:
            Spec(
                summary: "list the accounts in the token cache",
                usage: "native-auth accounts", options: NoOptions.self,
                details: "One account per line: username and identifier. Nothing (status 0) when there are none.")
        case .logout:
            Spec(
                summary: "forget the signed-in account's tokens and any saved sign-in",
                usage: "native-auth logout [--all]",
                options: LogoutOptions.self,
                details: "Local only: the tokens are removed from the cache; nothing is sent to the service.")
        case .emulator:
            Spec(
                summary: "the local emulator: " + EmulatorOptions.Action.allCases.map(\.usage).joined(separator: ", "),
                usage: "native-auth emulator "
                    + EmulatorOptions.Action.allCases.filter { $0 != .mailbox }.map(\.rawValue).joined(separator: "|")
                    + "\n       native-auth emulator mailbox EMAIL [--latest]",
                options: EmulatorOptions.self,
                positionals: (1, 2, "an action: " + EmulatorOptions.Action.list),
                details: """
                    The emulator (this program, started as native-auth-emulator) serves the native-auth API on
                    127.0.0.1 with demo accounts; it runs in the background from the first --emulator command
                    until 'emulator stop'. It sends no mail: 'mailbox EMAIL' lists the codes it "sent" to that
                    account, newest last. Demo accounts: ada@example.com / Analytical-Engine-1843 (password),
                    grace@example.com (email code), alan@example.com / Turing-Machine-1936 (MFA by email or SMS),
                    katherine@example.com / Orbital-Mechanics-1962 (registers a method). With login --v2 also:
                    barbara@example.com / Substitution-Principle-1987 (password or email code), hedy@example.com
                    (the browser only), margaret@example.com / Apollo-Guidance-1969 (MFA).
                    """)
        }
    }

    /// `native-auth COMMAND --help`.
    var help: String {
        let spec = spec
        var text = "Usage: \(spec.usage)\n\n\(spec.summary.prefix(1).uppercased() + spec.summary.dropFirst()).\n"
        if !spec.options.names.isEmpty { text += "\nOptions:\n" + Self.optionLines(spec.options.helpEntries) }
        text += "\nGlobal options:\n" + Self.optionLines(GlobalOptions.helpEntries + [.help])
        text += "\n" + spec.details + "\n"
        return text
    }

    /// `native-auth --help`.
    static var overview: String {
        """
        Usage: native-auth [--config FILE | --emulator] [--keyring] [--json] COMMAND [options]

        Signs in to a Microsoft Entra External ID tenant natively and prints access tokens for scripts.

        Commands:
        \(allCases.map { "  \(padded($0.rawValue, 10)) \($0.spec.summary)" }.joined(separator: "\n"))
          help COMMAND  \(helpCommandSummary) (or: native-auth COMMAND --help)

        Global options:
        \(optionLines(GlobalOptions.helpEntries + [.help, versionHelp]).dropLast())

        Results go to stdout, prompts and errors to stderr. Tokens and a sign-in waiting for input are
        kept under $XDG_STATE_HOME/native-auth (files 0600, directories 0700); docs/cli.md has the details.

        Exit status:
        \(ExitCode.helpTable)

        """
    }

    /// What `native-auth help COMMAND` does, in the overview, the manual page and the completions.
    static let helpCommandSummary = "the options of a command"

    /// `--version`, which only the overview lists: it takes no command.
    static let versionHelp = OptionHelp(usage: CommandLineParser.versionOption, text: "print the version and exit")

    /// The options in help: each option's text in one column, for every command.
    private static func optionLines(_ entries: [OptionHelp]) -> String { OptionHelp.lines(entries, width: 21) }
}

/// `text` followed by spaces up to `width` (never cut).
func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}
