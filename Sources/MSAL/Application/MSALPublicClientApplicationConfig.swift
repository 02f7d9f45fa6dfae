import Foundation

/// The configuration of an application: its app registration (client id, redirect URI) and the
/// authority that signs its users in. Mirrors MSAL's `MSALPublicClientApplicationConfig`, plus the
/// Linux settings MSAL keeps elsewhere (transport, logger, timeouts, retry, where the cache lives).
///
/// ```swift
/// let config = MSALPublicClientApplicationConfig(clientId: "00001111-aaaa-2222-bbbb-3333cccc4444")
/// let application = try MSALPublicClientApplication(configuration: config)
/// ```
///
/// Read once when the application is created; later changes do not affect that application.
open class MSALPublicClientApplicationConfig {
    /// The application (client) id of the app registration.
    public var clientId: String
    /// Where the browser sign-in returns. Linux uses a loopback redirect: nil or `http://localhost`
    /// (any free port, chosen at sign-in), or `http://localhost:PORT` / `http://127.0.0.1:PORT`.
    /// Register `http://localhost` as a "Mobile and desktop" redirect URI of the app.
    public var redirectUri: String?
    /// The authority; default `https://login.microsoftonline.com/common`.
    public var authority: MSALAuthority
    /// Authorities MSAL trusts without validating them. Accepted and ignored (docs/compatibility.md):
    /// the SDK never validates an authority against the service, so the configured one is already
    /// trusted as given, and one application uses only that one.
    public var knownAuthorities: [MSALAuthority] = []
    /// Accepted and ignored (docs/compatibility.md): a cached access token is never served past its
    /// expiry, even while the service is down, and `MSALResult.extendedLifeTimeToken` is always false.
    public var extendedLifetimeEnabled = false
    /// Sends `instance_aware=true` on the authorize request.
    public var multipleCloudsSupported = false
    /// Accepted and ignored (docs/compatibility.md): the redirect URI is where the SDK's loopback
    /// listener receives the browser, so `acquireToken` always checks that it is one it can listen on.
    public var bypassRedirectURIValidation = false
    /// Data-centre routing for test slices; only `dc` is sent, as a query parameter, as in MSAL's
    /// native auth (`slice` is accepted and ignored, docs/compatibility.md).
    public var sliceConfig: MSALSliceConfig?
    /// Client capabilities (for example `cp1`), sent as `xms_cc` in the `claims` request.
    public var clientApplicationCapabilities: [String]?
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
    /// With `.entryStore`: the most bytes of memory the accounts kept in memory take, each counted at
    /// what holding it costs, about 3.9 times its bytes as stored (128 MiB: about 7,500 accounts of
    /// two access tokens); past it, the accounts served least recently are dropped and read again from the
    /// store when next served (docs/scale-out.md). This SDK's addition.
    public var tokenCacheMemoryLimit: Int = 128 << 20

    /// A configuration for the `common` authority and a loopback redirect.
    public convenience init(clientId: String) {
        self.init(clientId: clientId, redirectUri: nil, authority: nil)
    }

    /// A configuration with an explicit redirect URI and authority (nil: the defaults).
    public init(clientId: String, redirectUri: String?, authority: MSALAuthority?) {
        self.clientId = clientId
        self.redirectUri = redirectUri
        self.authority = authority ?? MSALAuthority.common
    }
}
