import Foundation

/// Which accounts `accounts(for:)` returns. Mirrors MSAL's `MSALAccountEnumerationParameters`;
/// filters compare case-insensitively.
public final class MSALAccountEnumerationParameters: MSALParameters {
    /// Only the account with this home account id (`MSALAccount.identifier`); nil: any.
    public let identifier: String?
    /// Only accounts with this username; nil: any.
    public let username: String?
    /// Only accounts whose object id in their home tenant is this (`MSALAccountId.objectId`); nil: any.
    public let tenantProfileIdentifier: String?
    /// Whether to list only the accounts signed in to this application (default true), as MSAL
    /// decides it: an account is signed in while the token cache holds a refresh token of this
    /// client id for it, so an account removed with `remove(_:)` or `signout` is not. False lists
    /// every account the token cache knows at the application's authority host, signed in or not,
    /// including accounts only other apps sharing the cache have signed in (MSAL for Python, another
    /// client id); a silent call for such an account answers `.interactionRequired`, and
    /// `acquireToken` with it as `account` fills the sign-in page with its username.
    public var returnOnlySignedInAccounts = true

    public override init() {
        identifier = nil
        username = nil
        tenantProfileIdentifier = nil
    }

    /// Matches the account with this home account id.
    public init(identifier: String) {
        self.identifier = identifier
        username = nil
        tenantProfileIdentifier = nil
    }

    /// Matches accounts with this username and, when `identifier` is not nil, this home account id.
    public init(identifier: String?, username: String) {
        self.identifier = identifier
        self.username = username
        tenantProfileIdentifier = nil
    }

    /// Matches accounts whose object id in their home tenant is `tenantProfileIdentifier`.
    public init(tenantProfileIdentifier: String) {
        identifier = nil
        username = nil
        self.tenantProfileIdentifier = tenantProfileIdentifier
    }
}

extension MSALPublicClientApplication {
    /// The accounts matching `parameters`, most recently used first: by default those signed in to
    /// this application (see `returnOnlySignedInAccounts`).
    public func accounts(for parameters: MSALAccountEnumerationParameters) throws -> [MSALAccount] {
        let cache = environment.cache
        let listed: [CachedAccount]
        if parameters.returnOnlySignedInAccounts {
            // With an identifier, that account alone: the cost does not grow with the accounts.
            let candidates = try parameters.identifier.map { [try cachedAccountIfAny($0)].compactMap { $0 } } ?? listedAccounts()
            listed = candidates.filter { cache.refreshToken(homeAccountId: $0.homeAccountId) != nil }
        } else {
            listed = cache.knownAccounts()
            if let error = cache.lastError, error.code == .cacheUnavailable { throw error.nsError }
        }
        return listed.map { accountResult(for: $0).account }.filter { account in
            if let identifier = parameters.identifier, account.identifier?.lowercased() != identifier.lowercased() { return false }
            if let username = parameters.username, account.username?.lowercased() != username.lowercased() { return false }
            if let profile = parameters.tenantProfileIdentifier, account.homeAccountId?.objectId.lowercased() != profile.lowercased() {
                return false
            }
            return true
        }
    }

    /// The same as `accounts(for:)`, delivered to `completionBlock`.
    public func accountsFromDevice(for parameters: MSALAccountEnumerationParameters, completionBlock: @escaping MSALAccountsCompletionBlock)
    {
        let delivery = CompletionDelivery(completionBlock, queue: parameters.completionBlockQueue)
        let result = Result { try accounts(for: parameters) }.mapError { $0 as NSError }
        delivery.queue.async {
            switch result {
            case .success(let accounts): delivery.block(accounts, nil)
            case .failure(let error): delivery.block(nil, error)
            }
        }
    }

    /// The signed-in account when there is exactly one; nil when none; several:
    /// `internalErrorAmbiguousAccount`. The previous account is always nil on Linux.
    public func getCurrentAccount(with parameters: MSALParameters?, completionBlock: @escaping MSALCurrentAccountCompletionBlock) {
        let delivery = CompletionDelivery(completionBlock, queue: parameters?.completionBlockQueue)
        let result = currentAccount()
        delivery.queue.async {
            switch result {
            case .success(let account): delivery.block(account, nil, nil)
            case .failure(let error): delivery.block(nil, nil, error)
            }
        }
    }

    /// The `async` form of `getCurrentAccount(with:completionBlock:)`: the current and the previous account.
    nonisolated(nonsending) public func getCurrentAccount(with parameters: MSALParameters?) async throws -> (MSALAccount?, MSALAccount?) {
        (try currentAccount().get(), nil)
    }

    private func currentAccount() -> Result<MSALAccount?, NSError> {
        do {
            let accounts = try allAccounts()
            guard accounts.count <= 1 else {
                return .failure(
                    StandardErrors.make(
                        .internal, internal: .internalErrorAmbiguousAccount,
                        description: "\(accounts.count) accounts are signed in; choose one with allAccounts()"))
            }
            return .success(accounts.first)
        } catch {
            return .failure(error as NSError)
        }
    }

