import Foundation
import MSAL
import Testing

@testable import MSAL

@Suite struct CorrelationIDTests {
    @Test func idsAreUniqueVersion4UUIDs() {
        let ids = (0..<10_000).map { _ in CorrelationID.next() }
        #expect(Set(ids).count == ids.count)
        for id in ids.prefix(100) {
            let text = id.uuidString
            #expect(Array(text)[14] == "4", "version nibble")
            #expect("89AB".contains(Array(text)[19]), "variant")
        }
    }

    @Test func scopesAreTrimmedWithoutFoundation() {
        #expect(Scopes.withDefaults(["  api://a/R \t", "api://a/R"]) == ["api://a/R", "openid", "profile", "offline_access"])
    }
}
