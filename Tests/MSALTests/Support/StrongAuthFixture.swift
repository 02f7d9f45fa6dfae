import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// Stub answers of the MFA and strong-auth registration endpoints (docs/protocol.md#sign-in-endpoints, #registration-endpoints,
/// #multifactor-authentication, #strong-auth-registration).
enum StrongAuthFixture {
    static let phone = "+15550100"
    static let backupEmail = "ada.backup@contoso.org"

    static func mfaRequired(token: String = "Tm") -> StubTransport.Reply {
        .json(400, Fixture.apiError("invalid_grant", suberror: "mfa_required", codes: [50076], extra: ["continuation_token": token]))
    }
    static func registrationRequired(token: String = "Tr") -> StubTransport.Reply {
        .json(
            400, Fixture.apiError("invalid_grant", suberror: "registration_required", codes: [50079], extra: ["continuation_token": token]))
    }
    static var mfaIntrospect: StubTransport.Reply {
        .json(
            200,
            [
                "continuation_token": "Ti",
                "methods": [
                    ["id": "m-email", "challenge_type": "oob", "challenge_channel": "email", "login_hint": "a***p@co*****o.org"],
                    ["id": "m-sms", "challenge_type": "oob", "challenge_channel": "sms", "login_hint": "+*******0100"],
                ],
            ])
    }
    static var registerIntrospect: StubTransport.Reply {
        .json(
            200,
            [
                "continuation_token": "Tj",
                "methods": [
                    ["id": "email", "challenge_type": "oob", "challenge_channel": "email", "login_hint": "a***@co**o.com"],
                    ["id": "sms", "challenge_type": "oob", "challenge_channel": "sms"],
                ],
            ])
    }
    static func mfaChallenge(token: String = "Tc", channel: String = "sms") -> StubTransport.Reply {
        .json(
            200,
            [
                "continuation_token": token, "challenge_type": "oob", "binding_method": "prompt", "challenge_channel": channel,
                "challenge_target_label": "+*******0100", "code_length": 6, "interval": 300,
            ])
    }
    static func registerChallenge(token: String = "Tk", target: String = phone, channel: String = "sms") -> StubTransport.Reply {
        .json(
            200,
            [
                "continuation_token": token, "challenge_type": "oob", "binding_method": "prompt", "challenge_target": target,
                "challenge_channel": channel, "code_length": 8,
            ])
    }
    static var invalidCode: StubTransport.Reply {
        .json(400, Fixture.apiError("invalid_grant", suberror: "invalid_oob_value", codes: [50181]))
    }
    static var blocked: StubTransport.Reply {
        .json(400, Fixture.apiError("access_denied", suberror: "provider_blocked_by_rep", codes: [550024]))
    }

    /// A check that the request's form has exactly these values for these fields (nil: absent).
    static func fields(_ expected: [String: String?]) -> @Sendable (HTTPTransportRequest) -> String? {
        { request in
            let form = request.formFields
            for (name, value) in expected where form[name] != value {
                return "\(name) is \(form[name] ?? "absent"), expected \(value ?? "absent")"
            }
            return nil
        }
    }
}

extension Harness {
    /// A password sign-in whose token call answers `reply` and whose further requests are answered by
    /// what `then` queues; returns what the start returned.
    func signInWithPassword(
        answer reply: StubTransport.Reply, scopes: [String]? = nil, then: (Harness) -> Void = { _ in }
    ) async throws -> SignInStartResult {
        expectStart(challenge: .json(200, Fixture.passwordChallenge))
        stub.expect(path: "/oauth2/v2.0/token", reply: reply)
        then(self)
        return try await app.signIn(parameters: signInParameters(password: Fixture.password, scopes: scopes))
    }

    /// Password sign-in → `mfa_required` → introspect: the state awaiting a method choice.
    func awaitingMFA() async throws -> (methods: [MSALAuthMethod], state: AwaitingMFAState) {
        let result = try await signInWithPassword(answer: StrongAuthFixture.mfaRequired()) { $0.stubIntrospect(.signInIntrospect) }
        guard case .awaitingMFA(let methods, let state) = result else {
            throw UnexpectedOutcome("expected .awaitingMFA")
        }
        return (methods, state)
    }

    /// Password sign-in → `registration_required` → register/introspect: the registration state.
    func registration() async throws -> (methods: [MSALAuthMethod], state: RegisterStrongAuthState) {
        let result = try await signInWithPassword(answer: StrongAuthFixture.registrationRequired()) {
            $0.stubIntrospect(.registerIntrospect)
        }
        guard case .strongAuthMethodRegistration(let methods, let state) = result else {
            throw UnexpectedOutcome("expected .strongAuthMethodRegistration")
        }
        return (methods, state)
    }

    func stubIntrospect(_ endpoint: NativeAuthEndpoint) {
        let mfa = endpoint == .signInIntrospect
        stub.expect(
            path: endpoint.path, reply: mfa ? StrongAuthFixture.mfaIntrospect : StrongAuthFixture.registerIntrospect,
            check: StrongAuthFixture.fields(["continuation_token": mfa ? "Tm" : "Tr"]))
    }
}
