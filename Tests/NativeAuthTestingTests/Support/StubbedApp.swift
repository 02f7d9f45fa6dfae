import Foundation
import MSAL
import NativeAuthTesting
import Testing

/// An application configured with a stub transport, and the answers a sign-in needs.
enum StubbedApp {
    static let clientId = "00001111-aaaa-2222-bbbb-3333cccc4444"
    static let username = "ada@contoso.com"
    static let password = "Correct-Horse-9!"

    static func make(_ stub: StubTransport) throws -> MSALNativeAuthPublicClientApplication {
        let config = try MSALNativeAuthPublicClientApplicationConfig(
            clientId: clientId, tenantSubdomain: "contoso", challengeTypes: [.OOB, .password])
        config.transport = stub
        config.tokenCacheLocation = .inMemory
        return try MSALNativeAuthPublicClientApplication(nativeAuthConfiguration: config)
    }

    static func base64URL(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The service's answer to an unknown username.
    static var userNotFound: [String: Any] {
        [
            "error": "user_not_found", "error_description": "AADSTS50034: no such user", "error_codes": [50034],
            "timestamp": "2026-11-30 10:00:00Z", "trace_id": "trace", "correlation_id": "corr",
        ]
    }

    static var tokenBody: [String: Any] {
        let uid = "aaaaaaaa-0000-1111-2222-333333333333"
        let utid = "bbbbbbbb-4444-5555-6666-777777777777"
        let idToken = [
            base64URL(["alg": "RS256", "kid": "k1", "typ": "JWT"]),
            base64URL([
                "aud": clientId, "iss": "https://\(utid).ciamlogin.com/\(utid)/v2.0", "oid": uid, "sub": "subject-1", "tid": utid,
                "preferred_username": username, "ver": "2.0", "iat": 1_800_000_000, "exp": 1_800_003_600,
            ]),
            "c2lnbmF0dXJl",
        ].joined(separator: ".")
        return [
            "token_type": "Bearer", "scope": "openid profile offline_access", "expires_in": 3599, "ext_expires_in": 3599,
            "access_token": "AT-secret-value", "refresh_token": "RT-secret-value", "id_token": idToken,
            "client_info": base64URL(["uid": uid, "utid": utid]),
        ]
    }
}
