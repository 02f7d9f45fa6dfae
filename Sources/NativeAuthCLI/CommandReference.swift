import CommandLineOptions
import MSAL

/// The manual page and the shell completions, made from the same declarations as `--help`
/// (`Command.spec`, the options' `specs`, `ExitCode`), so that they cannot drift from it.
/// `native-auth-docs DIRECTORY` writes them; scripts/package installs them.
public enum CommandReference {
    /// The files `native-auth-docs` writes, by name.
    public static var files: [(name: String, text: String)] {
        [
            ("native-auth.1", manPage), ("native-auth.bash", bashCompletion), ("_native-auth", zshCompletion),
            ("native-auth.fish", fishCompletion),
        ]
    }

    // MARK: What every format lists

    /// An option as the formats need it: its name without dashes, placeholder, help text, and the
    /// values its value is completed with (`OptionSpec.suggestions`).
    struct Option {
        var name: String
        var placeholder: String?
        var help: String
        var suggestions: [String]

        init<Values>(_ spec: OptionSpec<Values>) {
            name = spec.name
            placeholder = spec.placeholder
            help = spec.help
            suggestions = spec.suggestions
        }
    }

    static var globalOptions: [Option] { GlobalOptions.specs.map(Option.init) }

    static func options(of command: Command) -> [Option] { command.spec.options.optionList }

    /// The options whose values are completed with words (`--method`): the option's spec suggests them.
    static var suggesting: [Option] {
        (globalOptions + Command.allCases.flatMap(options(of:))).filter { !$0.suggestions.isEmpty }
    }

    /// The emulator's actions (its first positional), as `EmulatorCommand` runs them.
    static var emulatorActions: [String] { EmulatorOptions.Action.allCases.map(\.rawValue) }

    // MARK: Manual page

    /// `native-auth(1)`, in roff (man(7) macros).
    public static var manPage: String {
        var page = Roff.header(
            "native-auth", version: MSALNativeAuthSDK.version,
            summary: "sign in to Microsoft Entra External ID natively and print access tokens")
        page += """
            .SH SYNOPSIS
            .B native-auth
            [\\fB\\-\\-config\\fR \\fIFILE\\fR | \\fB\\-\\-emulator\\fR] [\\fB\\-\\-keyring\\fR] [\\fB\\-\\-json\\fR] \\fICOMMAND\\fR [\\fIoptions\\fR]
            .br
            .B native-auth \\-\\-version
            .SH DESCRIPTION
            Signs in to a Microsoft Entra External ID tenant natively (no browser unless the service requires one)
            and prints access tokens for scripts. Results go to standard output; prompts and errors to standard error.
            .SH GLOBAL OPTIONS
            These come before or after the command.

            """
        page += (globalOptions.map(manOption) + [Roff.entry("\\fB\\-h\\fR, \\fB\\-\\-help\\fR", OptionHelp.help.text)]).joined()
        page += Roff.entry("\\fB\\-\\-version\\fR", Command.versionHelp.text + " (alone)")
        page += ".SH COMMANDS\n"
        for command in Command.allCases {
            let spec = command.spec
            page += ".SS \(command.rawValue)\n\(Roff.text(spec.summary.prefix(1).uppercased() + spec.summary.dropFirst())).\n"
            let usage = spec.usage.split(separator: "\n").map { $0.drop { $0 == " " } }.joined(separator: "\n")
            page += ".PP\n.nf\n" + Roff.text(usage) + "\n.fi\n"
            page += options(of: command).map(manOption).joined()
            page += ".PP\n.nf\n" + Roff.text(spec.details) + "\n.fi\n"
        }
        page += ".SS help\n\(Roff.text(Command.helpCommandSummary.prefix(1).uppercased() + Command.helpCommandSummary.dropFirst())).\n"
        page += ".PP\n.nf\n" + Roff.text("native-auth help COMMAND") + "\n.fi\n"
        page += ".SH EXIT STATUS\n"
        page += ExitCode.allCases.map { Roff.entry("\\fB\($0.rawValue)\\fR", $0.summary) }.joined()
        page += """
            .SH FILES
            .TP
            \\fI$XDG_CONFIG_HOME/native\\-auth/config.json\\fR
            the app's configuration (default \\fI~/.config\\fR)
            .TP
            \\fI$XDG_STATE_HOME/native\\-auth/CLIENT_ID/\\fR
            the token cache and a sign\\-in waiting for input, files 0600 in directories 0700 (default \\fI~/.local/state\\fR);
            with \\fB"token_cache": "redis"\\fR or \\fB"saved_sign_ins": "redis"\\fR in the configuration, these are kept on
            the Redis server its \\fBredis\\fR object names instead, and \\fBlogin \\-\\-sign\\-in\\-id\\fR continues a saved sign\\-in once, from any machine
            .TP
            \\fI$XDG_RUNTIME_DIR/native\\-auth/emulator/\\fR
            the background emulator's files while it runs
            .SH ENVIRONMENT
            .TP
            \\fBXDG_CONFIG_HOME\\fR, \\fBXDG_STATE_HOME\\fR, \\fBXDG_RUNTIME_DIR\\fR
            where the files above go; unset, empty or relative values are ignored
            .TP
            \\fBBROWSER\\fR
            the browser opened when the service requires a browser sign\\-in

            """
        return page
    }

