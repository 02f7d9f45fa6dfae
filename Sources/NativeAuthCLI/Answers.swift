/// The answers a sign-in gets: first the values given as options (each used once), then, unless
/// `--no-prompt`, what the user types at a prompt.
final class Answers {
    enum Source { case option, prompt }

    private var given: [PendingStep.Needs: String]
    let prompting: Bool
    let terminal: any Terminal
    /// The last wrong answer typed at a prompt: reported if the input then ends.
    var lastWrong: CLIError?

    init(given: [PendingStep.Needs: String], prompting: Bool, terminal: any Terminal) {
        self.given = given
        self.prompting = prompting
        self.terminal = terminal
    }

    /// Whether an option gave a value for `needs` that is still unused.
    func has(_ needs: PendingStep.Needs) -> Bool { given[needs] != nil }

    /// The option's value for `needs`, else the prompt's answer (`secret`: not echoed); nil when
    /// neither can give one (`--no-prompt`, or the input ended).
    func take(_ needs: PendingStep.Needs, prompt: String, secret: Bool = false) -> (value: String, source: Source)? {
        if let value = given.removeValue(forKey: needs) { return (value, .option) }
        guard prompting else { return nil }
        let line = secret ? terminal.readSecret(prompt: prompt) : terminal.readLine(prompt: prompt)
        return line.map { ($0, .prompt) }
    }

    /// The options no step has used (for example `--code` given while the sign-in asks for a method).
    var unused: [PendingStep.Needs] { given.keys.sorted { $0.rawValue < $1.rawValue } }
}
