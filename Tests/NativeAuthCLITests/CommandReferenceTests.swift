import CommandLineOptions
import Foundation
import MSAL
import TestSupport
import Testing

@testable import NativeAuthCLI

/// The manual page and the completions list exactly what the built program's `--help` lists, and
/// each is valid in its own language (groff renders the page without a warning; bash, zsh and fish
/// parse and complete).
struct CommandReferenceTests {
    /// Every option of the tool: the global ones, and each command's own.
    static var everyOption: [(command: Command?, name: String)] {
        GlobalOptions.names.map { (nil, $0) } + Command.allCases.flatMap { command in command.spec.options.names.map { (command, $0) } }
    }

    @Test func theManualPageListsEveryCommandOptionAndExitStatus() {
        let page = CommandReference.manPage
        for command in Command.allCases {
            #expect(page.contains(".SS \(command.rawValue)\n"), "\(command)")
            #expect(page.contains(Roff.text(command.spec.summary.dropFirst())), "\(command)")
        }
        for (command, name) in Self.everyOption {
            #expect(page.contains("\\fB\\-\\-\(Roff.text(name))\\fR"), "\(String(describing: command)) --\(name)")
        }
        for code in ExitCode.allCases { #expect(page.contains(".TP\n\\fB\(code.rawValue)\\fR\n\(Roff.text(code.summary))\n")) }
        #expect(page.contains("native-auth \(MSALNativeAuthSDK.version)"))
    }

    @Test func groffRendersThePageWithoutAWarning() throws {
        let page = try Self.write(CommandReference.manPage, name: "native-auth.1")
        let result = try Self.run("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", page])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
    }

    @Test(arguments: [
        (["native-auth", "lo"], "login logout"), (["native-auth", "--config", "x.json", "tok"], "token"),
        (["native-auth", "login", "--us"], "--username"), (["native-auth", "login", "--method", ""], "email sms"),
        (["native-auth", "emulator", "st"], "start stop status"), (["native-auth", "help", "acc"], "accounts"),
        (["native-auth", "--vers"], "--version"),
    ])
    func bashCompletes(_ words: [String], _ expected: String) throws {
        let file = try Self.write(CommandReference.bashCompletion, name: "native-auth.bash")
        #expect(try Self.run("/bin/bash", ["-n", file]).status == 0)
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let script = "source '\(file)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _native_auth; echo \"${COMPREPLY[*]}\""
        let result = try Self.run("/bin/bash", ["--norc", "--noprofile", "-c", script])
        #expect(result.status == 0 && result.stdout == expected + "\n", "\(words): \(result)")
    }

    // MARK: Both ways against --help

