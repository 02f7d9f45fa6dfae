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

@Suite struct ApplicationConfigurationTests {
    @Test(arguments: ["", "   ", "\n"])
    func emptyClientIdIsRejectedAtConstruction(clientId: String) throws {
        let config = try MSALNativeAuthPublicClientApplicationConfig(clientId: clientId, tenantSubdomain: "contoso", challengeTypes: [.OOB])
        let error = try #require(thrownError { _ = try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config) })
        #expect(error.msalInternalCode == .internalErrorInvalidParameter)
        #expect(error.localizedDescription.contains("clientId"))
        #expect((error.userInfo[MSALErrorDescriptionKey] as? String)?.contains("clientId") == true)
    }

    @Test func nonPositiveTimeoutIsRejected() throws {
        let config = try MSALNativeAuthPublicClientApplicationConfig(clientId: "id", tenantSubdomain: "contoso", challengeTypes: [.OOB])
        config.requestTimeout = 0
        #expect(
            thrownError { _ = try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config) }?.msalInternalCode
                == .internalErrorInvalidParameter)
    }

    @Test func validConfigurationBuilds() throws {
        let config = MSALNativeAuthPublicClientApplicationConfig(
            clientId: "id", authority: try MSALCIAMAuthority(url: URL(string: "http://127.0.0.1:9/t")!), challengeTypes: [.password])
        config.tokenCacheLocation = .inMemory
        _ = try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
    }

    @Test func challengeTypesOnTheWire() {
        #expect(MSALNativeAuthChallengeTypes().wireValue == "redirect")
        #expect(MSALNativeAuthChallengeTypes.OOB.wireValue == "oob redirect")
        #expect(MSALNativeAuthChallengeTypes.password.wireValue == "password redirect")
        #expect(MSALNativeAuthChallengeTypes([.password, .OOB]).wireValue == "oob password redirect")
    }

    @Test func capabilitiesOnTheWire() {
        #expect(MSALNativeAuthCapabilities().wireValue == nil)
        #expect(MSALNativeAuthCapabilities.mfaRequired.wireValue == "mfa_required")
        #expect(MSALNativeAuthCapabilities([.registrationRequired, .mfaRequired]).wireValue == "mfa_required registration_required")
    }

    @Test func scopesGetDefaultsAppendedWithoutDuplicates() {
        #expect(Scopes.withDefaults(nil) == ["openid", "profile", "offline_access"])
        #expect(Scopes.withDefaults(["User.Read"]) == ["User.Read", "openid", "profile", "offline_access"])
        #expect(Scopes.withDefaults(["profile", "api://a/x", "api://a/x", " "]) == ["profile", "api://a/x", "openid", "offline_access"])
    }

    @Test func interceptorHeaderNameRules() {
        #expect(HeaderInterceptor.isAllowedHeaderName("x-contoso"))
        for name in ["x-ms-a", "X-Client-SKU", "x-broker-z", "x-app-name", "authorization", "x-", "x-a b", "x-é"] {
            #expect(!HeaderInterceptor.isAllowedHeaderName(name), "\(name)")
        }
    }

    @Test func aSilentInterceptorDoesNotHangTheRequest() async throws {
        let clock = TestClock()
        let log = LogCapture()
        let headers = await SilentInterceptor().headers(for: URL(string: "https://x")!, clock: clock, logger: log.config)
        #expect(headers.isEmpty)
        #expect(clock.sleeps == [5])
        #expect(log.text.contains("did not call its completion block"))
    }
}

final class SilentInterceptor: MSALNativeAuthRequestInterceptor {
    func addAdditionalHeaderFields(_ requestUrl: URL?, completionBlock: @escaping @Sendable ([String: String]?) -> Void) {}
}

@Suite struct EncodingTests {
    @Test func formEncodingMatchesTheSpec() {
        let body = FormEncoding.encode([
            ("challenge_type", "oob password redirect"), ("absent", nil), ("username", "a+b@c.com"),
            ("attributes", #"{"city":"Zürich"}"#), ("safe", "A-z_0.9~"),
        ])
        #expect(
            String(decoding: body, as: UTF8.self)
                == "challenge_type=oob+password+redirect&username=a%2Bb%40c.com&attributes=%7B%22city%22%3A%22Z%C3%BCrich%22%7D&safe=A-z_0.9~"
        )
    }

    @Test func formDecodingAcceptsBothSpaces() throws {
        let fields = try #require(FormEncoding.decode(Data("a=x+y&b=x%20y&c=&d&e=%C3%BC".utf8)))
        #expect(fields.map(\.0) == ["a", "b", "c", "d", "e"])
        #expect(fields.map(\.1) == ["x y", "x y", "", "", "ü"])
    }

    @Test(arguments: ["a=%ZZ", "a=%4", "a=%FF%FE"])
    func malformedFormIsRejected(body: String) {
        #expect(FormEncoding.decode(Data(body.utf8)) == nil)
    }

    @Test func base64URLRoundTripWithAndWithoutPadding() {
        let data = Data([0xfb, 0xff, 0x00, 0x10])
        let encoded = Base64URL.encode(data)
        #expect(encoded == "-_8AEA")
        #expect(Base64URL.decode(encoded) == data)
        #expect(Base64URL.decode("-_8AEA==") == data)
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("a.b") == nil)
    }

    @Test func clientInfoDecoding() throws {
        let info = try ClientInfo(encoded: Fixture.clientInfo)
        #expect(info.homeAccountId == "\(Fixture.uid).\(Fixture.utid)")
        #expect(throws: NativeAuthDecodingError.self) { try ClientInfo(encoded: Base64URL.encode(Data("[]".utf8))) }
        #expect(throws: NativeAuthDecodingError.self) { try ClientInfo(encoded: Base64URL.encode(Data(#"{"uid":"","utid":"x"}"#.utf8))) }
    }

    @Test func idTokenClaimsAreMergedAndTyped() throws {
        let token = try IDToken(raw: Fixture.idToken(extra: ["email_verified": true, "roles": ["a", "b"], "age": 42]))
        #expect(token.username == Fixture.username)
        #expect(token.objectId == Fixture.uid)
        #expect(token.claims["alg"] == .string("RS256"))
        #expect(token.claims["email_verified"] == .bool(true))
        #expect(token.claims["age"] == .number(42))
        let account = MSALAccount(username: nil, identifier: nil, environment: "e", homeAccountId: nil, claims: token.claims)
        #expect(account.accountClaims?["email_verified"] as? Bool == true)
        #expect(account.accountClaims?["age"] as? Int == 42)
        #expect(account.accountClaims?["roles"] as? [String] == ["a", "b"])
    }

    @Test func idTokenWithoutPreferredUsernameFallsBackToSub() throws {
        let header = Base64URL.encode(Data(#"{"alg":"none"}"#.utf8))
        let payload = Base64URL.encode(Data(#"{"sub":"s1"}"#.utf8))
        let token = try IDToken(raw: "\(header).\(payload).")
        #expect(token.username == "s1" && token.objectId == "s1")
    }

    @Test func claimsRequestRejectsNonObjects() {
        #expect(thrownError { _ = try MSALClaimsRequest(jsonString: "[1]") }?.msalInternalCode == .internalErrorInvalidParameter)
        #expect(thrownError { _ = try MSALClaimsRequest(jsonString: "{") }?.msalInternalCode == .internalErrorInvalidParameter)
    }
}

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
