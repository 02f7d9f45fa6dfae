import Foundation
import Testing

@testable import MSAL

/// Href resolution and validation (spec §2.1): relative to the authority's origin, `{tenant}`
/// and `dc` tolerances, and every kind of foreign link refused.
@Suite struct V2LinksTests {
    let links = V2Links(authority: V2Fixture.authority, dc: nil)

    func resolved(_ href: String, dc: String? = nil) throws -> String {
        try V2Links(authority: V2Fixture.authority, dc: dc).resolve(href).absoluteString
    }

    @Test func relativeHrefsKeepPathAndQuery() throws {
        #expect(
            try resolved("/contoso.onmicrosoft.com/api/v2.0/signin/start")
                == "https://contoso.ciamlogin.com/contoso.onmicrosoft.com/api/v2.0/signin/start")
        #expect(try resolved("/other-tenant/api/v2.0/x?a=1&b=2") == "https://contoso.ciamlogin.com/other-tenant/api/v2.0/x?a=1&b=2")
    }

    @Test func absoluteHrefsOnTheAuthorityOriginAreKept() throws {
        #expect(
            try resolved("https://contoso.ciamlogin.com:443/t/api/v2.0/verify") == "https://contoso.ciamlogin.com:443/t/api/v2.0/verify")
        #expect(try resolved("HTTPS://CONTOSO.ciamlogin.com/t/x").hasSuffix("/t/x"))
    }

    @Test func tenantTemplateIsReplaced() throws {
        #expect(
            try resolved("/{tenant}/api/v2.0/auth/methods/email/m1/challenge")
                == "https://contoso.ciamlogin.com/contoso.onmicrosoft.com/api/v2.0/auth/methods/email/m1/challenge")
        #expect(try resolved("{tenant}/api/v2.0/x") == "https://contoso.ciamlogin.com/contoso.onmicrosoft.com/api/v2.0/x")
    }

    @Test func dcIsAppendedOnlyWhenAbsent() throws {
        #expect(try resolved("/t/api/v2.0/x", dc: "DC1") == "https://contoso.ciamlogin.com/t/api/v2.0/x?dc=DC1")
        #expect(try resolved("/t/api/v2.0/x?dc=OWN", dc: "DC1") == "https://contoso.ciamlogin.com/t/api/v2.0/x?dc=OWN")
        #expect(try resolved("/t/api/v2.0/x?a=1", dc: "DC1") == "https://contoso.ciamlogin.com/t/api/v2.0/x?a=1&dc=DC1")
        #expect(try resolved("/t/x?a=b%2Fc+d", dc: "D C") == "https://contoso.ciamlogin.com/t/x?a=b%2Fc+d&dc=D%20C")
    }

    @Test(arguments: [
        "https://evil.example.com/contoso.onmicrosoft.com/api/v2.0/x",
        "https://contoso.ciamlogin.com:8443/t/x",
        "http://contoso.ciamlogin.com/t/x",
        "ftp://contoso.ciamlogin.com/t/x",
        "https://user:pw@contoso.ciamlogin.com/t/x",
        "https://contoso.ciamlogin.com/t/x#frag",
        "/t/x#frag",
        "//evil.example.com/t/x",
        "/t//x",
        "/t/x/",
        "relative/path",
        "",
        "javascript:alert(1)",
        "https://contoso.ciamlogin.com.evil.example.com/t/x",
    ])
    func foreignOrMalformedHrefsAreRefused(href: String) {
        #expect(throws: V2Links.Refusal.self) { try links.resolve(href) }
    }

    @Test func httpOnlyForALoopbackAuthority() throws {
        let loopback = V2Links(authority: URL(string: "http://127.0.0.1:8080/tenant")!, dc: nil)
        #expect(try loopback.resolve("/tenant/api/v2.0/x").absoluteString == "http://127.0.0.1:8080/tenant/api/v2.0/x")
        #expect(throws: V2Links.Refusal.self) { try loopback.resolve("http://127.0.0.1:9090/tenant/x") }
        let plain = V2Links(authority: URL(string: "http://login.example.com/tenant")!, dc: nil)
        #expect(throws: V2Links.Refusal.self) { try plain.resolve("/tenant/x") }
    }
}
