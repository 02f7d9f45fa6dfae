/// A list of scopes read once: the list itself, its resource scopes (lower-cased, the OIDC scopes
/// aside) and their key. The one place that works out which scopes a token is for: a
/// `getAccessToken` request makes one (`requested`) and hands it to the cache look-up, the refresh
/// key, the declined-scope check and the cache writer; the cache makes one per `target` it reads.
package final class ScopeSet: Sendable {
    /// The scopes as given, order and case kept.
    package let scopes: [String]
    /// The scopes that name a resource, lower-cased: every scope but `openid`, `profile` and `offline_access`.
    package let resourceScopes: Set<String>
    /// `resourceScopes` sorted and joined: equal for two lists that ask for the same resources.
    package let key: String

    package init(_ scopes: [String]) {
        self.scopes = scopes
        resourceScopes = Set(scopes.map { $0.lowercased() }).subtracting(Scopes.oidcDefaultsLowercased)
        key = resourceScopes.sorted().joined(separator: " ")
    }

    /// The scopes that name a resource as given (order and case kept): what a result lists.
    package var resourceScopesAsGiven: [String] { Self.resourceScopesAsGiven(scopes) }

    /// `ScopeSet(scopes).resourceScopesAsGiven`, without indexing the scopes first.
    package static func resourceScopesAsGiven(_ scopes: [String]) -> [String] {
        scopes.filter { !Scopes.isOIDC($0) }
    }

    /// A cache entry's `target`: its scopes separated by spaces.
    package convenience init(target: String) {
        self.init(target.split(separator: " ").map(String.init))
    }

    /// What a token request asks for: the app's scopes trimmed, without duplicates, followed by
    /// the OIDC defaults (`Scopes.withDefaults`).
    package static func requested(_ appScopes: [String]?) -> ScopeSet {
        let key = appScopes ?? []
        if let known = requestedSets.withLock({ $0[key] }) { return known }
        let made = ScopeSet(Scopes.withDefaults(appScopes))
        requestedSets.withLock { sets in
            if sets.count >= requestedSetsLimit { sets.removeAll() }
            sets[key] = made
        }
        return made
    }

    /// The sets `requested` made, by the app's list: a backend asks for the same few lists on every
    /// request, and normalising one costs more than the rest of a cached look-up. Immutable, so shared.
    private static let requestedSets = Locked<[[String]: ScopeSet]>([:])
    /// Bounds `requestedSets`: an app asking for ever new lists does not grow it without end.
    static let requestedSetsLimit = 256

    /// The resource scopes of this request that `granted` does not cover, as the app wrote them
    /// (a `…/.default` is covered by any scope of its resource, `Scopes.covers`).
    package func declined(by granted: ScopeSet) -> [String] {
        scopes.filter { scope in
            let lowercased = scope.lowercased()
            return resourceScopes.contains(lowercased) && !Scopes.covers(granted.resourceScopes, lowercased)
        }
    }
}
