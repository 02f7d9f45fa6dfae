import Foundation

/// The tokens of a successful `acquireToken` or `acquireTokenSilent`. Mirrors MSAL's `MSALResult`.
public final class MSALResult: Sendable {
    /// The access token; `""` when the response had none.
    public let accessToken: String
    /// When the access token expires.
    public let expiresOn: Date?
    /// Always false: extended-lifetime tokens are not used.
    public let extendedLifeTimeToken: Bool
    /// The raw id token (a JWT), when there is one.
    public let idToken: String?
    /// The scopes the access token is valid for.
    public let scopes: [String]
    /// The account's profile in the tenant that issued the tokens.
    public let tenantProfile: MSALTenantProfile
    /// The signed-in account; pass it in `MSALSilentTokenParameters` for later tokens without the user.
    public let account: MSALAccount
    /// The authority that issued the tokens; use it for later silent calls.
    public let authority: MSALAuthority
    /// The correlation id of the call, for logs and for support requests.
    public let correlationId: UUID
    /// `Bearer`.
    public let authenticationScheme: String

    package init(
        accessToken: String, expiresOn: Date?, idToken: String?, scopes: [String], tenantProfile: MSALTenantProfile, account: MSALAccount,
        authority: MSALAuthority, correlationId: UUID
    ) {
        self.accessToken = accessToken
        self.expiresOn = expiresOn
        extendedLifeTimeToken = false
        self.idToken = idToken
        self.scopes = scopes
        self.tenantProfile = tenantProfile
        self.account = account
        self.authority = authority
        self.correlationId = correlationId
        authenticationScheme = "Bearer"
    }

    /// The `Authorization` header value: `Bearer <token>`, or `""` without an access token.
    public var authorizationHeader: String { accessToken.isEmpty ? "" : "\(authenticationScheme) \(accessToken)" }
}

/// An account's profile in one tenant. Mirrors MSAL's `MSALTenantProfile`.
public final class MSALTenantProfile: Sendable {
    /// The user's object id in that tenant (`oid`).
    public let identifier: String
    /// The tenant id (`tid`).
    public let tenantId: String
    /// The authority host the profile belongs to, for example `login.microsoftonline.com`.
    public let environment: String
    /// Whether this is the account's home tenant. Always true here: the SDK only makes home-tenant profiles.
    public let isHomeTenantProfile: Bool
    private let jsonClaims: [String: JSONValue]?

    package init(identifier: String, tenantId: String, environment: String, isHomeTenantProfile: Bool, claims: [String: JSONValue]?) {
        self.identifier = identifier
        self.tenantId = tenantId
        self.environment = environment
        self.isHomeTenantProfile = isHomeTenantProfile
        jsonClaims = claims
    }

    /// The id token's claims.
    public var claims: [String: Any]? { jsonClaims?.mapValues(\.foundationValue) }
}

/// Receives the result or the error of a token call, exactly once. Not `@Sendable`, as in MSAL's
/// Swift surface (the error-handling guide captures a `var` holding the block itself).
public typealias MSALCompletionBlock = (MSALResult?, (any Error)?) -> Void
/// Receives the accounts or the error of an account look-up.
public typealias MSALAccountsCompletionBlock = ([MSALAccount]?, (any Error)?) -> Void
/// Receives whether the sign-out reached the browser, or the error.
public typealias MSALSignoutCompletionBlock = (Bool, (any Error)?) -> Void
/// Receives the current and previous account, or the error.
public typealias MSALCurrentAccountCompletionBlock = (MSALAccount?, MSALAccount?, (any Error)?) -> Void

/// A completion block on its way to the queue it runs on. The block is not Sendable (MSAL's
/// signature); it is called exactly once, on that one queue.
struct CompletionDelivery<Block>: @unchecked Sendable {
    let block: Block
    let queue: DispatchQueue

    init(_ block: Block, queue: DispatchQueue?) {
        self.block = block
        self.queue = queue ?? completionQueue
    }
}

extension CompletionDelivery where Block == MSALCompletionBlock {
    /// Runs `work` in a task and hands its outcome to the block, once, on the block's queue.
    func run(_ work: @escaping @Sendable () async -> Result<MSALResult, NSError>) {
        Task {
            let result = await work()
            queue.async {
                switch result {
                case .success(let value): block(value, nil)
                case .failure(let error): block(nil, error)
                }
            }
        }
    }
}

extension Result where Failure == NSError {
    /// `flatMap` with an asynchronous transform: a request that failed its checks skips the work.
    func then<T>(_ transform: (Success) async -> Result<T, NSError>) async -> Result<T, NSError> {
        switch self {
        case .success(let value): await transform(value)
        case .failure(let error): .failure(error)
        }
    }
}

/// Where completion blocks run when the parameters name no queue.
private let completionQueue = DispatchQueue(label: "msal.completion")
