import Foundation
import MSAL
import MSALSecretService
import NativeAuthEmulator
import TestSupport
import Testing

/// The SDK with its token cache in the keyring: sign-in, restart, sign-out, several processes, a
/// locked keyring, and no Secret Service at all.
@Suite struct KeyringTokenCacheTests {
    static let clientId = Seed.demo.apps[0].clientId
    static let todo = "api://emulator/todolist/ToDoList.Read"

    static func app(_ router: EmulatorRouter, _ persistence: MSALSecretServicePersistence, logger: MSALLoggerConfig? = nil) throws
        -> MSALNativeAuthPublicClientApplication
    {
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: clientId, authority: try MSALCIAMAuthority(url: URL(string: router.authority(baseURL: "http://127.0.0.1:1"))!),
            challengeTypes: [.OOB, .password])
        config.tokenCacheLocation = .persistence(persistence)
        config.transport = EmulatorTransport(router: router)
        config.loggerConfig = logger
        return try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
    }

    static func signIn(_ app: MSALNativeAuthPublicClientApplication) async throws -> MSALNativeAuthUserAccountResult {
        let parameters = MSALNativeAuthSignInParameters(username: "ada@example.com")
        parameters.password = "Analytical-Engine-1843"
        parameters.scopes = [todo]
        guard case .completed(let result) = try await app.signIn(parameters: parameters) else {
            throw MSALSecretServiceError(.operationFailed, "the sign-in did not complete")
        }
        return result
    }

    /// The stored document's section `name`, from the keyring item.
    static func section(_ persistence: MSALSecretServicePersistence, _ name: String) throws -> [String: [String: Any]] {
        guard let data = try persistence.load() else { return [:] }
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return document[name] as? [String: [String: Any]] ?? [:]
    }

    @Test(.enabled(if: KeyringSession.isPrivate, KeyringSession.reason))
    func signInStoresInTheKeyringARestartRestoresAndSignOutRemoves() async throws {
        let item = try TestItem()
        let router = try EmulatorRouter(seed: .demo)
        let lines = LogLines()
        let logger = MSALLoggerConfig()
        logger.logLevel = .verbose
        logger.setLogCallback { _, message, _ in lines.append(message ?? "") }

        let account = try await Self.signIn(try Self.app(router, item.persistence, logger: logger))
        let refreshTokens = try Self.section(item.persistence, "RefreshToken")
        #expect(refreshTokens.count == 1)
        let refreshToken = try #require(refreshTokens.values.first?["secret"] as? String)
        #expect(try Self.section(item.persistence, "AccessToken").count == 1)

        // A new application (a restart) with a new persistence object on the same item.
        let again = try MSALSecretServicePersistence(
            schemaName: item.schema, attributes: ["app": item.app], signalFile: item.directory.signalFile)
        let restarted = try Self.app(router, again)
        let restored = try #require(restarted.getNativeAuthUserAccount(), "the account comes back from the keyring")
        #expect(restored.account.username == "ada@example.com")
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = [Self.todo]
        let cachedToken = try await account.getAccessToken(parameters: parameters).accessToken
        #expect(try await restored.getAccessToken(parameters: parameters).accessToken == cachedToken, "served from the keyring's copy")

        restored.signOut()
        #expect(try Self.section(item.persistence, "RefreshToken").isEmpty)
        #expect(try Self.section(item.persistence, "AccessToken").isEmpty)
        #expect(try Self.section(item.persistence, "IdToken").isEmpty)
        #expect(try Self.app(router, item.persistence).getNativeAuthUserAccount() == nil)

        // The log names the store and never the secret.
        #expect(lines.all.contains { $0.contains("Token cache: the Secret Service (schema \"\(item.schema)\", attributes app)") })
        #expect(!lines.all.joined().contains(refreshToken))
        #expect(!lines.all.joined().contains(cachedToken))
    }

    @Test(.enabled(if: KeyringSession.isPrivate, KeyringSession.reason))
    func twoProcessesWritingAtOnceLoseNothing() async throws {
        let item = try TestItem()
        async let first = run(KeyringSession.helper, ["write"] + item.helperArguments + ["alpha", "40"])
        async let second = run(KeyringSession.helper, ["write"] + item.helperArguments + ["beta", "40"])
        let results = try await [first, second]
        for result in results { #expect(result.status == 0, "\(result.output)") }
        let entries = try Self.section(item.persistence, "AccessToken")
        #expect(entries.count == 80)
        #expect(entries.keys.filter { $0.hasPrefix("alpha-") }.count == 40)
        #expect(entries.keys.filter { $0.hasPrefix("beta-") }.count == 40)
    }

    /// CacheVisibilityTests for the keyring: look-ups do not ask the Secret Service each time, yet a sign-out
    /// written by another process is seen by the next call here.
    @Test(.enabled(if: KeyringSession.isPrivate, KeyringSession.reason))
    func aSignOutInAnotherProcessIsSeenByTheNextCall() async throws {
        let item = try TestItem()
        let router = try EmulatorRouter(seed: .demo)
        let account = try await Self.signIn(try Self.app(router, item.persistence))
        let parameters = MSALNativeAuthGetAccessTokenParameters()
        parameters.scopes = [Self.todo]
        _ = try await account.getAccessToken(parameters: parameters)
        _ = try await account.getAccessToken(parameters: parameters) // the steady state: served from memory

        let cleared = try await run(KeyringSession.helper, ["clear"] + item.helperArguments)
        #expect(cleared.status == 0, "\(cleared.output)")
        await #expect(throws: RetrieveAccessTokenError.self, "the token signed out elsewhere is not served") {
            try await account.getAccessToken(parameters: parameters)
        }
    }

    /// In a session of its own (locking the shared session's keyring would disturb the other tests).
    @Test(.enabled(if: KeyringSession.isPrivate, KeyringSession.reason))
    func aLockedKeyringThatStaysLockedIsAClearErrorNotAnEmptyCache() async throws {
        let directory = try TemporaryDirectory()
        let home = directory.url.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        for name in ["DISPLAY", "WAYLAND_DISPLAY", "XDG_DATA_HOME", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS"] {
            environment[name] = nil
        }
        let script = """
            eval "$(printf testpw | gnome-keyring-daemon --unlock --components=secrets)" && \
            gdbus wait --session --timeout 10 org.freedesktop.secrets && \
            exec "$0" locked "$1" locked.schema app
            """
        let result = try await run(
            "/usr/bin/dbus-run-session", ["--", "/bin/sh", "-c", script, KeyringSession.helper, directory.signalFile.path],
            environment: environment)
        #expect(result.status == 0, "\(result.output)")
        let locked = "error \(MSALSecretServiceErrorDomain) \(MSALSecretServiceError.Code.keyringLocked.rawValue)"
        for step in ["load", "save", "check", "accounts", "lastTokenCacheError"] {
            #expect(result.output.contains("\(step) \(locked)"), "\(step) must report the locked keyring:\n\(result.output)")
        }
    }

    @Test func withoutASessionBusTheKeyringIsReportedUnavailableAndTheFallbackIsUsed() async throws {
        let directory = try TemporaryDirectory()
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(directory.url.path)/no-bus"
        environment["DISPLAY"] = nil
        let arguments = [directory.signalFile.path, "com.example.none", "none"]
        let probe = try await run(KeyringSession.helper, ["probe"] + arguments, environment: environment)
        let unavailable = "error \(MSALSecretServiceErrorDomain) \(MSALSecretServiceError.Code.secretServiceUnavailable.rawValue)"
        #expect(probe.output.contains("load \(unavailable)"), "\(probe.output)")
        #expect(probe.output.contains("accounts \(unavailable) Cannot read the token cache from the Secret Service"), "\(probe.output)")

        let file = directory.url.appendingPathComponent("token_cache.json").path
        let fallback = try await run(KeyringSession.helper, ["fallback"] + arguments + [file], environment: environment)
        #expect(fallback.output.contains("chose file \(file)"), "\(fallback.output)")
        #expect(fallback.output.contains("[WARNING] Token cache: the Secret Service"), "the fallback is logged:\n\(fallback.output)")
        #expect(fallback.output.contains("using the token cache file"), "\(fallback.output)")
    }

    @Test func aSessionBusWithoutASecretServiceIsReportedUnavailable() async throws {
        let directory = try TemporaryDirectory()
        // A session bus that can start no services: nothing provides org.freedesktop.secrets.
        let config = directory.url.appendingPathComponent("bus.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig><type>session</type><listen>unix:tmpdir=\(directory.url.path)</listen><auth>EXTERNAL</auth>
        <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        let result = try await run(
            "/usr/bin/dbus-run-session",
            ["--config-file=\(config.path)", "--", KeyringSession.helper, "probe", directory.signalFile.path, "com.example.none", "none"],
            environment: environment)
        let unavailable = "error \(MSALSecretServiceErrorDomain) \(MSALSecretServiceError.Code.secretServiceUnavailable.rawValue)"
        #expect(result.output.contains("load \(unavailable)"), "\(result.output)")
        #expect(result.output.contains("org.freedesktop.secrets"), "the message names what is missing:\n\(result.output)")
    }
}
