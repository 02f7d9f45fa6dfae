import Foundation
import MSAL
import NativeAuthTesting
import TestSupport

@testable import MSAL

/// Fixed identities and token bodies used across the tests.
enum Fixture {
    static let clientId = "00001111-aaaa-2222-bbbb-3333cccc4444"
    static let username = "ada@contoso.com"
    static let password = "Correct-Horse-9!"
    static let code = "12345678"
    static let uid = "aaaaaaaa-0000-1111-2222-333333333333"
    static let utid = "bbbbbbbb-4444-5555-6666-777777777777"
    static let correlation = UUID(uuidString: "11111111-2222-3333-4444-555555555555")!
    static let echoedCorrelation = UUID(uuidString: "99999999-8888-7777-6666-555555555555")!

    static var clientInfo: String {
        Base64URL.encode(Data(#"{"uid":"\#(uid)","utid":"\#(utid)"}"#.utf8))
    }

    static func idToken(username: String = username, extra: [String: Any] = [:]) -> String {
        let header = Base64URL.encode(Data(#"{"alg":"RS256","kid":"k1","typ":"JWT"}"#.utf8))
        var claims: [String: Any] = [
            "aud": clientId, "iss": "https://\(utid).ciamlogin.com/\(utid)/v2.0", "oid": uid, "sub": "subject-1",
            "tid": utid, "preferred_username": username, "name": "Ada Lovelace", "ver": "2.0",
            "iat": 1_800_000_000, "exp": 1_800_003_600,
        ]
        claims.merge(extra) { _, new in new }
        let payload = Base64URL.encode(try! JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
        return "\(header).\(payload).c2lnbmF0dXJl"
    }

    static func tokenBody(scope: String = "openid profile offline_access", omit: Set<String> = []) -> [String: Any] {
        var body: [String: Any] = [
            "token_type": "Bearer", "scope": scope, "expires_in": 3599, "ext_expires_in": 3599,
            "access_token": "AT-secret-value", "refresh_token": "RT-secret-value", "id_token": idToken(),
            "client_info": clientInfo,
        ]
        for key in omit { body.removeValue(forKey: key) }
        return body
    }

    static func apiError(
        _ error: String, suberror: String? = nil, codes: [Int] = [], description: String? = nil,
        extra: [String: Any] = [:]
    ) -> [String: Any] {
        var body: [String: Any] = [
            "error": error,
            "error_description": description
                ?? "AADSTS\(codes.first ?? 0): \(error). Trace ID: t Correlation ID: c Timestamp: 2026-11-30 10:00:00Z",
            "error_codes": codes, "timestamp": "2026-11-30 10:00:00Z", "trace_id": "trace", "correlation_id": "corr",
        ]
        if let suberror { body["suberror"] = suberror }
        body.merge(extra) { _, new in new }
        return body
    }

    static var oobChallenge: [String: Any] {
        [
            "continuation_token": "T1", "challenge_type": "oob", "binding_method": "prompt", "challenge_channel": "email",
            "challenge_target_label": "a***@co**o.com", "code_length": 8, "interval": 300,
        ]
    }
    static var passwordChallenge: [String: Any] { ["continuation_token": "T1", "challenge_type": "password"] }
}

/// An application wired to a stub transport, a test clock and a log capture.
struct Harness {
    let stub = StubTransport()
    let clock = TestClock()
    let log: LogCapture
    let app: MSALNativeAuthPublicClientApplication

    init(
        challengeTypes: MSALNativeAuthChallengeTypes = [.OOB, .password], pii: Bool = false,
        configure: (MSALNativeAuthPublicClientApplicationConfig) -> Void = { _ in }
    ) throws {
        log = LogCapture(pii: pii)
        let config = try MSALNativeAuthPublicClientApplicationConfig(
            clientId: Fixture.clientId, tenantSubdomain: "contoso", challengeTypes: challengeTypes)
        config.transport = stub
        config.tokenCacheLocation = .inMemory
        config.clientId = Fixture.clientId
        config.loggerConfig = log.config
        config.appName = "msal-tests"
        config.appVersion = "1.2.3"
        configure(config)
        app = try MSALNativeAuthPublicClientApplication(configuration: config, clock: clock, uuid: { Fixture.correlation })
    }

    func signInParameters(password: String? = nil, scopes: [String]? = nil) -> MSALNativeAuthSignInParameters {
        let parameters = MSALNativeAuthSignInParameters(username: Fixture.username)
        parameters.password = password
        parameters.scopes = scopes
        return parameters
    }

    /// initiate → T0, then the given challenge answer.
    func expectStart(challenge: StubTransport.Reply) {
        stub.expect(path: "/oauth2/v2.0/initiate", reply: .json(200, ["continuation_token": "T0"]))
        stub.expect(path: "/oauth2/v2.0/challenge", reply: challenge)
    }

    /// A password sign-in of the account `uid` (at `Fixture.utid`) named `username`, with an access
    /// token for `scope`.
    func signIn(uid: String = Fixture.uid, username: String = Fixture.username, scope: String) async throws
        -> MSALNativeAuthUserAccountResult
    {
        expectStart(challenge: .json(200, Fixture.passwordChallenge))
        var body = Fixture.tokenBody(scope: scope)
        body["client_info"] = Base64URL.encode(Data(#"{"uid":"\#(uid)","utid":"\#(Fixture.utid)"}"#.utf8))
        body["id_token"] = Fixture.idToken(username: username, extra: ["oid": uid])
        stub.expect(path: "/oauth2/v2.0/token", reply: .json(200, body))
        let parameters = MSALNativeAuthSignInParameters(username: username)
        parameters.password = Fixture.password
        guard case .completed(let result) = try await app.signIn(parameters: parameters) else {
            throw UnexpectedOutcome("no sign-in")
        }
        return result
    }

    /// Both sides of a strict stub: nothing unexpected arrived and nothing queued was left.
    var stubProblems: [String] { stub.mismatches + stub.unusedStubs.map { "unused stub: \($0)" } }
}

/// The error `body` throws, as the `NSError` an app catches, or nil when it throws none.
func thrownError(_ body: () throws -> Void) -> NSError? {
    do {
        try body()
        return nil
    } catch {
        return error as NSError
    }
}

extension NSError {
    /// The `MSALError` of an `MSALErrorDomain` error.
    var msalCode: MSALError? { domain == MSALErrorDomain ? MSALError(rawValue: code) : nil }
    /// The `MSALInternalErrorCodeKey` of an `MSALError.internal`.
    var msalInternalCode: MSALInternalError? {
        guard msalCode == .internal, let raw = userInfo[MSALInternalErrorCodeKey] as? Int else { return nil }
        return MSALInternalError(rawValue: raw)
    }
}
