import Foundation

/// A signed-in user. Mirrors MSAL's `MSALAccount`.
public final class MSALAccount: Sendable, CustomStringConvertible {
    /// The user's sign-in name (`preferred_username` of the id token, the email for External ID).
    public let username: String?
    /// The home account id, `uid.utid` from the token response's `client_info`.
    public let identifier: String?
    /// The authority host the account belongs to.
    public let environment: String
    /// The parts of the home account id.
    public let homeAccountId: MSALAccountId?
    private let claims: [String: JSONValue]?

    package init(username: String?, identifier: String?, environment: String, homeAccountId: MSALAccountId?, claims: [String: JSONValue]?) {
        self.username = username
        self.identifier = identifier
        self.environment = environment
        self.homeAccountId = homeAccountId
        self.claims = claims
    }

    /// The id token's claims, as `JSONSerialization` would produce them.
    public var accountClaims: [String: Any]? {
        claims?.mapValues(\.foundationValue)
    }

    package var jsonClaims: [String: JSONValue]? { claims }

    /// The account's profiles in the tenants it has tokens for: here, its home tenant's.
    public var tenantProfiles: [MSALTenantProfile]? {
        guard let homeAccountId else { return nil }
        return [
            MSALTenantProfile(
                identifier: homeAccountId.objectId, tenantId: homeAccountId.tenantId, environment: environment, isHomeTenantProfile: true,
                claims: claims)
        ]
    }

    /// Always false: there is no device-wide SSO extension on Linux.
    public var isSSOAccount: Bool { false }

    /// The identifier and the environment only: the username is personal data and stays out of logs.
    public var description: String {
        // The username is personal data: only the opaque identifier is shown.
        "MSALAccount(identifier: \(identifier ?? "nil"), environment: \(environment))"
    }
}

/// The parts of a home account id. Mirrors MSAL's `MSALAccountId`.
public struct MSALAccountId: Sendable, Equatable {
    /// `objectId.tenantId`.
    public let identifier: String
    /// The user's object id in the home tenant (`uid` of `client_info`).
    public let objectId: String
    /// The home tenant's id (`utid` of `client_info`).
    public let tenantId: String

    /// Puts an account id together from its parts; `identifier` is normally `objectId.tenantId`.
    public init(identifier: String, objectId: String, tenantId: String) {
        self.identifier = identifier
        self.objectId = objectId
        self.tenantId = tenantId
    }
}
