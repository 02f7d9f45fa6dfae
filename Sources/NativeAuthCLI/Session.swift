import Foundation
import MSAL
import NativeAuthAppConfig

/// Everything a command runs with: its arguments, the process's environment and terminal, and
/// (resolved on first use) the app's configuration and files.
public struct ToolContext: Sendable {
    public var environment: [String: String]
    public var terminal: any Terminal
    /// The directory of this executable, where `native-auth-emulator` is (docs/cli.md#one-program-three-names).
    public var executableDirectory: String
    public var keyring: KeyringSupport
    /// Which program `--emulator` starts in the background.
    public var emulator: EmulatorSupport
    /// The arguments as given (without the program's name).
    public var arguments: [String]

    public init(
        environment: [String: String], terminal: any Terminal, executableDirectory: String, keyring: KeyringSupport,
        emulator: EmulatorSupport = .beside, arguments: [String]
    ) {
        self.environment = environment
        self.terminal = terminal
        self.executableDirectory = executableDirectory
        self.keyring = keyring
        self.emulator = emulator
        self.arguments = arguments
    }
}

/// The app a command works on: its configuration, directory and token store.
struct Session {
    let configuration: AppConfiguration
    /// Where the token cache (unless `cache_file` says otherwise) and the saved sign-in live.
    let directory: String
    /// The configuration file it came from (for messages).
    let source: String
    /// Set in emulator mode.
    let emulator: EmulatorInstance?
    /// The server of the configuration's `redis` object, made at its first use: a `token` on the
    /// file with `"saved_sign_ins": "redis"` never reads the object's files nor loads OpenSSL.
    let redisBackend = LazyRedisBackend()

    var flowFile: String { directory + "/login-state.json" }
    var cacheFile: String { configuration.cacheFile ?? directory + "/token_cache.json" }
    var usesKeyring: Bool { configuration.tokenCache == .keyring }
    var usesRedis: Bool { configuration.tokenCache == .redis }
    /// Where `status` says tokens are kept.
    var tokenCacheDescription: String { usesKeyring ? "the keyring" : usesRedis ? "redis" : cacheFile }
    /// The authority the configuration names, as the SDK spells it.
    var authority: String {
        (try? configuration.nativeAuthConfiguration().authority.url.absoluteString) ?? configuration.authority ?? ""
    }

