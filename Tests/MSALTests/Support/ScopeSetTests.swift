import Foundation
import Testing

@testable import MSAL

/// `ScopeSet`, the one place that works out which scopes a token is for: what a request asks, its
/// resource scopes and their key, and which of them a grant declined.
@Suite struct ScopeSetTests {
    @Test func aRequestAddsTheOIDCScopesOnceAndItsResourceScopesLeaveThemOut() {
        let request = ScopeSet.requested(["  API://Contoso/Read ", "OpenID", "api://contoso/read", "api://contoso/Write"])
        #expect(request.scopes == ["API://Contoso/Read", "OpenID", "api://contoso/Write", "profile", "offline_access"])
        #expect(request.resourceScopes == ["api://contoso/read", "api://contoso/write"])
        #expect(request.key == "api://contoso/read api://contoso/write")
        let oidcOnly = ScopeSet.requested(nil)
        #expect(oidcOnly.scopes == Scopes.oidcDefaults && oidcOnly.resourceScopes.isEmpty && oidcOnly.key.isEmpty)
    }

    @Test func theKeyIsTheSameForTheSameResourcesInAnyOrderOrCase() {
        let asked = ScopeSet(["api://b/Write", "API://a/Read", "openid"])
        let cached = ScopeSet(target: "api://a/read offline_access api://B/write")
        #expect(asked.key == cached.key && asked.key == "api://a/read api://b/write")
        #expect(ScopeSet(target: "openid profile").key != ScopeSet(target: "api://a/read").key)
    }

    @Test func declinedScopesAreTheResourceScopesNoGrantCoversAsTheAppWroteThem() {
        let request = ScopeSet.requested(["api://x/Read", "API://y/.default"])
        #expect(
            request.declined(by: ScopeSet(["api://x/read", "api://y/Thing"])).isEmpty, "a .default is covered by any scope of its resource")
        #expect(request.declined(by: ScopeSet(["profile"])) == ["api://x/Read", "API://y/.default"], "the OIDC scopes are never declined")
        #expect(request.declined(by: ScopeSet(["api://x/Read"])) == ["API://y/.default"])
    }
}
