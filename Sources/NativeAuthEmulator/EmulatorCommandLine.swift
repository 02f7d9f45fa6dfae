import CommandLineOptions
import MSAL

/// The options of the `native-auth-emulator` program, decoded from its arguments by `specs`, the
/// list its `--help` prints (docs/emulator.md; the rules: docs/decisions.md#the-command-line-parser).
package struct EmulatorCommandLine: Sendable {
    package var help = false
    package var host = "127.0.0.1"
    package var port: UInt16 = 8585
    package var seedPath: String?
    package var tlsCertPath: String?
    package var tlsKeyPath: String?
    package var quiet = false
    package var exposeInsecurely = false
    package var configuration = EmulatorConfiguration()

    package init() {}

    package static let specs: [OptionSpec<Self>] = [
        .value(
            "host", "ADDRESS", \.host,
            """
            IPv4 address to bind (default 127.0.0.1); an address other than
            loopback (127.x.x.x) needs --tls-cert/--tls-key or --expose-insecurely
            """),
        .flag("expose-insecurely", \.exposeInsecurely, "allow plain HTTP on a non-loopback address such as 0.0.0.0"),
        .integer("port", "N", \.port, in: 0...65535, "port to listen on; 0 picks a free port (default 8585)"),
        .value("seed", "FILE", \.seedPath, "JSON seed (tenant, apps, users, apis); default: the built-in demo seed"),
        .value("tls-cert", "FILE", \.tlsCertPath, "serve HTTPS with this PEM certificate (needs --tls-key)"),
        .value("tls-key", "FILE", \.tlsKeyPath, "the certificate's PEM private key"),
        .integer(
            "token-lifetime", "SECONDS", \.configuration.accessTokenLifetime, in: 60...86_400,
            "access and id token lifetime (default 3600)"),
        .integer(
            "refresh-token-lifetime", "S", \.configuration.refreshTokenLifetime, in: 60...31_536_000,
            "refresh token lifetime (default 7776000)"),
        .flag(
            "strict-refresh-rotation", \.configuration.strictRefreshTokenRotation,
            """
            a refresh token stops working once redeemed (default: it stays
            valid until it expires or is revoked, as Entra's do)
            """),
        .integer("code-length", "N", \.configuration.codeLength, in: 4...12, "digits in a one-time code (default 8)"),
        .integer("code-ttl", "SECONDS", \.configuration.codeLifetime, in: 1...86_400, "one-time code lifetime (default 600)"),
        .integer("code-attempts", "N", \.configuration.maxCodeAttempts, in: 1...100, "wrong codes allowed per flow (default 5)"),
        .integer(
            "continuation-token-ttl", "S", \.configuration.continuationTokenLifetime, in: 1...86_400,
            "continuation token lifetime (default 600)"),
        .integer(
            "reset-polls-in-progress", "N", \.configuration.resetPasswordPollsInProgress, in: 0...100,
            "'in_progress' answers before a reset succeeds (default 0)"),
        .flag("quiet", \.quiet, "do not print one-time codes to stderr"),
    ]

    /// What the program is (the first paragraph of `--help`, and the manual page's DESCRIPTION).
    package static let description = """
        A local server that speaks the Microsoft Entra External ID native-auth API (V1, and V2 in
        preview), with seeded users, a mailbox for one-time codes, fault injection and two sample
        protected APIs.
        """

    /// What it prints and serves beyond the options (`--help`'s closing paragraph, the page's NOTES).
    package static let notes = """
        On start it prints one line each: 'base URL: …', 'authority: …' and 'client id: …' per app.
        Test hooks live under /_emulator/ (see docs/emulator.md). On a non-loopback address they need the
        header X-Emulator-Hook-Token with the token printed to stderr at start, and a warning says
        what is exposed. Stops cleanly on SIGINT or SIGTERM.
        """

    /// Its exit statuses, in the order `--help` names them.
    package static let exitStatuses: [(status: Int32, meaning: String)] = [
        (0, "after a clean stop"), (2, "for bad arguments or seed"), (1, "if the server cannot start"),
    ]

    /// `native-auth-emulator --help`.
    package static var usage: String {
        """
        Usage: native-auth-emulator [options]

        \(description)

        Options:
        \(OptionHelp.lines(specs.map(\.helpEntry) + [.help], width: 27))
        \(notes)

        Exit status: \(exitStatuses.map { "\($0.status) \($0.meaning)" }.joined(separator: ", ")).
        """
    }

    /// `native-auth-emulator(1)`, made from the same pieces as `--help` (`native-auth-docs` writes it).
    package static var manPage: String {
        var page = Roff.header(
            "native-auth-emulator", version: MSALNativeAuthSDK.version,
            summary: "a local Microsoft Entra External ID native-auth service for development and tests")
        page += """
            .SH SYNOPSIS
            .B native-auth-emulator
            [\\fIoptions\\fR]
            .SH DESCRIPTION
            \(Roff.text(description))
            .SH OPTIONS

            """
        page += specs.map(\.manEntry).joined() + Roff.entry("\\fB\\-h\\fR, \\fB\\-\\-help\\fR", OptionHelp.help.text)
        page += ".SH NOTES\n" + Roff.text(notes) + "\n"
        page += ".SH EXIT STATUS\n" + exitStatuses.map { Roff.entry("\\fB\($0.status)\\fR", $0.meaning) }.joined()
        page += ".SH SEE ALSO\n.BR native\\-auth (1)\n"
        return page
    }

    /// The options of `arguments`; a usage error (exit status 2) for anything the rules or the
    /// options refuse, an argument that is not an option, and options that do not fit together.
    package static func parse(_ arguments: [String]) throws(UsageError) -> Self {
        var options = Self()
        let result = try OptionParser(specs).parse(arguments, into: &options)
        options.help = result.help
        if let argument = result.positionals.first { throw UsageError("unexpected argument '\(argument)'") }
        if (options.tlsCertPath == nil) != (options.tlsKeyPath == nil) {
            throw UsageError("--tls-cert and --tls-key go together")
        }
        if !options.help, !EmulatorServer.isLoopback(options.host), options.tlsCertPath == nil, !options.exposeInsecurely {
            throw UsageError(
                """
                --host \(options.host) is not a loopback address: plain HTTP there would serve the native-auth API and the test \
                hooks (the mailbox with every one-time code, users, faults, clock) to the network. Serve HTTPS with \
                --tls-cert and --tls-key, or pass --expose-insecurely if that is really meant.
                """)
        }
        return options
    }
}
