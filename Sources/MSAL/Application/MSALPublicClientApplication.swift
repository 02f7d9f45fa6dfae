import Foundation

/// An application of MSAL's standard surface: accounts from the shared token cache, tokens without
/// the user (`acquireTokenSilent`) and, when the user must take part, the system browser
/// (`acquireToken`). Mirrors MSAL's `MSALPublicClientApplication`; `MSALNativeAuthPublicClientApplication`
/// derives from it, so one native application also has every member here, over the same cache.
///
/// ```swift
/// // given: clientId: String
/// let application = try MSALPublicClientApplication(configuration: MSALPublicClientApplicationConfig(clientId: clientId))
/// let parameters = MSALSilentTokenParameters(scopes: ["api://contoso/todolist/.default"], account: try application.allAccounts()[0])
/// let result = try await application.acquireTokenSilent(with: parameters)
/// ```
///
/// Errors are `NSError`s in `MSALErrorDomain` (see `MSALError`), or the system's own (network, files).
open class MSALPublicClientApplication: @unchecked Sendable {
    // `@unchecked` only because the class is open (MSAL's hierarchy): every stored property is a
    // `let` of a Sendable type.
    package let environment: NativeAuthEnvironment
    package let client: NativeAuthClient

    /// An application for `configuration`. Throws an `MSALErrorDomain` error (`.internal` with
    /// `internalErrorInvalidParameter`) for an empty client id or an authority that cannot be used.
    public init(configuration: MSALPublicClientApplicationConfig) throws {
        do throws(SetupError) {
            environment = try Self.makeEnvironment(configuration, clock: SystemClock(), uuid: { CorrelationID.next() })
        } catch {
            throw error.nsError
        }
        client = NativeAuthClient(environment: environment)
    }

    /// An application for `clientId` with the default authority and a loopback redirect.
    public convenience init(clientId: String) throws {
        try self.init(configuration: MSALPublicClientApplicationConfig(clientId: clientId))
    }

    package init(environment: NativeAuthEnvironment) {
        self.environment = environment
        client = NativeAuthClient(environment: environment)
    }

    /// Resolves a configuration into the values the SDK runs on; the native options apply only to a
    /// native configuration.
    package static func makeEnvironment(
        _ configuration: MSALPublicClientApplicationConfig, clock: any NativeAuthClock, uuid: @escaping @Sendable () -> UUID
    ) throws(SetupError) -> NativeAuthEnvironment {
        let clientId = configuration.clientId.trimmingWhitespaceAndNewlines
        guard !clientId.isEmpty else {
            throw SetupError(.invalidParameter, "clientId is empty; set it to the application (client) id of the app registration")
        }
        // Re-validate: the authority may have been built by a subclass or changed after creation.
        let authorityURL = try MSALAuthority.normalise(configuration.authority.url)
        guard configuration.requestTimeout > 0, configuration.maxResponseBodyBytes > 0 else {
            throw SetupError(.invalidParameter, "requestTimeout and maxResponseBodyBytes must be positive")
        }
        let logger = configuration.loggerConfig ?? MSALGlobalConfig.loggerConfig
        let storage: any TokenCacheStorage
        switch configuration.tokenCacheLocation {
        case .default: storage = FileTokenCacheStorage(url: FileTokenCacheStorage.defaultURL(clientId: clientId))
        case .file(let url): storage = FileTokenCacheStorage(url: url)
        case .inMemory: storage = InMemoryTokenCacheStorage()
        case .persistence(let persistence): storage = PersistenceTokenCacheStorage(persistence: persistence)
        case .entryStore(let store, let checkInterval):
            guard checkInterval.isFinite, checkInterval >= 0 else {
                throw SetupError(.invalidParameter, "The token cache's checkInterval must be 0 or more seconds")
            }
            // A refresh lock outlives the longest refresh (a request and its retry) unless released.
            guard configuration.tokenCacheMemoryLimit > 0 else {
                throw SetupError(.invalidParameter, "The token cache's memory limit must be more than 0 bytes")
            }
            storage = EntryStoreTokenCacheStorage(
                store: store, clientId: clientId, checkInterval: checkInterval, lease: configuration.requestTimeout * 2, clock: clock,
                memoryLimit: configuration.tokenCacheMemoryLimit)
        }
        // Which store holds the tokens (paths may name the user: personal data).
        logger.info("Token cache: \(storage.logDescription)")
        let native = configuration as? MSALNativeAuthPublicClientApplicationConfig
        return NativeAuthEnvironment(
            clientId: clientId,
            authorityURL: authorityURL,
            challengeTypes: native?.challengeTypes ?? [],
            capabilities: native?.capabilities ?? [],
            dc: configuration.sliceConfig?.dc,
            interceptor: native?.requestInterceptor,
            transport: configuration.transport ?? URLSessionTransport(),
            logger: logger,
            clock: clock,
            requestTimeout: configuration.requestTimeout,
            maxResponseBodyBytes: configuration.maxResponseBodyBytes,
            retryPolicy: configuration.retryPolicy,
            appName: configuration.appName,
            appVersion: configuration.appVersion,
            uuid: uuid,
            cache: TokenCache(storage: storage, clientId: clientId, authority: authorityURL, logger: logger),
            tokenExpirationBuffer: max(0, configuration.tokenExpirationBuffer),
            allowsMultipleAccounts: native?.allowsMultipleAccounts ?? true,
            redirectUri: configuration.redirectUri,
            clientCapabilities: configuration.clientApplicationCapabilities ?? [],
            multipleCloudsSupported: configuration.multipleCloudsSupported)
    }

