import Foundation
import NativeAuthEmulator

/// `native-auth-emulator`: serves the native-auth API on loopback for offline development.
@main
struct EmulatorCommand {
    static let usage = """
        Usage: native-auth-emulator [options]

        A local server that speaks the Microsoft Entra External ID native-auth API (V1), with seeded
        users, a mailbox for one-time codes, fault injection and two sample protected APIs.

        Options:
          --host ADDRESS               IPv4 address to bind (default 127.0.0.1); an address other than
                                       loopback (127.x.x.x) needs --tls-cert/--tls-key or --expose-insecurely
          --expose-insecurely          allow plain HTTP on a non-loopback address such as 0.0.0.0
          --port N                     port to listen on; 0 picks a free port (default 8585)
          --seed FILE                  JSON seed (tenant, apps, users, apis); default: the built-in demo seed
          --tls-cert FILE              serve HTTPS with this PEM certificate (needs --tls-key)
          --tls-key FILE               the certificate's PEM private key
          --token-lifetime SECONDS     access and id token lifetime (default 3600)
          --refresh-token-lifetime S   refresh token lifetime (default 7776000)
          --strict-refresh-rotation    a refresh token stops working once redeemed (default: it stays
                                       valid until it expires or is revoked, as Entra's do)
          --code-length N              digits in a one-time code (default 8)
          --code-ttl SECONDS           one-time code lifetime (default 600)
          --code-attempts N            wrong codes allowed per flow (default 5)
          --continuation-token-ttl S   continuation token lifetime (default 600)
          --reset-polls-in-progress N  'in_progress' answers before a reset succeeds (default 0)
          --quiet                      do not print one-time codes to stderr
          -h, --help                   show this help

        On start it prints one line each: 'base URL: …', 'authority: …' and 'client id: …' per app.
        Test hooks live under /_emulator/ (see docs/emulator.md). On a non-loopback address they need the
        header X-Emulator-Hook-Token with the token printed to stderr at start, and a warning says
        what is exposed. Stops cleanly on SIGINT or SIGTERM.

        Exit status: 0 after a clean stop, 2 for bad arguments or seed, 1 if the server cannot start.
        """

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let options: Options
        do {
            options = try Options.parse(arguments)
        } catch {
            FileHandle.standardError.write(Data("native-auth-emulator: \(error)\nTry --help.\n".utf8))
            exit(2)
        }
        if options.help {
            FileHandle.standardOutput.write(Data((usage + "\n").utf8))
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
    static func mailLine(_ mail: EmulatorMail) -> String {
        "mail to \(mail.to) (\(mail.purpose), \(mail.channel) \(mail.target)): Account verification code: \(mail.code)\n"
    }

    /// What a non-loopback bind exposes, and the hook token (printed once, to stderr).
    static func exposureWarning(_ server: EmulatorServer, hookToken: String) -> String {
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

struct Options {
    var help = false
    var host = "127.0.0.1"
    var port: UInt16 = 8585
    var seedPath: String?
    var tlsCertPath: String?
    var tlsKeyPath: String?
    var quiet = false
    var exposeInsecurely = false
    var configuration = EmulatorConfiguration()

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let next = rest.popFirst(), !next.hasPrefix("--") else { throw Problem(description: "\(flag) needs a value") }
            return next
        }
        func number(_ flag: String, _ range: ClosedRange<Int>) throws -> Int {
            let text = try value(flag)
            guard let parsed = Int(text), range.contains(parsed) else {
                throw Problem(description: "\(flag) must be a whole number from \(range.lowerBound) to \(range.upperBound) (got '\(text)')")
            }
            return parsed
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help": options.help = true
            case "--host": options.host = try value(argument)
            case "--port": options.port = UInt16(try number(argument, 0...65535))
            case "--seed": options.seedPath = try value(argument)
            case "--tls-cert": options.tlsCertPath = try value(argument)
            case "--tls-key": options.tlsKeyPath = try value(argument)
            case "--quiet": options.quiet = true
            case "--expose-insecurely": options.exposeInsecurely = true
            case "--strict-refresh-rotation": options.configuration.strictRefreshTokenRotation = true
            case "--token-lifetime": options.configuration.accessTokenLifetime = try number(argument, 60...86_400)
            case "--refresh-token-lifetime": options.configuration.refreshTokenLifetime = try number(argument, 60...31_536_000)
            case "--code-length": options.configuration.codeLength = try number(argument, 4...12)
            case "--code-ttl": options.configuration.codeLifetime = try number(argument, 1...86_400)
            case "--code-attempts": options.configuration.maxCodeAttempts = try number(argument, 1...100)
            case "--continuation-token-ttl": options.configuration.continuationTokenLifetime = try number(argument, 1...86_400)
            case "--reset-polls-in-progress": options.configuration.resetPasswordPollsInProgress = try number(argument, 0...100)
            default: throw Problem(description: "unknown option '\(argument)'")
            }
        }
        if (options.tlsCertPath == nil) != (options.tlsKeyPath == nil) {
            throw Problem(description: "--tls-cert and --tls-key go together")
        }
        if !options.help, !EmulatorServer.isLoopback(options.host), options.tlsCertPath == nil, !options.exposeInsecurely {
            throw Problem(
                description: """
                    --host \(options.host) is not a loopback address: plain HTTP there would serve the native-auth API and the test \
                    hooks (the mailbox with every one-time code, users, faults, clock) to the network. Serve HTTPS with \
                    --tls-cert and --tls-key, or pass --expose-insecurely if that is really meant.
                    """)
        }
        return options
    }
}