    /// The session of `--config FILE` (or the default file), or of the emulator with `--emulator`
    /// (started when `start` is true, else only when it already runs).
    static func resolve(_ global: GlobalOptions, _ context: ToolContext, startEmulator: Bool) throws(CLIError) -> Session {
        let places = Places(context.environment)
        if global.emulator {
            if global.config != nil { throw CLIError(.usage, "--emulator and --config exclude each other") }
            if global.keyring { throw CLIError(.usage, "--keyring applies to --config; the emulator keeps its tokens beside it") }
            let instance: EmulatorInstance
            if startEmulator {
                instance = try EmulatorControl(context, places: places)
                    .ensureRunning()
            } else {
                guard let running = try EmulatorInstance.load(places) else {
                    throw CLIError(
                        .notSignedIn, "the emulator is not running, so no account is signed in (native-auth --emulator login starts it)")
                }
                instance = running
            }
            return Session(
                configuration: instance.configuration, directory: instance.directory, source: instance.configFile, emulator: instance)
        }
        let path = global.config ?? places.defaultConfigFile
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let hint = global.config != nil ? "" : " (pass --config FILE, write this file, or try --emulator)"
            throw CLIError(.configuration, "cannot read the configuration \(path)\(hint)")
        }
        var configuration: AppConfiguration
        do {
            configuration = try AppConfiguration.load(data)
        } catch {
            throw CLIError(.configuration, "configuration \(path): \(error)")
        }
        if global.keyring { configuration.tokenCache = .keyring }
        return Session(
            configuration: configuration, directory: places.appDirectory(clientId: configuration.clientId), source: path, emulator: nil)
    }

    /// The SDK application over this session's token store. As in MSAL's native auth, a new sign-in
    /// replaces the app's previous account.
    func application(_ context: ToolContext) throws(CLIError) -> MSALNativeAuthPublicClientApplication {
        let config: MSALNativeAuthPublicClientApplicationConfig
        do {
            config = try configuration.nativeAuthConfiguration()
        } catch {
            throw CLIError(.configuration, "configuration \(source): \(Self.describe(error))")
        }
        if usesKeyring {
            guard case .linked(let store) = context.keyring else {
                throw CLIError(.configuration, "the keyring store is not available in this program")
            }
            let cacheHome = Places(context.environment).cacheHome
            let cacheHomeExisted = SecureFile.isDirectory(cacheHome)
            let created = try SecureFile.makeDirectory(directory)
            do {
                return try keyringApplication(config, store)
            } catch {
                // A first run that could not start leaves no trace: not the state directory it made,
                // nor the empty cache home GLib made on the way (rmdir keeps one with anything in it).
                SecureFile.removeCreated(created, files: [Self.keyringSignalFile])
                if !cacheHomeExisted { rmdir(cacheHome) }
                throw error
            }
        }
        if usesRedis, let redis = try redisBackend.backend(configuration.redis, source: source) {
            return try redisApplication(config, redis)
        }
        try SecureFile.makeDirectory(directory)
        config.tokenCacheLocation = .file(URL(fileURLWithPath: cacheFile))
        return try makeApplication(config)
    }

    /// The SDK application for `config`; a configuration the SDK refuses is the tool's configuration error.
    private func makeApplication(
        _ config: MSALNativeAuthPublicClientApplicationConfig
    ) throws(CLIError) -> MSALNativeAuthPublicClientApplication {
        do {
            return try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
        } catch {
            throw CLIError(.configuration, "configuration \(source): \(Self.describe(error))")
        }
    }

    static let keyringSignalFile = "token_cache.keyring-signal"

    /// The application over the keyring, read once: a keyring that cannot be used is a setup
    /// problem, not an empty cache (the SDK would carry on in memory, and a sign-in's tokens would be lost).
    private func keyringApplication(
        _ config: MSALNativeAuthPublicClientApplicationConfig, _ store: any KeyringStore
    ) throws(CLIError) -> MSALNativeAuthPublicClientApplication {
        do {
            config.tokenCacheLocation = try store.location(
                clientId: configuration.clientId, signalFile: URL(fileURLWithPath: directory + "/" + Self.keyringSignalFile))
        } catch {
            throw CLIError(.configuration, "the keyring cannot be used: \(Self.describe(error))")
        }
        let app = try makeApplication(config)
        do { _ = try app.allAccounts() } catch {
            throw CLIError(.configuration, "the keyring cannot be used: \(Self.describe(error))")
        }
        return app
    }

    /// The application over Redis, read once: a server that cannot be reached or refuses the
    /// password is reported as such (docs/cli.md#redis), not taken for an empty cache.
    private func redisApplication(
        _ config: MSALNativeAuthPublicClientApplicationConfig, _ redis: RedisBackend
    ) throws(CLIError) -> MSALNativeAuthPublicClientApplication {
        config.tokenCacheLocation = try redis.tokenCacheLocation()
        let app = try makeApplication(config)
        do { _ = try app.allAccounts() } catch {
            throw RedisBackend.failure(app.lastTokenCacheError ?? error, doing: "reading the token cache")
        }
        return app
    }

    /// Where `login` keeps a sign-in waiting for input: the file, or Redis with
    /// `"saved_sign_ins": "redis"` (then `signInId` names the one to continue).
    func flowStore(_ app: MSALNativeAuthPublicClientApplication, signInId: String?) throws(CLIError) -> FlowStore {
        guard configuration.savedSignIns == .redis, let redis = try redisBackend.backend(configuration.redis, source: source) else {
            if signInId != nil {
                throw CLIError(.usage, "--sign-in-id applies to a configuration with \"saved_sign_ins\": \"redis\"")
            }
            return FlowStore(path: flowFile, app: app)
        }
        return FlowStore(place: .redis(try redis.signInStore(), id: signInId), app: app)
    }

    /// After a sign-in: the tokens must have reached the store.
    static func checkSaved(_ app: MSALNativeAuthPublicClientApplication) throws(CLIError) {
        if let problem = app.lastTokenCacheError {
            throw CLIError(.failure, "signed in, but the tokens could not be saved: \(problem.localizedDescription)")
        }
    }

    static func describe(_ error: any Error) -> String {
        if let problem = error as? AppConfiguration.Problem { return problem.description }
        return (error as NSError).localizedDescription
    }
}
