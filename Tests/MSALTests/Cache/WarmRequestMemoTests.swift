import Foundation
import Testing

@testable import MSAL

/// What the warm request makes once and hands out again: an account's `MSALAccount` per slice
/// (Sources/MSAL/Cache/CachedAccessToken.swift) and a scope list's `ScopeSet`
/// (Sources/MSAL/Support/ScopeSet.swift); each is the same as made afresh.
@Suite struct WarmRequestMemoTests {
    @Test func anAccountIsMadeOncePerRecordOfTheSameFieldsAndAgainForAnother() {
        let decoded = DecodedIDToken(nil)
        func record(_ username: String?, home: String = "uid.utid") -> CachedAccount {
            CachedAccount(homeAccountId: home, environment: "host", username: username, idToken: nil, lastUsed: 0, decoded: decoded)
        }
        let made = Locked(0)
        func make(_ record: CachedAccount) -> MSALAccount {
            made.withLock { $0 += 1 }
            return MSALAccount(
                username: record.username, identifier: record.homeAccountId, environment: "host", homeAccountId: nil, claims: nil)
        }
        let first = record("a").account(make)
        #expect(record("a").account(make) === first)
        #expect(made.withLock { $0 } == 1)
        #expect(record("b").account(make).username == "b", "another realm's record of another username")
        #expect(record("b", home: "UID.utid").account(make).identifier == "UID.utid")
        #expect(made.withLock { $0 } == 3)
    }

    @Test func aScopeListIsNormalisedAsAfreshPastTheBoundToo() {
        for round in 0..<(ScopeSet.requestedSetsLimit + 10) {
            let list = [" api://x/Read\(round) ", "API://x/read\(round)", "openid"]
            let set = ScopeSet.requested(list)
            let fresh = ScopeSet(Scopes.withDefaults(list))
            #expect(set.scopes == fresh.scopes && set.key == fresh.key && set.resourceScopes == fresh.resourceScopes)
        }
        #expect(ScopeSet.requested(nil).scopes == ScopeSet.requested([]).scopes)
    }
}
