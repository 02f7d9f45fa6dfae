import Foundation
import MSAL
import MSALSecretService
import NativeAuthEmulator

/// What the screen talks to: the SDK application, the two APIs, and (for the embedded
/// emulator) its mailbox.
public final class DemoEnvironment: Sendable {
    public let nativeAuth: MSALNativeAuthPublicClientApplication
    public let api1: DemoAPI?
    public let api2: DemoAPI?
    /// `emulator` or the tenant's host.
    public let mode: String
    /// Shown at start: the demo credentials.
    public let banner: String?
    /// Opens the browser sign-in ("Continue in browser"). Nil, as in the program: MSAL's default,
    /// the system browser (`$BROWSER`, `xdg-open`, `wslview`). A test seam: tests pass a browser
    /// that fills the emulator's page over HTTP.
    public let browserLauncher: (any MSALBrowserLauncher)?
    /// Sign In, Sign Up and Reset Password go through native auth V2 (`--v2`, experimental;
    /// DemoController+V2.swift, DemoController+V2SignUp.swift).
    public let signInV2: Bool
    private let server: EmulatorServer?
    private let mail: MailBox?

    init(
        nativeAuth: MSALNativeAuthPublicClientApplication, api1: DemoAPI?, api2: DemoAPI?, mode: String, banner: String?,
        server: EmulatorServer?, mail: MailBox?, browserLauncher: (any MSALBrowserLauncher)? = nil, signInV2: Bool = false
    ) {
        self.nativeAuth = nativeAuth
        self.api1 = api1
        self.api2 = api2
        self.mode = mode
        self.banner = banner
        self.server = server
        self.mail = mail
        self.browserLauncher = browserLauncher
        self.signInV2 = signInV2
    }

    /// The codes the embedded emulator sent, newest first; nil for a real tenant.
    public var mailbox: [EmulatorMail]? {
        mail?.all.reversed()
    }

    public func stop() {
        server?.stop()
    }

    /// The start screen's text in emulator mode: the demo accounts.
    public static let emulatorBanner = """
        Offline demo: an emulator of the native-auth API runs inside this program.
        Password accounts: ada@example.com / Analytical-Engine-1843
          alan@example.com / Turing-Machine-1936 (MFA: a second code by email or SMS)
          katherine@example.com / Orbital-Mechanics-1962 (registers a method)
        Email-code account: grace@example.com (type any password; a code is sent to the mailbox below)
        Sign Up, Reset Password and MFA send their codes to the mailbox too.
        """

    /// The banner's last line with `--conditional-access`.
    public static let conditionalAccessNote = """
        Conditional access: API 2 asks for authentication context c1, which only a browser sign-in gives.
        """

    /// The banner's last lines with `--v2`: the emulator's V2-only accounts.
    public static let signInV2Note = """
        V2 (experimental): the password may stay empty; the service asks for it.
          barbara@example.com / Substitution-Principle-1987 (password or code)
          hedy@example.com (the browser only)
          margaret@example.com (Reset Password: email or SMS code, then MFA)
        """

    /// What the demo's application declares it can do: MFA and strong-auth registration in its dialogs.
    public static let capabilities: MSALNativeAuthCapabilities = [.mfaRequired, .registrationRequired]