    // MARK: Accounts

    /// Every account with tokens for this client id, most recently used first; `[]` when none.
    /// Reads every account (linear in the accounts); to find one, use `account(forIdentifier:)`.
    public func allAccounts() throws -> [MSALAccount] {
        try listedAccounts().map { accountResult(for: $0).account }
    }

    /// The account whose identifier (home account id, `uid.utid`) is `identifier`, compared
    /// case-insensitively. Not found: `.internal` with `internalErrorAccountRequired`. The cost
    /// does not grow with the number of accounts in the cache.
    public func account(forIdentifier identifier: String) throws -> MSALAccount {
        try cachedAccount(forIdentifier: identifier).account
    }

    /// The account whose username is `username` (case-insensitive). A blank username: `.internal`
    /// with `internalErrorInvalidParameter`; not found: `internalErrorAccountRequired`.
    public func account(forUsername username: String) throws -> MSALAccount {
        guard !username.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw SetupError(.invalidParameter, "The username is empty").nsError
        }
        guard let found = try listedAccounts().first(where: { $0.username?.lowercased() == username.lowercased() }) else {
            throw SetupError(.accountNotFound, "No cached account has that username").nsError
        }
        return accountResult(for: found).account
    }

    /// Removes the account's tokens for this client id from the cache; silent calls for it then
    /// answer `.interactionRequired`. Other apps, and the browser's session, are not touched.
    public func remove(_ account: MSALAccount) throws {
        guard let identifier = account.identifier else { throw SetupError(.invalidParameter, "The account has no identifier").nsError }
        do throws(SetupError) { try environment.cache.removeAccount(homeAccountId: identifier) } catch { throw error.nsError }
    }

    /// The last problem the token cache met (a corrupt file set aside, an unreadable file, a failed
    /// write), or nil. The SDK keeps working in memory meanwhile; see the log for details.
    public var lastTokenCacheError: NSError? { environment.cache.lastError?.nsError }

    /// Every account of the cache; throws when the cache cannot be used.
    func listedAccounts() throws -> [CachedAccount] {
        let accounts = environment.cache.accounts()
        if let error = environment.cache.lastError, error.code == .cacheUnavailable { throw error.nsError }
        return accounts
    }

    /// The account with this home account id, as the native and standard surfaces hand it out;
    /// throws when the cache cannot be used, or `accountNotFound`. Reads that account alone.
    package func cachedAccount(forIdentifier identifier: String) throws -> MSALNativeAuthUserAccountResult {
        guard let found = try cachedAccountIfAny(identifier) else {
            throw SetupError(.accountNotFound, "No cached account has the identifier \(identifier)").nsError
        }
        return accountResult(for: found)
    }

    /// The account with this home account id, or nil; throws when the cache cannot be used.
    func cachedAccountIfAny(_ identifier: String) throws -> CachedAccount? {
        let found = environment.cache.account(homeAccountId: identifier)
        if let error = environment.cache.lastError, error.code == .cacheUnavailable { throw error.nsError }
        return found
    }

    /// A cached account with its id token, as the native and standard surfaces hand it out.
    package func accountResult(for cached: CachedAccount) -> MSALNativeAuthUserAccountResult {
        // Made once per change of the account's cache entries (CachedAccount.account).
        let account = cached.account { cached in
            let idToken = cached.decodedIdToken()
            let parts = cached.homeAccountId.split(separator: ".", maxSplits: 1).map(String.init)
            return MSALAccount(
                username: idToken?.username ?? cached.username, identifier: cached.homeAccountId, environment: cached.environment,
                homeAccountId: parts.count == 2
                    ? MSALAccountId(identifier: cached.homeAccountId, objectId: parts[0], tenantId: parts[1]) : nil,
                claims: idToken?.claims)
        }
        let tokens = TokenSet(
            accessToken: nil, refreshToken: nil, scopes: [], expiresOn: nil, extendedExpiresOn: nil, correlationId: environment.uuid())
        return MSALNativeAuthUserAccountResult(account: account, idToken: cached.idToken, tokens: tokens, client: client)
    }
}
