import Foundation

/// `native-auth emulator start|stop|status|mailbox EMAIL` (docs/cli.md#the-emulator-mode).
struct EmulatorCommand {
    let options: EmulatorOptions
    let context: ToolContext
    let reporter: Reporter

    var control: EmulatorControl {
        EmulatorControl(context, places: Places(context.environment))
    }

    func run() async throws(CLIError) {
        guard let action = EmulatorOptions.Action(rawValue: options.action) else {
            throw CLIError(.usage, "unknown emulator action '\(options.action)': \(EmulatorOptions.Action.list)")
        }
        let argument = options.argument
        if action != .mailbox, let argument {
            throw CLIError(.usage, "unexpected argument '\(argument)' for 'emulator \(action.rawValue)'")
        }
        if options.latest, action != .mailbox { throw CLIError(.usage, "--latest applies to 'emulator mailbox'") }
        switch action {
        case .start:
            let instance = try control.ensureRunning()
            try describe(instance)
        case .stop:
            let stopped = control.stop()
            reporter.note(stopped ? "Stopped the emulator; its tokens and any saved sign-in are gone." : "The emulator was not running.")
            reporter.result("", ["stopped": stopped])
        case .status:
            guard let instance = try EmulatorInstance.load(Places(context.environment)), EmulatorControl.isRunning(instance) else {
                reporter.result("not running", ["running": false])
                throw CLIError(.failure, "the emulator is not running (native-auth emulator start)")
            }
            try describe(instance)
        case .mailbox:
            guard let username = argument else { throw CLIError(.usage, "'emulator mailbox' needs the account's email address") }
            let mails = try await control.mailbox(username)
            if options.latest {
                guard let code = mails.last?["code"] as? String else { throw CLIError(.failure, "no code was sent to \(username)") }
                reporter.result(code, ["code": code])
                return
            }
            let text = mails.map { mail in
                ["code", "purpose", "channel", "target", "sent_at"].map { "\(mail[$0] ?? "")" }.joined(separator: "  ")
            }
            reporter.result(text.joined(separator: "\n"), ["mails": mails])
        }
    }

    private func describe(_ instance: EmulatorInstance) throws(CLIError) {
        let process = EmulatorInstance.process(instance.directory)
        let configuration = instance.configuration
        var object: [String: Any] = [
            "running": true, "authority": configuration.authority ?? "", "client_id": configuration.clientId,
            "directory": instance.directory,
        ]
        object["pid"] = process.map { Int($0.pid) }
        object["base_url"] = process?.baseURL
        object["apis"] = [configuration.api1, configuration.api2].compactMap { $0.map { ["url": $0.url, "scopes": $0.scopes] } }
        var lines = ["running: pid \(process.map { String($0.pid) } ?? "?") at \(process?.baseURL ?? "?")"]
        lines.append("authority: \(configuration.authority ?? "")")
        lines.append("client id: \(configuration.clientId)")
        for api in [configuration.api1, configuration.api2].compactMap({ $0 }) {
            lines.append("api: \(api.url)  scope: \(api.scopes.joined(separator: " "))")
        }
        reporter.result(lines.joined(separator: "\n"), object)
    }
}
