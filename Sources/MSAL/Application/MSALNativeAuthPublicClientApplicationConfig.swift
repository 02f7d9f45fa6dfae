import Foundation

/// Everything an application needs to talk to one External ID tenant as one app registration.
/// Mirrors MSAL's `MSALNativeAuthPublicClientApplicationConfig`, with a few Linux settings added
/// (transport, logger, timeouts, retry) that MSAL keeps elsewhere.
///
/// ```swift
/// let config = try MSALNativeAuthPublicClientApplicationConfig(
///     clientId: "00001111-aaaa-2222-bbbb-3333cccc4444",
///     tenantSubdomain: "contoso",
///     challengeTypes: [.OOB, .password])
/// let app = try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
/// ```
///
/// The object is read once, when the application is created; changing it afterwards has no effect
/// on that application.
public final class MSALNativeAuthPublicClientApplicationConfig {
    /// The application (client) id of the app registration.
    public var clientId: String
    /// The tenant's authority.
    public var authority: MSALAuthority
    /// The challenge types the app handles natively. Internal in MSAL; readable here.
    public private(set) var challengeTypes: MSALNativeAuthChallengeTypes
    /// Abilities declared to the server (MFA, strong-auth registration). Default none.
    public var capabilities: MSALNativeAuthCapabilities = []
    /// Adds the app's own `x-` headers to every native-auth request.
    public var requestInterceptor: (any MSALNativeAuthRequestInterceptor)?
    /// Data-centre routing for test slices; only `dc` is sent, as a query parameter.
    public var sliceConfig: MSALSliceConfig?
    /// Seconds before expiry at which a cached access token counts as expired. Default 300.
    public var tokenExpirationBuffer: TimeInterval = 300

    // MARK: Linux additions

    /// The HTTP transport. Default: a `URLSessionTransport` of the application's own.
    public var transport: (any HTTPTransport)?
    /// Where this application's log lines go. Default: `MSALGlobalConfig.loggerConfig`.
    public var loggerConfig: MSALLoggerConfig?
    /// Seconds before a single HTTP request is abandoned. Default 30.
    public var requestTimeout: TimeInterval = 30
    /// Response bodies larger than this are refused with an error. Default 1 MiB.
    public var maxResponseBodyBytes: Int = 1 << 20
    /// When and how long to wait before sending a failed request again.
    public var retryPolicy = MSALNativeAuthRetryPolicy()
    /// Sent as `x-app-name`. Default: the process name.
    public var appName: String? = ProcessInfo.processInfo.processName
    /// Sent as `x-app-ver` when set.
    public var appVersion: String?
    /// Where tokens are kept. Default: a file under the XDG data directory.
    public var tokenCacheLocation: MSALNativeAuthTokenCacheLocation = .default
    /// Keep several accounts side by side. Default false: as in MSAL's native auth, a new sign-in
    /// replaces the previous account of this client id.
    public var allowsMultipleAccounts = false

    /// A configuration for an explicit authority (long form, tenant-id form, custom domain, or a
    /// loopback emulator). Problems such as an empty client id are reported when the application
    /// is created.
    public init(clientId: String, authority: MSALAuthority, challengeTypes: MSALNativeAuthChallengeTypes) {
        self.clientId = clientId
        self.authority = authority
        self.challengeTypes = challengeTypes
    }

    /// A configuration for `https://{tenantSubdomain}.ciamlogin.com/{tenantSubdomain}.onmicrosoft.com`.
    public convenience init(clientId: String, tenantSubdomain: String, challengeTypes: MSALNativeAuthChallengeTypes) throws(MSALError) {
        self.init(clientId: clientId, authority: try MSALCIAMAuthority(tenantSubdomain: tenantSubdomain), challengeTypes: challengeTypes)
    }
}

/// Where the token cache lives.
public enum MSALNativeAuthTokenCacheLocation: Sendable, Equatable {
    /// `$XDG_DATA_HOME/msal-native-auth/<client id>/token_cache.json` (else `~/.local/share/…`).
    case `default`
    /// A file of the app's choosing, in MSAL's unified cache format; other MSAL libraries can share it.
    case file(URL)
    /// Memory only: gone when the process ends.
    case inMemory
}

/// Data-centre routing. Mirrors MSAL's `MSALSliceConfig`; native auth sends only `dc`.
public struct MSALSliceConfig: Sendable, Equatable {
    public var slice: String?
    public var dc: String?

    public init(slice: String? = nil, dc: String? = nil) {
        self.slice = slice
        self.dc = dc
    }
}

/// When a request that failed is sent again. Each request is sent again at most once.
///
/// - A 5xx answer or a transient transport failure waits `retryDelay` (MSAL: 0.5 s), or
///   `offlineRetryDelay` when the machine is offline (MSAL: 2 s).
/// - HTTP 429 waits for the server's `Retry-After` (seconds or an HTTP date) when it is at most
///   `maxRetryAfter`; a longer wait is not attempted and the error reports the server's request.
public struct MSALNativeAuthRetryPolicy: Sendable, Equatable {
    public var retryDelay: TimeInterval = 0.5
    public var offlineRetryDelay: TimeInterval = 2
    public var maxRetryAfter: TimeInterval = 30
    /// Used when a 429 carries no usable `Retry-After`.
    public var defaultRetryAfter: TimeInterval = 1

    public init() {}
}