    /// Signs the account out of this application: removes its tokens from the cache (with
    /// `wipeAccount`, of every client id; with `wipeCacheForAllAccounts`, of every account), then,
    /// with `signoutFromBrowser`, opens the tenant's logout page in the browser to end its session
    /// there too. Completes with whether the browser was reached.
    public func signout(
        with account: MSALAccount, signoutParameters: MSALSignoutParameters, completionBlock: @escaping MSALSignoutCompletionBlock
    ) {
        let delivery = CompletionDelivery(completionBlock, queue: signoutParameters.completionBlockQueue)
        let request = signoutRequest(account, signoutParameters)
        Task {
            let result = await signout(request)
            delivery.queue.async {
                switch result {
                case .success(let reached): delivery.block(reached, nil)
                case .failure(let error): delivery.block(false, error)
                }
            }
        }
    }

    /// The `async` form of `signout(with:signoutParameters:completionBlock:)`.
    @discardableResult
    nonisolated(nonsending) public func signout(with account: MSALAccount, signoutParameters: MSALSignoutParameters) async throws -> Bool {
        try await signout(signoutRequest(account, signoutParameters)).get()
    }

    struct SignoutRequest: Sendable {
        var accountIds: [String]
        var everyClient: Bool
        var browser: BrowserLauncher?
        var logoutURL: URL
        var missingWebview: Bool
    }

    private func signoutRequest(_ account: MSALAccount, _ parameters: MSALSignoutParameters) -> SignoutRequest {
        var ids = [account.identifier].compactMap { $0 }
        if parameters.wipeCacheForAllAccounts {
            ids = environment.cache.accounts().map(\.homeAccountId) + ids
        }
        var components = URLComponents(url: environment.authorityURL, resolvingAgainstBaseURL: false)!
        components.path += "/oauth2/v2.0/logout"
        components.queryItems =
            [URLQueryItem(name: "client-request-id", value: environment.uuid().uuidString)]
            + (parameters.extraQueryParameters ?? [:]).sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        let launcher = parameters.webviewParameters.map { $0.browserLauncher.map(BrowserLauncher.init(app:)) ?? BrowserLauncher() }
        return SignoutRequest(
            accountIds: Array(Set(ids.map { $0.lowercased() })), everyClient: parameters.wipeAccount || parameters.wipeCacheForAllAccounts,
            browser: parameters.signoutFromBrowser ? launcher : nil, logoutURL: components.url ?? environment.authorityURL,
            missingWebview: parameters.signoutFromBrowser && parameters.webviewParameters == nil)
    }

    private func signout(_ request: SignoutRequest) async -> Result<Bool, NSError> {
        if request.missingWebview {
            return .failure(
                StandardErrors.make(
                    .internal, internal: .internalErrorInvalidParameter,
                    description: "signoutFromBrowser needs MSALSignoutParameters(webviewParameters:)"))
        }
        for id in request.accountIds {
            do throws(SetupError) {
                try environment.cache.removeAccount(homeAccountId: id, everyClient: request.everyClient)
            } catch {
                return .failure(error.nsError)
            }
        }
        environment.logger.info("Signed out \(request.accountIds.count) account(s) locally")
        guard let browser = request.browser else { return .success(false) }
        let report = await browser.open(request.logoutURL)
        return .success(report.launched)
    }
}

extension MSALClaimsRequest {
    /// The claims a protected API asks for in a claims challenge: the `claims` parameter of its
    /// `WWW-Authenticate: Bearer …` header (base64 of a claims-request JSON), as a request to pass
    /// to `acquireTokenSilent` or `acquireToken` (`parameters.claimsRequest`). Nil when the header
    /// carries no usable challenge.
    ///
    /// ```swift
    /// // given: response: HTTPURLResponse, parameters: MSALInteractiveTokenParameters
    /// if response.statusCode == 401, let header = response.value(forHTTPHeaderField: "WWW-Authenticate"),
    ///    let claims = MSALClaimsRequest.fromClaimsChallenge(header) {
    ///     parameters.claimsRequest = claims  // then acquireToken: the user satisfies the policy in the browser
    /// }
    /// ```
    public static func fromClaimsChallenge(_ wwwAuthenticate: String) -> MSALClaimsRequest? {
        guard let encoded = authParameter("claims", in: wwwAuthenticate) else { return nil }
        var base64 = encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let json = String(data: data, encoding: .utf8) else {
            // Some services send the JSON itself.
            return try? MSALClaimsRequest(jsonString: encoded)
        }
        return try? MSALClaimsRequest(jsonString: json)
    }

    /// The value of `name=value` or `name="value"` among a challenge's auth-params.
    private static func authParameter(_ name: String, in header: String) -> String? {
        var rest = Substring(header)
        while let range = rest.range(of: name + "=", options: .caseInsensitive) {
            let before = rest[rest.startIndex..<range.lowerBound].last
            rest = rest[range.upperBound...]
            guard before == nil || before == " " || before == "," else { continue }
            if rest.first == "\"" {
                let body = rest.dropFirst()
                guard let end = body.firstIndex(of: "\"") else { return nil }
                return String(body[..<end])
            }
            return String(rest.prefix { $0 != "," && $0 != " " })
        }
        return nil
    }
}
