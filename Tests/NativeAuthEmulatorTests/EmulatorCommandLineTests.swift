import CommandLineOptions
import Foundation
import MSAL
import NativeAuthEmulator
import TestSupport
import Testing

/// The `native-auth-emulator` program's options, decoded from the list its `--help` prints, by the
/// rules native-auth follows too (docs/emulator.md). No server starts.
struct EmulatorCommandLineTests {
    /// An argument list per option, and what it sets.
    static let examples: [String: ([String], @Sendable (EmulatorCommandLine) -> Bool)] = [
        "host": (["--host", "127.0.0.2"], { $0.host == "127.0.0.2" }),
        "expose-insecurely": (["--expose-insecurely"], { $0.exposeInsecurely }),
        "port": (["--port", "0"], { $0.port == 0 }),
        "seed": (["--seed", "seed.json"], { $0.seedPath == "seed.json" }),
        "tls-cert": (["--tls-cert", "c.pem", "--tls-key", "k.pem"], { $0.tlsCertPath == "c.pem" }),
        "tls-key": (["--tls-key", "k.pem", "--tls-cert", "c.pem"], { $0.tlsKeyPath == "k.pem" }),
        "token-lifetime": (["--token-lifetime", "60"], { $0.configuration.accessTokenLifetime == 60 }),
        "refresh-token-lifetime": (["--refresh-token-lifetime", "61"], { $0.configuration.refreshTokenLifetime == 61 }),
        "strict-refresh-rotation": (["--strict-refresh-rotation"], { $0.configuration.strictRefreshTokenRotation }),
        "code-length": (["--code-length", "4"], { $0.configuration.codeLength == 4 }),
        "code-ttl": (["--code-ttl", "7"], { $0.configuration.codeLifetime == 7 }),
        "code-attempts": (["--code-attempts", "2"], { $0.configuration.maxCodeAttempts == 2 }),
        "continuation-token-ttl": (["--continuation-token-ttl", "9"], { $0.configuration.continuationTokenLifetime == 9 }),
        "reset-polls-in-progress": (["--reset-polls-in-progress", "3"], { $0.configuration.resetPasswordPollsInProgress == 3 }),
        "quiet": (["--quiet"], { $0.quiet }),
    ]

    @Test func everyOptionReachesItsSettingByEitherSpelling() throws {
        #expect(Set(Self.examples.keys) == Set(EmulatorCommandLine.specs.map(\.name)), "an example per option")
        let defaults = try EmulatorCommandLine.parse([])
        for (name, (arguments, isSet)) in Self.examples {
            #expect(!isSet(defaults), "\(name) is not set by default")
            #expect(isSet(try EmulatorCommandLine.parse(arguments)), "\(arguments)")
            let joined =
                arguments.first == "--\(name)" && arguments.count > 1 ? ["--\(name)=\(arguments[1])"] + arguments.dropFirst(2) : arguments
            #expect(isSet(try EmulatorCommandLine.parse(joined)), "\(joined)")
        }
    }

    @Test func defaults() throws {
        let options = try EmulatorCommandLine.parse([])
        #expect(options.host == "127.0.0.1" && options.port == 8585 && !options.help && !options.quiet && options.seedPath == nil)
    }

    @Test func helpAnywhereEvenBesideAHostThatNeedsTLS() throws {
        #expect(try EmulatorCommandLine.parse(["-h"]).help)
        #expect(try EmulatorCommandLine.parse(["--port", "0", "--help"]).help)
        #expect(try EmulatorCommandLine.parse(["--host", "0.0.0.0", "--help"]).help)
    }

    @Test func aValueIsTakenAsItIsEvenWithALeadingDash() throws {
        #expect(try EmulatorCommandLine.parse(["--seed", "-"]).seedPath == "-")
        #expect(try EmulatorCommandLine.parse(["--seed", "--quiet"]).seedPath == "--quiet")
        #expect(throws: UsageError(.invalidValue(option: "port", reason: "must be a whole number from 0 to 65535 (got '--quiet')"))) {
            try EmulatorCommandLine.parse(["--port", "--quiet"])
        }
    }

    @Test(arguments: [
        (["--no-such-option"], "unknown option '--no-such-option'"),
        (["-p", "0"], "unknown option '-p'"),
        (["--port"], "option '--port' needs a value (N)"),
        (["--quiet=yes"], "option '--quiet' takes no value"),
        (["--port", "1", "--port=2"], "option '--port' is given twice"),
        (["--quiet", "--quiet"], "option '--quiet' is given twice"),
        (["8585"], "unexpected argument '8585'"),
        (["--", "--port"], "unexpected argument '--port'"),
        (["--port", "65536"], "--port must be a whole number from 0 to 65535 (got '65536')"),
        (["--code-length", "3"], "--code-length must be a whole number from 4 to 12 (got '3')"),
        (["--tls-cert", "c.pem"], "--tls-cert and --tls-key go together"),
    ])
    func usageErrors(_ arguments: [String], _ message: String) {
        #expect(throws: UsageError.self) { try EmulatorCommandLine.parse(arguments) }
        do {
            _ = try EmulatorCommandLine.parse(arguments)
        } catch {
            #expect(error.description == message, "\(arguments)")
        }
    }

    @Test func aHostBeyondLoopbackNeedsTLSOrExposeInsecurely() throws {
        #expect(throws: UsageError.self) { try EmulatorCommandLine.parse(["--host", "0.0.0.0"]) }
        #expect(try EmulatorCommandLine.parse(["--host=0.0.0.0", "--expose-insecurely"]).host == "0.0.0.0")
        #expect(try EmulatorCommandLine.parse(["--host", "0.0.0.0", "--tls-cert", "c", "--tls-key", "k"]).host == "0.0.0.0")
    }

    @Test func helpListsEveryOptionWithItsPlaceholder() {
        for spec in EmulatorCommandLine.specs { #expect(EmulatorCommandLine.usage.contains("\n  \(spec.helpEntry.usage) ")) }
        #expect(EmulatorCommandLine.usage.contains("\n  -h, --help "))
    }

    /// native-auth-emulator(1) is made from the same pieces as `--help`: every option, the exit
    /// statuses, and a page groff renders without a warning.
    @Test func theManualPageListsWhatHelpListsAndRendersCleanly() throws {
        let page = EmulatorCommandLine.manPage
        for spec in EmulatorCommandLine.specs { #expect(page.contains(spec.manEntry), "--\(spec.name)") }
        for (status, meaning) in EmulatorCommandLine.exitStatuses {
            #expect(page.contains(".TP\n\\fB\(status)\\fR\n\(Roff.text(meaning))\n"))
            #expect(EmulatorCommandLine.usage.contains("\(status) \(meaning)"))
        }
        #expect(page.contains(Roff.text(EmulatorCommandLine.notes)))
        #expect(page.contains("native-auth-emulator \(MSALNativeAuthSDK.version)"))

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-page-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("native-auth-emulator.1")
        try Data(page.utf8).write(to: file)
        let groff = try ChildProcess.runBlocking(
            "/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", file.path], environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"],
            limit: 60)
        #expect(groff.status == 0 && groff.stderr.isEmpty, "\(groff.stderr)")
    }
}
