import Foundation
import MSAL
import Testing

@testable import MSAL

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
