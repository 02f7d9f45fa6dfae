import Foundation

/// `native-auth-emulator`: serves the native-auth API on loopback for offline development. The
/// program of Sources/native-auth-emulator, and of Sources/native-auth when it is started under
/// that name (the Debian package's link, docs/cli.md#one-program-three-names).
package enum EmulatorProgram {
    /// Runs the emulator with `arguments` (those after the program's name) until SIGINT or SIGTERM,
    /// then ends the process. Call it before the process starts threads of its own: the signals are
    /// blocked here for every thread created after, and taken by `sigwait` on this one.
    package static func main(_ arguments: [String]) -> Never {
        let options: EmulatorCommandLine
        do {
            options = try EmulatorCommandLine.parse(arguments)
        } catch {
            FileHandle.standardError.write(Data("native-auth-emulator: \(error)\nTry --help.\n".utf8))
            exit(2)
        }
        if options.help {
            FileHandle.standardOutput.write(Data((EmulatorCommandLine.usage + "\n").utf8))
            exit(0)
        }
        let seed: Seed
        do {
            seed = try options.seedPath.map { try Seed.load(from: Data(contentsOf: URL(fileURLWithPath: $0))) } ?? .demo
        } catch let error as EmulatorError {
            fail(2, error.description)
        } catch {
            fail(2, "cannot read seed file \(options.seedPath ?? ""): \(error.localizedDescription)")
        }
        // SIGINT and SIGTERM are taken by sigwait on this thread. Blocked here, before the server
        // starts its threads, so every thread inherits the block and none can swallow them (with
        // a dispatch signal source instead, a signal delivered to the server's thread was lost
        // once it had served a request, and the emulator kept running).
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
        let quiet = options.quiet
        let server: EmulatorServer
        do {
            let router = try EmulatorRouter(
                seed: seed, configuration: options.configuration,
                onMail: { mail in
                    guard !quiet else { return }
                    FileHandle.standardError.write(
                        Data(Self.mailLine(mail).utf8))
                })
            let certificate = try options.tlsCertPath.map { try String(contentsOfFile: $0, encoding: .utf8) }
            let key = try options.tlsKeyPath.map { try String(contentsOfFile: $0, encoding: .utf8) }
            server = try EmulatorServer(
                router: router, host: options.host, port: options.port, tlsCertificatePEM: certificate, tlsKeyPEM: key,
                exposeInsecurely: options.exposeInsecurely)
        } catch {
            fail(1, "\(error)")
        }
        if let hookToken = server.hookToken {
            FileHandle.standardError.write(Data(exposureWarning(server, hookToken: hookToken).utf8))
        }
        var banner = "base URL: \(server.baseURL)\n"
        if server.listensOnAllInterfaces {
            banner += "listening on all interfaces (\(server.host)): other machines use this machine's address in place of 127.0.0.1\n"
        }
        banner += "authority: \(server.authority)\n"
        for app in seed.apps {
            banner += "client id: \(app.clientId)  (\(app.name))\n"
        }
        for api in seed.apis {
            banner += "api: \(server.baseURL)\(api.path)  scopes: \(api.fullScopes.joined(separator: " "))\n"
        }
        FileHandle.standardOutput.write(Data(banner.utf8))

        var received: Int32 = 0
        while sigwait(&stopSignals, &received) != 0 {}
        server.stop()
        FileHandle.standardError.write(Data("native-auth-emulator: stopped\n".utf8))
        exit(0)
    }

    /// `mail to alan@example.com (mfa, sms +15550100): Account verification code: 12345678`.
    package static func mailLine(_ mail: EmulatorMail) -> String {
        "mail to \(mail.to) (\(mail.purpose), \(mail.channel) \(mail.target)): Account verification code: \(mail.code)\n"
    }

    /// What a non-loopback bind exposes, and the hook token (printed once, to stderr).
    package static func exposureWarning(_ server: EmulatorServer, hookToken: String) -> String {
        var text = """
            native-auth-emulator: WARNING: listening on \(server.host), which is not loopback: anyone who can reach port \(server.port) \
            can use the native-auth API as the seeded users, and, with the hook token, the test hooks under /_emulator/ \
            (the mailbox with every one-time code, adding and removing users, faults, the clock, the request log).

            """
        if !server.usesTLS {
            text +=
                "native-auth-emulator: WARNING: plain HTTP (--expose-insecurely): passwords, codes and tokens cross the network unencrypted.\n"
        }
        text +=
            "native-auth-emulator: hook token: \(hookToken)  (send it as the X-Emulator-Hook-Token header on every /_emulator/ request)\n"
        return text
    }

    static func fail(_ status: Int32, _ message: String) -> Never {
        FileHandle.standardError.write(Data("native-auth-emulator: \(message)\n".utf8))
        exit(status)
    }
}
