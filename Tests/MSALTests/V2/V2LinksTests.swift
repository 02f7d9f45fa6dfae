import Foundation
import Testing

@testable import MSAL

/// Href resolution and validation (docs/decisions.md#v2-links): relative to the authority's origin,
/// the `{tenant}` tolerance, the query kept as given, and every kind of foreign link refused.
@Suite struct V2LinksTests {
    let links = V2Links(authority: V2Fixture.authority)

    func resolved(_ href: String) throws -> String {
        try links.resolve(href).absoluteString
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

    /// As MSAL 2.19.2: the server's links are followed as given, their query included; the SDK adds
    /// no `dc` of its own to them (the configured slice goes only on the URLs it builds).
    @Test func linksKeepTheirQueryAsGivenAndGetNoDc() throws {
        #expect(try resolved("/t/api/v2.0/x") == "https://contoso.ciamlogin.com/t/api/v2.0/x")
        #expect(try resolved("/t/api/v2.0/x?dc=OWN") == "https://contoso.ciamlogin.com/t/api/v2.0/x?dc=OWN")
        #expect(try resolved("/t/x?a=b%2Fc+d&b=") == "https://contoso.ciamlogin.com/t/x?a=b%2Fc+d&b=")
        #expect(
            try resolved("https://contoso.ciamlogin.com/tenant-id/oauth2/v2.0/authorize-challenge?session=s1")
                == "https://contoso.ciamlogin.com/tenant-id/oauth2/v2.0/authorize-challenge?session=s1")
    }

    /// Only the authority's host itself: a host that merely ends with it, or adds a label in front of
    /// it, is another host.
    @Test(arguments: [
        "https://evilcontoso.ciamlogin.com/t/x",
        "https://a.contoso.ciamlogin.com/t/x",
        "https://xcontoso.ciamlogin.com/contoso.onmicrosoft.com/api/v2.0/signin/start",
        "https://contoso.ciamlogin.co/t/x",
        "https://ciamlogin.com/t/x",
    ])
    func aHostThatOnlyResemblesTheAuthorityIsRefused(href: String) {
        #expect(throws: V2Links.Refusal.self) { try links.resolve(href) }
        #expect(throws: V2Links.Refusal.self) { try links.check(absolute: href) }
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
        let loopback = V2Links(authority: URL(string: "http://127.0.0.1:8080/tenant")!)
        #expect(try loopback.resolve("/tenant/api/v2.0/x").absoluteString == "http://127.0.0.1:8080/tenant/api/v2.0/x")
        #expect(throws: V2Links.Refusal.self) { try loopback.resolve("http://127.0.0.1:9090/tenant/x") }
        let plain = V2Links(authority: URL(string: "http://login.example.com/tenant")!)
        #expect(throws: V2Links.Refusal.self) { try plain.resolve("/tenant/x") }
    }
}
