import Foundation

/// Everything an application needs to talk to one External ID tenant natively, as one app
/// registration. Mirrors MSAL's `MSALNativeAuthPublicClientApplicationConfig`, a subclass of
/// `MSALPublicClientApplicationConfig` whose members (client id, authority, the Linux settings)
/// it inherits.
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
public final class MSALNativeAuthPublicClientApplicationConfig: MSALPublicClientApplicationConfig {
    /// The challenge types the app handles natively. Internal in MSAL; readable here.
    public private(set) var challengeTypes: MSALNativeAuthChallengeTypes
    /// Abilities declared to the server (MFA, strong-auth registration). Default none: without
    /// them the server answers an MFA or registration need with "browser required".
    public var capabilities: MSALNativeAuthCapabilities = []
    /// Adds the app's own `x-` headers to every native-auth request.
    public var requestInterceptor: (any MSALNativeAuthRequestInterceptor)?
    /// Keep several accounts side by side. Default false: as in MSAL's native auth, a new native
    /// sign-in replaces the previous account of this client id.
    public var allowsMultipleAccounts = false

    /// A configuration for an explicit authority (long form, tenant-id form, custom domain, or a
    /// loopback emulator). Problems such as an empty client id are reported when the application
    /// is created.
    public init(clientId: String, authority: MSALAuthority, challengeTypes: MSALNativeAuthChallengeTypes) {
        self.challengeTypes = challengeTypes
        super.init(clientId: clientId, redirectUri: nil, authority: authority)
    }

    /// A configuration for `https://{tenantSubdomain}.ciamlogin.com/{tenantSubdomain}.onmicrosoft.com`.
    /// Throws an `MSALErrorDomain` error (`internalErrorInvalidParameter`) for a subdomain that is not a DNS label.
    public convenience init(clientId: String, tenantSubdomain: String, challengeTypes: MSALNativeAuthChallengeTypes) throws {
        let authority: MSALCIAMAuthority
        do throws(SetupError) { authority = try MSALCIAMAuthority(validatingTenantSubdomain: tenantSubdomain) } catch {
            throw error.nsError
        }
        self.init(clientId: clientId, authority: authority, challengeTypes: challengeTypes)
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
    /// The document kept by `persistence`, for example the desktop keyring
    /// (`MSALSecretServicePersistence` of the `MSALSecretService` product); the SDK adds the
    /// cross-process lock, change detection and merging (see `MSALTokenCachePersistence`).
    case persistence(any MSALTokenCachePersistence)
    /// Entries in partitions of `store`, shared by every process and machine that uses it (a Redis
    /// server, with `MSALRedis`), behind an in-memory copy: a cached token is served from memory,
    /// and the store is asked whether anything changed at most every `checkInterval` seconds, on
    /// every miss, before every refresh and whenever the store reports a change
    /// (`MSALTokenCacheEntryStore`, docs/scale-out.md). `checkInterval` 0 asks on every call.
    case entryStore(any MSALTokenCacheEntryStore, checkInterval: TimeInterval = 1)

    /// Equal cases with equal URLs, or the same persistence or entry store object (and interval).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.default, .default), (.inMemory, .inMemory): return true
        case (.file(let left), .file(let right)): return left == right
        case (.persistence(let left), .persistence(let right)): return left === right
        case (.entryStore(let left, let leftInterval), .entryStore(let right, let rightInterval)):
            return left === right && leftInterval == rightInterval
        default: return false
        }
    }
}

/// Data-centre routing. Mirrors MSAL's `MSALSliceConfig`; native auth sends only `dc`.
public struct MSALSliceConfig: Sendable, Equatable {
    /// The slice to route to. Accepted and ignored, as MSAL's native auth ignores it
    /// (docs/compatibility.md): only `dc` is sent.
    public var slice: String?
    /// The data centre to route to, sent as the `dc` query parameter of every native-auth request.
    public var dc: String?

    /// Routing to `slice` and `dc`; nil leaves either out.
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
    /// Seconds to wait before sending again after a 5xx answer or a transient transport failure. Default 0.5.
    public var retryDelay: TimeInterval = 0.5
    /// Seconds to wait instead of `retryDelay` when the transport reports the machine offline. Default 2.
    public var offlineRetryDelay: TimeInterval = 2
    /// The longest wait, in seconds, a 429 answer may ask for and still be retried. Default 30.
    public var maxRetryAfter: TimeInterval = 30
    /// Used when a 429 carries no usable `Retry-After`.
    public var defaultRetryAfter: TimeInterval = 1

    /// A policy with the default given on each member.
    public init() {}
}