    /// Starts the emulator in-process on 127.0.0.1 (a free port) with the demo seed (or `seed`, for
    /// tests). With `signInV2`, Sign In, Sign Up and Reset Password go through native auth V2. With `conditionalAccess`, API 2 (the seed's second API) requires the authentication
    /// context `c1`: it answers a token without it with 401 and a claims challenge.
    public static func embedded(
        logger: MSALLoggerConfig?, seed: Seed = .demo, conditionalAccess: Bool = false, signInV2: Bool = false,
        browserLauncher: (any MSALBrowserLauncher)? = nil
    ) throws -> DemoEnvironment {
        var wanted = seed
        if conditionalAccess, wanted.apis.count > 1 { wanted.apis[1].requiredAcrs = ["c1"] }
        let box = MailBox()
        let router = try EmulatorRouter(seed: wanted, onMail: { message in box.append(message) })
        let server = try EmulatorServer(router: router, port: 0)
        let seed = router.seed
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: seed.apps[0].clientId, authority: try MSALCIAMAuthority(url: URL(string: server.authority)!),
            challengeTypes: [.OOB, .password])
        config.capabilities = capabilities
        // The emulator forgets its users and keys when it stops: a cache kept across runs would
        // only hold dead tokens, so the embedded demo keeps tokens in memory.
        config.tokenCacheLocation = .inMemory
        config.loggerConfig = logger
        let app = try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
        let apis = seed.apis.map { DemoAPI(url: server.baseURL + $0.path, scopes: [$0.scopeString($0.requiredScope)]) }
        let conditional = seed.apis.count > 1 && !(seed.apis[1].requiredAcrs ?? []).isEmpty
        return DemoEnvironment(
            nativeAuth: app, api1: apis.first, api2: apis.dropFirst().first, mode: "emulator",
            banner: emulatorBanner + (signInV2 ? "\n" + signInV2Note : "") + (conditional ? "\n" + conditionalAccessNote : ""),
            server: server, mail: box, browserLauncher: browserLauncher, signInV2: signInV2)
    }

    /// A real tenant from a configuration file.
    public static func tenant(
        _ configuration: DemoConfiguration, logger: MSALLoggerConfig?, browserLauncher: (any MSALBrowserLauncher)? = nil,
        signInV2: Bool = false
    ) throws -> DemoEnvironment {
        // One person at one terminal: Redis is for apps on several machines (docs/scale-out.md),
        // and a setting the demo would not follow is refused rather than ignored.
        if configuration.tokenCache == .redis || configuration.savedSignIns == .redis {
            throw DemoConfiguration.Problem(
                "the demo keeps tokens in a file or the keyring; Redis (\"token_cache\" or \"saved_sign_ins\") is for native-auth and apps")
        }
        let config = try configuration.nativeAuthConfiguration()
        config.loggerConfig = logger
        config.tokenCacheLocation = tokenCacheLocation(configuration, logger: logger)
        let app = try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
        return DemoEnvironment(
            nativeAuth: app, api1: configuration.api1, api2: configuration.api2, mode: config.authority.url.host ?? "tenant",
            banner: nil, server: nil, mail: nil, browserLauncher: browserLauncher, signInV2: signInV2)
    }
}

extension DemoEnvironment {
    /// The configuration's token store. `keyring`: one Secret Service item per client id (schema
    /// `msal-native-auth.multi-api-demo`, attribute `client_id`), its signal file beside the
    /// default cache file; without a usable keyring, the file store (the SDK logs which).
    static func tokenCacheLocation(_ configuration: DemoConfiguration, logger: MSALLoggerConfig?) -> MSALNativeAuthTokenCacheLocation {
        let file: MSALNativeAuthTokenCacheLocation = configuration.cacheFile.map { .file(URL(fileURLWithPath: $0)) } ?? .default
        guard configuration.tokenCache == .keyring else { return file }
        let signal = FileTokenCacheStorage.defaultURL(clientId: configuration.clientId).deletingLastPathComponent()
            .appendingPathComponent("token_cache.keyring-signal")
        return .secretService(
            schemaName: "msal-native-auth.multi-api-demo", attributes: ["client_id": configuration.clientId.lowercased()],
            signalFile: signal,
            label: "multi-api-demo tokens", orFallback: file, logger: logger ?? MSALGlobalConfig.loggerConfig)
    }
}

/// Lets the emulator's mail callback (any thread) append to the shared list.
final class MailBox: Sendable {
    private let storage = Locked<[EmulatorMail]>([])
    func append(_ mail: EmulatorMail) { storage.withLock { $0.append(mail) } }
    var all: [EmulatorMail] { storage.withLock { $0 } }
}