    private static func manOption(_ option: Option) -> String {
        Roff.option(option.name, placeholder: option.placeholder, option.help)
    }

    // MARK: bash

    /// A bash completion function for `native-auth` (works with and without bash-completion).
    public static var bashCompletion: String {
        let valued = (globalOptions + Command.allCases.flatMap(options(of:))).filter { $0.placeholder != nil }.map { "--" + $0.name }
        var cases = ""
        for command in Command.allCases {
            var words = options(of: command).map { "--" + $0.name } + globalOptions.map { "--" + $0.name } + ["--help"]
            if command == .emulator { words = emulatorActions + words }
            cases += "    \(command.rawValue)) words=\"\(words.joined(separator: " "))\" ;;\n"
        }
        let suggested = Set(suggesting.map { "--" + $0.name })
        let suggestingCases = suggesting.map { option in
            "    --\(option.name)) COMPREPLY=($(compgen -W \"\(option.suggestions.joined(separator: " "))\" -- \"$cur\")); return ;;\n"
        }.joined()
        let commandNames = Command.allCases.map(\.rawValue) + ["help"]
        let startWords = commandNames + globalOptions.map { "--" + $0.name } + ["--help", "--version"]
        return """
            # bash completion for native-auth (made by native-auth-docs from the tool's own option list)
            _native_auth() {
              local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command="" i words
              for ((i = 1; i < COMP_CWORD; i++)); do
                case ${COMP_WORDS[i]} in
                  \(valued.joined(separator: "|"))) ((i++)) ;;
                  -*) ;;
                  *) command=${COMP_WORDS[i]}; break ;;
                esac
              done
              case $prev in
                --config) COMPREPLY=($(compgen -f -- "$cur")); return ;;
            \(suggestingCases)    \(valued.filter { $0 != "--config" && !suggested.contains($0) }.joined(separator: "|"))) COMPREPLY=(); return ;;
              esac
              case $command in
                "") words="\(startWords.joined(separator: " "))" ;;
                help) words="\(Command.allCases.map(\.rawValue).joined(separator: " "))" ;;
            \(cases)    *) words="" ;;
              esac
              COMPREPLY=($(compgen -W "$words" -- "$cur"))
            }
            complete -F _native_auth native-auth

            """
    }

    // MARK: zsh

