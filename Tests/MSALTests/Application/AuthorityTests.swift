import Foundation
import MSAL
import Testing

@testable import MSAL

@Suite struct AuthorityTests {
    @Test func subdomainBuildsTheLongForm() throws {
        let config = try MSALNativeAuthPublicClientApplicationConfig(clientId: "id", tenantSubdomain: "contoso", challengeTypes: [.OOB])
        #expect(config.authority.url.absoluteString == "https://contoso.ciamlogin.com/contoso.onmicrosoft.com")
    }

    @Test(arguments: [
        ("https://contoso.ciamlogin.com", "https://contoso.ciamlogin.com/contoso.onmicrosoft.com"),
        ("https://contoso.ciamlogin.com/", "https://contoso.ciamlogin.com/contoso.onmicrosoft.com"),
        ("https://contoso.ciamlogin.com/contoso.onmicrosoft.com", "https://contoso.ciamlogin.com/contoso.onmicrosoft.com"),
        (
            "https://contoso.ciamlogin.com/aaaabbbb-0000-cccc-1111-dddd2222eeee",
            "https://contoso.ciamlogin.com/aaaabbbb-0000-cccc-1111-dddd2222eeee"
        ),
        (
            "https://login.contoso.com/aaaabbbb-0000-cccc-1111-dddd2222eeee/?x=1#frag",
            "https://login.contoso.com/aaaabbbb-0000-cccc-1111-dddd2222eeee"
        ),
        ("HTTPS://Contoso.CIAMLogin.com", "https://Contoso.CIAMLogin.com/contoso.onmicrosoft.com"),
        ("http://127.0.0.1:8080/tenant", "http://127.0.0.1:8080/tenant"),
        ("http://localhost:1234/t/", "http://localhost:1234/t"),
        ("http://[::1]:99/t", "http://[::1]:99/t"),
        ("http://127.1.2.3/t", "http://127.1.2.3/t"),
    ])
    func acceptedForms(input: String, normalised: String) throws {
        let authority = try MSALCIAMAuthority(url: try #require(URL(string: input)))
        #expect(authority.url.absoluteString == normalised)
    }

    @Test(arguments: [
        "http://contoso.ciamlogin.com", "http://192.168.1.10/t", "http://128.0.0.1/t", "http://127.0.0.1.evil.com/t",
        "ftp://contoso.ciamlogin.com", "https:///nohost", "contoso.ciamlogin.com", "https://user:pw@contoso.ciamlogin.com",
        "http://10.0.0.1/t",
    ])
    func rejectedForms(input: String) throws {
        let url = try #require(URL(string: input))
        #expect(thrownError { _ = try MSALCIAMAuthority(url: url) }?.msalInternalCode == .internalErrorInvalidParameter)
    }

    @Test(arguments: [
        ("https://contoso.ciamlogin.com", "https://contoso.ciamlogin.com/contoso.onmicrosoft.com"),
        ("https://contoso.ciamlogin.com/contoso.onmicrosoft.com/extra/?x=1", "https://contoso.ciamlogin.com/contoso.onmicrosoft.com"),
        (
            "https://contoso.ciamlogin.com/aaaabbbb-0000-cccc-1111-dddd2222eeee/",
            "https://contoso.ciamlogin.com/aaaabbbb-0000-cccc-1111-dddd2222eeee"
        ),
    ])
    func validatedFormKeepsTheTenant(input: String, normalised: String) throws {
        let authority = try MSALCIAMAuthority(url: try #require(URL(string: input)), validateFormat: true)
        #expect(authority.url.absoluteString == normalised)
    }

    @Test(arguments: [
        "https://login.contoso.com/aaaabbbb-0000-cccc-1111-dddd2222eeee", "https://ciamlogin.com/t", "https://contoso.login.com/t",
        "http://127.0.0.1:8080/tenant",
    ])
    func validatedFormRefusesOtherHostsThatTheUncheckedFormTakes(input: String) throws {
        let url = try #require(URL(string: input))
        #expect(
            thrownError { _ = try MSALCIAMAuthority(url: url, validateFormat: true) }?.msalInternalCode == .internalErrorInvalidParameter)
        let unchecked = try MSALCIAMAuthority(url: url, validateFormat: false)
        #expect(unchecked.url == (try MSALCIAMAuthority(url: url)).url, "init(url:) checks no format, as in MSAL")
    }

    @Test(arguments: ["", "-bad", "bad-", "has space", "dots.not.allowed", "ünïcode", String(repeating: "a", count: 64)])
    func invalidSubdomains(subdomain: String) {
        #expect(thrownError { _ = try MSALCIAMAuthority(tenantSubdomain: subdomain) }?.msalInternalCode == .internalErrorInvalidParameter)
    }

    @Test func loopbackDetection() {
        for host in ["localhost", "127.0.0.1", "127.255.255.254", "::1", "[::1]", "app.localhost"] {
            #expect(MSALCIAMAuthority.isLoopback(host), "\(host)")
        }
        for host in ["localhost.com", "127.0.0", "127.0.0.256", "1.2.3.4", "::2", "example.com"] {
            #expect(!MSALCIAMAuthority.isLoopback(host), "\(host)")
        }
    }
}