    /// The man page lists exactly the commands and options the built program's `--help` lists: the
    /// global ones under GLOBAL OPTIONS, each command's own in its section; the emulator's actions and
    /// `--method`'s channels as help names them.
    @Test func theManualPageListsWhatHelpListsAndNothingElse() throws {
        let help = try HelpListing.read()
        let sections = Self.manSections(CommandReference.manPage)
        let commands = Set(sections.keys.compactMap { $0.hasPrefix(".SS ") ? String($0.dropFirst(4)) : nil })
        #expect(commands == help.commands)
        #expect(Self.manOptions(sections[".SH GLOBAL OPTIONS"] ?? "") == help.globalOptions)
        for command in help.commands {
            #expect(Self.manOptions(sections[".SS " + command] ?? "") == help.options[command] ?? [], "\(command)")
        }
        let emulator = (sections[".SS emulator"] ?? "").replacingOccurrences(of: "\\-", with: "-")
        for action in help.emulatorActions {
            #expect(emulator.contains("native-auth emulator \(action)") || emulator.contains("|\(action)"))
        }
        let login = sections[".SS login"] ?? ""
        for value in help.methodValues { #expect(login.contains("'\(value)'"), "\(value)") }
    }

    /// bash, run: each position completes to exactly what `--help` lists there.
    @Test func bashCompletesWhatHelpListsAndNothingElse() throws {
        let help = try HelpListing.read()
        let file = try Self.write(CommandReference.bashCompletion, name: "native-auth.bash")
        func complete(_ words: [String]) throws -> Set<String> {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let script =
                "source '\(file)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _native_auth; printf '%s\\n' \"${COMPREPLY[@]}\""
            let result = try Self.run("/bin/bash", ["--norc", "--noprofile", "-c", script])
            #expect(result.status == 0, "\(words): \(result)")
            return Set(result.stdout.split(separator: "\n").map(String.init))
        }
        try help.check("bash", complete: complete)
    }

    /// fish parses the file, and, run, completes each position to exactly what `--help` lists there.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish"), "needs fish (scripts/install-deps)"))
    func fishCompletesWhatHelpListsAndNothingElse() throws {
        let help = try HelpListing.read()
        let file = try Self.write(CommandReference.fishCompletion, name: "native-auth.fish")
        let parsed = try Self.run("/usr/bin/fish", ["--no-config", "-n", file])
        #expect(parsed.status == 0 && parsed.stderr.isEmpty, "fish -n: \(parsed)")
        let home = (file as NSString).deletingLastPathComponent
        func complete(_ words: [String]) throws -> Set<String> {
            let line = words.joined(separator: " ")
            let result = try Self.run(
                "/usr/bin/fish", ["--no-config", "-c", "source '\(file)'; complete -C '\(line)'"], environment: ["HOME": home])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(words): \(result)")
            // Each candidate, then a tab and its description.
            return Set(result.stdout.split(separator: "\n").map { String($0.split(separator: "\t", maxSplits: 1)[0]) })
        }
        #expect(try complete(["native-auth", "lo"]) == ["login", "logout"])
        try help.check("fish", complete: complete)
    }

    /// zsh parses the file; its option lists (what `_arguments` is given, after zsh's own quoting) are
    /// what `--help` lists; and zsh's completion system, run in a terminal (script(1)) with compinit,
    /// completes and describes with the `\:` `\[` `\]` escapes read back as the help's own text.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh"), "needs zsh (scripts/install-deps)"))
    func zshCompletesWhatHelpListsAndNothingElse() throws {
        let help = try HelpListing.read()
        let file = try Self.write(CommandReference.zshCompletion, name: "_native-auth")
        let parsed = try Self.run("/usr/bin/zsh", ["-n", file])
        #expect(parsed.status == 0 && parsed.stderr.isEmpty, "zsh -n: \(parsed)")

        // The real function, with `_arguments` and `_describe` replaced by ones that print what they get.
        func specs(state: String, command: String) throws -> [String] {
            let script = """
                _arguments() { print -rl -- "$@"; [[ $1 == -C ]] && state=\(state); return 0 }
                _describe() { print -rl -- "${(@P)4}" }
                words=(\(command)); source '\(file)'
                """
            let result = try Self.run("/usr/bin/zsh", ["-f", "-c", script])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
            return result.stdout.split(separator: "\n").map(String.init)
        }
        let commands = try specs(state: "command", command: "").compactMap { entry in
            entry.hasPrefix("-") || entry.hasPrefix("(") || entry.contains("->") ? nil : String(entry.prefix { $0 != ":" })
        }
        #expect(Set(commands) == help.commands)
        let global = try specs(state: "", command: "")
        #expect(Set(global.compactMap(Self.zshOption)) == help.globalOptions)
        for command in help.commands.subtracting(["help"]) {
            let both = try specs(state: "argument", command: command)
            let own = both.dropFirst(global.count)
            #expect(Set(own.compactMap(Self.zshOption)) == (help.options[command] ?? []).union(help.commandGlobals), "\(command)")
            if command == "emulator" { #expect(own.contains("1:action:(\(help.emulatorActions.joined(separator: " ")))")) }
            if command == "login" {
                #expect(own.contains { $0.hasPrefix("--method=") && $0.hasSuffix(":(\(help.methodValues.joined(separator: " ")))") })
            }
        }

        // The completion system itself: compinit, then one listing per run of an interactive zsh.
        func listing(_ line: String) throws -> String {
            let directory = (file as NSString).deletingLastPathComponent
            let zshrc = """
                fpath=('\(directory)' $fpath)
                autoload -Uz compinit && compinit -u -d '\(directory)/.zcompdump'
                zstyle ':completion:*' list-prompt ''
                list-and-exit() { BUFFER='\(line)'; CURSOR=$#BUFFER; zle list-choices; BUFFER=exit; zle accept-line }
                zle -N zle-line-init list-and-exit
                """
            try Data(zshrc.utf8).write(to: URL(fileURLWithPath: directory + "/.zshrc"))
            let result = try Self.run(
                "/usr/bin/script", ["-qfc", "/usr/bin/zsh -i", "/dev/null"],
                environment: ["ZDOTDIR": directory, "HOME": directory, "TERM": "xterm", "COLUMNS": "300", "LINES": "100"])
            #expect(result.status == 0, "\(line): \(result)")
            // Without the terminal's control sequences and carriage returns.
            return result.stdout.replacing(#/\u{1B}(\[[0-9;?]*[A-Za-z]|[=>])/#, with: "").replacingOccurrences(of: "\r", with: "")
        }
        let start = try listing("native-auth ").split(separator: "\n")
        for (name, summary) in Command.allCases.map({ ($0.rawValue, $0.spec.summary) }) + [("help", Command.helpCommandSummary)] {
            #expect(start.contains { $0.hasPrefix(name + " ") && $0.contains("-- " + summary) }, "\(name): \(start)")
        }
        // One line per candidate: `login   -- sign in …`.
        let lo = try listing("native-auth lo").split(separator: "\n").filter { $0.contains(" -- ") }
        #expect(lo.map { $0.prefix { $0 != " " } } == ["login", "logout"], "\(lo)")
        let options = try listing("native-auth login --")
        for spec in LoginOptions.specs {
            let described = "--\(spec.name)"
            let line = options.split(separator: "\n").first { $0.hasPrefix(described + " ") || $0.hasPrefix(described + "=") }
            #expect(
                line?.contains("-- " + (spec.help.split(separator: "\n").first.map(String.init) ?? "")) == true, "\(spec.name): \(options)")
        }
        #expect(try listing("native-auth login --method ").contains(LoginOptions.methodChannels.joined(separator: "  ")))
    }

    // MARK: Helpers

    static func write(_ text: String, name: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reference-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ToolResult {
        let result = try ChildProcess.runBlocking(
            program, arguments, environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"].merging(environment) { $1 }, limit: 60)
        return ToolResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// The page's text by section: `.SH NAME` or `.SS command` to what follows up to the next one.
    static func manSections(_ page: String) -> [String: String] {
        var sections: [String: String] = [:]
        var current = ""
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(".SH ") || line.hasPrefix(".SS ") {
                current = String(line)
            } else {
                sections[current, default: ""] += line + "\n"
            }
        }
        return sections
    }

    /// The options a part of the page lists (`\fB\-\-name\fR` tags), without dashes.
    static func manOptions(_ text: String) -> Set<String> {
        Set(text.matches(of: #/\\fB\\-\\-((?:[a-z0-9]|\\-)+)\\fR/#).map { String($0.1).replacingOccurrences(of: "\\-", with: "-") })
    }

    /// The option an `_arguments` spec describes (`--name=[…]:…`, `(-h --help)--help[…]`), without dashes;
    /// nil for a positional or for `-h`.
    static func zshOption(_ spec: String) -> String? {
        var spec = Substring(spec)
        if spec.hasPrefix("(") { spec = spec.drop { $0 != ")" }.dropFirst() }
        guard spec.hasPrefix("--") else { return nil }
        return String(spec.dropFirst(2).prefix { $0 != "=" && $0 != "[" })
    }
}

/// What the built `native-auth --help` (and `native-auth COMMAND --help`) lists, read from its output.
struct HelpListing {
    /// The overview's commands, with `help`.
    var commands: Set<String> = []
    /// The overview's global options, without dashes (with `help` and `version`).
    var globalOptions: Set<String> = []
    /// Each command's own options.
    var options: [String: Set<String>] = [:]
    /// The global options a command's help lists (the same for every command).
    var commandGlobals: Set<String> = []
    /// The emulator's actions, from its usage lines.
    var emulatorActions: [String] = []
    /// `--method`'s named values, quoted in its help.
    var methodValues: [String] = []

    static func read() throws -> HelpListing {
        let home = try ToolHome()
        var listing = HelpListing()
        let overview = try home.run(["--help"])
        #expect(overview.status == 0, "\(overview)")
        listing.commands = Set(section("Commands:", of: overview.stdout).map { String($0.dropFirst(2).prefix { $0 != " " }) })
        listing.globalOptions = longOptions(section("Global options:", of: overview.stdout))
        for command in listing.commands.subtracting(["help"]) {
            let help = try home.run([command, "--help"])
            #expect(help.status == 0, "\(command): \(help)")
            listing.options[command] = longOptions(section("Options:", of: help.stdout))
            listing.commandGlobals = longOptions(section("Global options:", of: help.stdout))
            if command == "emulator" {
                let usage = help.stdout.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
                listing.emulatorActions = usage.flatMap { line in
                    line.matches(of: #/native-auth emulator ([a-z|]+)/#).flatMap { $0.1.split(separator: "|").map(String.init) }
                }
            }
            if command == "login", let method = section("Options:", of: help.stdout).first(where: { $0.hasPrefix("  --method ") }) {
                listing.methodValues = method.matches(of: #/'([a-z]+)'/#).map { String($0.1) }
            }
        }
        #expect(!listing.emulatorActions.isEmpty && !listing.methodValues.isEmpty)
        return listing
    }

    /// Checks a shell's completions, run by `complete` (the words of a command line, the last one being
    /// completed), against the listing, both ways.
    func check(_ shell: String, complete: ([String]) throws -> Set<String>) throws {
        let dashed = { (names: Set<String>) in Set(names.map { "--" + $0 }) }
        let start = try complete(["native-auth", ""]).union(try complete(["native-auth", "--"]))
        #expect(start == commands.union(dashed(globalOptions)), "\(shell): native-auth <TAB>")
        #expect(try complete(["native-auth", "help", ""]) == commands.subtracting(["help"]), "\(shell): native-auth help <TAB>")
        for command in commands.subtracting(["help"]) {
            let offered = try complete(["native-auth", command, "--"])
            #expect(offered == dashed((options[command] ?? []).union(commandGlobals)), "\(shell): native-auth \(command) --<TAB>")
        }
        let actions = try complete(["native-auth", "emulator", ""]).filter { !$0.hasPrefix("-") }
        #expect(actions == Set(emulatorActions), "\(shell): native-auth emulator <TAB>")
        #expect(try complete(["native-auth", "login", "--method", ""]) == Set(methodValues), "\(shell): --method <TAB>")
    }

    /// The lines of a help section (`Commands:`, `Options:`, `Global options:`) up to the blank line after it.
    private static func section(_ title: String, of text: String) -> [Substring] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring(title)) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.isEmpty }).filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
    }

    /// The long options of a section's lines (`  --scope SCOPE   text`, `  -h, --help   text`), without dashes.
    private static func longOptions(_ lines: [Substring]) -> Set<String> {
        Set(
            lines.flatMap { line in
                let usage = line.dropFirst(2).components(separatedBy: "  ")[0]
                return usage.matches(of: #/--([a-z][a-z0-9-]*)/#).map { String($0.1) }
            })
    }
}