    /// A zsh completion function (`#compdef native-auth`), for a directory on `$fpath`.
    public static var zshCompletion: String {
        func argument(_ option: Option) -> String {
            let help = zshQuoted(option.help.split(separator: "\n").first.map(String.init) ?? "")
            guard let placeholder = option.placeholder else { return "'--\(option.name)[\(help)]'" }
            let action =
                option.name == "config" ? "_files" : option.suggestions.isEmpty ? " " : "(\(option.suggestions.joined(separator: " ")))"
            return "'--\(option.name)=[\(help)]:\(placeholder):\(action)'"
        }
        let globals = globalOptions.map(argument) + ["'(-h --help)'{-h,--help}'[show this help]'"]
        let commands =
            Command.allCases.map { "'\($0.rawValue):\(zshQuoted($0.spec.summary))'" } + ["'help:\(zshQuoted(Command.helpCommandSummary))'"]
        var cases = ""
        for command in Command.allCases {
            var arguments = options(of: command).map(argument)
            if command == .emulator { arguments.append("'1:action:(\(emulatorActions.joined(separator: " ")))'") }
            cases += "        \(command.rawValue)) _arguments \((arguments + globals).joined(separator: " ")) ;;\n"
        }
        return """
            #compdef native-auth
            # zsh completion for native-auth (made by native-auth-docs from the tool's own option list)
            _native-auth() {
              local curcontext=$curcontext state line
              local -a commands
              commands=(\(commands.joined(separator: " ")))
              _arguments -C '(- *)--version[\(zshQuoted(Command.versionHelp.text))]' \(globals.joined(separator: " ")) '1:command:->command' '*::argument:->argument'
              case $state in
                command) _describe -t commands command commands ;;
                argument)
                  case $words[1] in
                    help) _describe -t commands command commands ;;
            \(cases)      esac ;;
              esac
            }
            _native-auth "$@"

            """
    }

    private static func zshQuoted(_ text: String) -> String {
        text.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(
            of: "]", with: "\\]"
        )
        .replacingOccurrences(of: ":", with: "\\:")
    }

    // MARK: fish

    /// fish completions (`complete -c native-auth …`).
    public static var fishCompletion: String {
        func line(_ option: Option, condition: String?) -> String {
            var text = "complete -c native-auth"
            if let condition { text += " -n '\(condition)'" }
            text += " -l \(option.name)"
            if option.placeholder != nil {
                text += " -r"
                text +=
                    option.name == "config"
                    ? " -F" : option.suggestions.isEmpty ? " -f" : " -f -a '\(option.suggestions.joined(separator: " "))'"
            }
            return text + " -d '\(fishQuoted(option.help.split(separator: "\n").first.map(String.init) ?? ""))'"
        }
        var lines = [
            "# fish completion for native-auth (made by native-auth-docs from the tool's own option list)",
            "complete -c native-auth -f",
            "complete -c native-auth -n '__fish_use_subcommand' -l version -d '\(fishQuoted(Command.versionHelp.text))'",
            "complete -c native-auth -s h -l help -d 'show this help'",
        ]
        lines += globalOptions.map { line($0, condition: nil) }
        for command in Command.allCases {
            lines.append(
                "complete -c native-auth -n '__fish_use_subcommand' -a \(command.rawValue) -d '\(fishQuoted(command.spec.summary))'")
            lines += options(of: command).map { line($0, condition: "__fish_seen_subcommand_from \(command.rawValue)") }
        }
        lines.append("complete -c native-auth -n '__fish_use_subcommand' -a help -d '\(fishQuoted(Command.helpCommandSummary))'")
        lines.append(
            "complete -c native-auth -n '__fish_seen_subcommand_from help' -a '\(Command.allCases.map(\.rawValue).joined(separator: " "))'")
        lines.append(
            "complete -c native-auth -n '__fish_seen_subcommand_from emulator; and not __fish_seen_subcommand_from "
                + "\(emulatorActions.joined(separator: " "))' -a '\(emulatorActions.joined(separator: " "))'")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func fishQuoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
    }
}

extension CommandOptions {
    /// The options as `CommandReference` lists them.
    static var optionList: [CommandReference.Option] { specs.map(CommandReference.Option.init) }
}
