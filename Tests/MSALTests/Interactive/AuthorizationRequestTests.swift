import Foundation
import Testing

@testable import MSAL

/// The authorize URL (docs/error-mapping.md#authorize-request): exact text for a fixed input, encoding, scopes and refusals.
@Suite struct AuthorizationRequestTests {
    private static let secrets = AuthorizationSecrets(
        pkce: PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"), state: "c3RhdGUtZml4ZWQ", nonce: "bm9uY2UtZml4ZWQ")
    private static let correlationId = UUID(uuidString: "6F1A4C52-2C34-4F1B-9E0C-3B1D2A7F8E90")!

    private func request(scopes: [String] = ["User.Read"]) -> AuthorizationRequest {
        AuthorizationRequest(
            authorizeEndpoint: AuthorizationRequest.authorizeEndpoint(
                authority: URL(string: "https://login.microsoftonline.com/contoso.onmicrosoft.com")!),
            clientId: "00000000-0000-0000-0000-0000000000c1", redirectURI: "http://localhost:43123", scopes: scopes,
            secrets: Self.secrets, correlationId: Self.correlationId)
    }

    /// The query of `url` decoded as a form (`+` is a space), in order.
    private func query(_ url: URL) throws -> [(String, String)] {
        let text = try #require(url.absoluteString.split(separator: "?", maxSplits: 1).last)
        return try #require(FormEncoding.decode(Data(text.utf8)))
    }

    private func value(_ name: String, in url: URL) throws -> String? {
        try query(url).first { $0.0 == name }?.1
    }

    @Test func goldenURLForAFixedInput() throws {
        var request = request(scopes: ["User.Read", "Mail.Send"])
        request.extraScopesToConsent = ["Calendars.Read"]
        request.loginHint = "ada+test@contoso.com"
        request.domainHint = "contoso.com"
        request.claims = #"{"access_token":{"xms_cc":{"values":["cp1"]}}}"#
        request.appName = "Demo App"
        request.appVersion = "1.2"
        request.extraQueryParameters = ["slice": "testslice", "dc": "ESTS-PUB-WUS2-AZ1-FD000-TEST1"]
        let os = NativeAuthClient.operatingSystemVersion
        let expected =
            "https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/authorize"
            + "?client_id=00000000-0000-0000-0000-0000000000c1"
            + "&response_type=code"
            + "&redirect_uri=http%3A%2F%2Flocalhost%3A43123"
            + "&scope=User.Read+Mail.Send+openid+profile+offline_access+Calendars.Read"
            + "&state=c3RhdGUtZml4ZWQ"
            + "&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
            + "&code_challenge_method=S256"
            + "&client_info=1"
            + "&prompt=select_account"
            + "&login_hint=ada%2Btest%40contoso.com"
            + "&domain_hint=contoso.com"
            + "&claims=%7B%22access_token%22%3A%7B%22xms_cc%22%3A%7B%22values%22%3A%5B%22cp1%22%5D%7D%7D%7D"
            + "&nonce=bm9uY2UtZml4ZWQ"
            + "&client-request-id=6F1A4C52-2C34-4F1B-9E0C-3B1D2A7F8E90"
            + "&return-client-request-id=true"
            + "&x-client-SKU=MSAL.Swift.Linux"
            + "&x-client-Ver=\(MSALNativeAuthSDK.version)"
            + "&x-client-OS=\(os)"
            + "&x-client-CPU=64"
            + "&x-app-name=Demo+App"
            + "&x-app-ver=1.2"
            + "&dc=ESTS-PUB-WUS2-AZ1-FD000-TEST1"
            + "&slice=testslice"
        #expect(try request.url().absoluteString == expected)
    }

    @Test func minimalRequestSendsNoOptionalParameters() throws {
        var request = request()
        request.prompt = .promptIfNecessary
        let names = try query(request.url()).map(\.0)
        #expect(
            names == [
                "client_id", "response_type", "redirect_uri", "scope", "state", "code_challenge", "code_challenge_method", "client_info",
                "nonce", "client-request-id", "return-client-request-id", "x-client-SKU", "x-client-Ver", "x-client-OS", "x-client-CPU",
            ])
    }

    @Test func promptValues() throws {
        let cases: [(MSALPromptType, String?)] = [
            (.selectAccount, "select_account"), (.login, "login"), (.consent, "consent"), (.create, "create"), (.promptIfNecessary, nil),
        ]
        for (prompt, wire) in cases {
            var request = request()
            request.prompt = prompt
            #expect(try value("prompt", in: request.url()) == wire)
        }
    }

    @Test func reservedCharactersInValuesSurvive() throws {
        var request = request()
        let tricky = "a+b&c=d;e f%20g#h?i/é"
        request.loginHint = tricky
        request.extraQueryParameters = ["x-tricky": tricky]
        let url = try request.url()
        #expect(url.absoluteString.contains("login_hint=a%2Bb%26c%3Dd%3Be+f%2520g%23h%3Fi%2F%C3%A9&"))
        #expect(try value("login_hint", in: url) == tricky)
        #expect(try value("x-tricky", in: url) == tricky)
        #expect(url.fragment == nil)
    }

    @Test func scopesAreDeduplicatedIgnoringCaseInOrder() {
        var request = request(scopes: ["Mail.Read", " openid ", "mail.read", ""])
        request.extraScopesToConsent = ["User.Read", "OFFLINE_ACCESS", "Calendars.Read", "user.read"]
        #expect(request.scope == ["Mail.Read", "openid", "profile", "offline_access", "User.Read", "Calendars.Read"])
    }

    @Test func claimsInBothPlacesIsAnInvalidParameter() {
        var request = request()
        request.claims = #"{"id_token":{}}"#
        request.extraQueryParameters = ["claims": #"{"access_token":{}}"#]
        #expect {
            try request.url()
        } throws: { error in
            guard let error = error as? InteractiveAuthorizationError, case .invalidParameter(let message) = error else { return false }
            return error.internalErrorCode == -42_000 && message.contains("claims")
        }
    }

    @Test func claimsOnlyInExtraParametersIsPassedThrough() throws {
        var request = request()
        request.extraQueryParameters = ["claims": #"{"id_token":{}}"#]
        #expect(try value("claims", in: request.url()) == #"{"id_token":{}}"#)
    }

    @Test func extraParameterCannotReplaceStateOrRedirect() {
        for name in ["state", "redirect_uri", "Client_Id", "code_challenge"] {
            var request = request()
            request.extraQueryParameters = [name: "evil"]
            #expect(throws: InteractiveAuthorizationError.self) { try request.url() }
        }
    }

    @Test func extraParameterMayAddAPromptWhenNoneIsSent() throws {
        var request = request()
        request.prompt = .promptIfNecessary
        request.extraQueryParameters = ["prompt": "none"]
        #expect(try value("prompt", in: request.url()) == "none")
    }

    @Test func endpointKeepsItsOwnQueryFirst() throws {
        var request = request()
        request.authorizeEndpoint = URL(string: "https://login.example/t/oauth2/v2.0/authorize?dc=X1")!
        let url = try request.url()
        #expect(url.absoluteString.hasPrefix("https://login.example/t/oauth2/v2.0/authorize?dc=X1&client_id="))
    }

    @Test func authorizeEndpointFromAuthority() {
        let endpoint = AuthorizationRequest.authorizeEndpoint(
            authority: URL(string: "https://contoso.ciamlogin.com/contoso.onmicrosoft.com/")!)
        #expect(endpoint.absoluteString == "https://contoso.ciamlogin.com/contoso.onmicrosoft.com/oauth2/v2.0/authorize")
    }
}
