import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// Native auth V2 answers as docs/protocol.md#native-auth-v2-experimental shows them, with `T` the test authority's
/// tenant segment, so the stubs and the emulator's V2 routes speak alike.
enum V2Fixture {
    static let tenant = "/contoso.onmicrosoft.com"
    static let authority = URL(string: "https://contoso.ciamlogin.com/contoso.onmicrosoft.com")!
    static let entryPath = "/oauth2/v2.0/authorize-challenge"
    static let startPath = "\(tenant)/api/v2.0/signin/start"

    static func path(_ rest: String) -> String { "\(tenant)/api/v2.0/\(rest)" }

    /// The entry's 401 invitation (docs/protocol.md#entry-and-resume).
    static var entry: [String: Any] {
        [
            "error": "InsufficientAuthorization", "error_description": "Interaction is required before authorization can complete.",
            "continuation_token": "c0", "sign_in": startPath, "sign_up": path("signup/start"),
            "reset_password": path("resetpassword/start"),
        ]
    }

    static func method(_ id: String, _ type: String, hint: String? = nil, relation: String = "challenge", href: String? = nil)
        -> [String: Any]
    {
        var method: [String: Any] = [
            "id": id, "type": type, "_links": [relation: ["href": href ?? path("auth/methods/\(type)/\(id)/challenge")]],
        ]
        if let hint { method["hint"] = hint }
        return method
    }

    static func challenge(_ factor: String, _ methods: [[String: Any]], token: String) -> [String: Any] {
        [
            "state": "interactionRequired", "action": "challenge", "scenario": "signin", "continuationToken": token,
            "challengeContext": ["authenticationFactor": factor], "_links": ["self": ["href": startPath]],
            "_embedded": ["methods": methods],
        ]
    }

    static func verify(_ id: String, _ type: String, hint: String? = nil, codeLength: Int? = nil, token: String, payload: Bool = false)
        -> [String: Any]
    {
        var links: [String: Any] = ["verify": ["href": path("auth/methods/\(type)/\(id)/verify")]]
        if type == "password" {
            links["recover"] = ["href": path("auth/methods/password/\(id)/recover")]
        } else {
            links["resend"] = ["href": path("auth/methods/\(type)/\(id)/challenge")]
        }
        var body: [String: Any] = [
            "state": "interactionRequired", "action": "verify", "id": id, "type": type, "continuationToken": token, "_links": links,
        ]
        if let hint { body["hint"] = hint }
        if let codeLength {
            body["payload"] = ["codeLength": codeLength]
            if !payload { body["codeLength"] = codeLength }
        }
        return body
    }

    static func riskVerify(token: String) -> [String: Any] {
        [
            "state": "interactionRequired", "action": "riskverify", "continuationToken": token,
            "_links": ["riskverify": ["href": path("risk/phone/verify")]],
        ]
    }

    /// `emailHint`: the email method already has a destination (registered without a `target`).
    static func register(token: String, emailHint: String? = nil) -> [String: Any] {
        [
            "state": "interactionRequired", "action": "register", "continuationToken": token,
            "challengeContext": ["authenticationFactor": "multiFactor"],
            "_embedded": [
                "methods": [
                    method("reg-email", "email", hint: emailHint, relation: "enroll", href: path("auth/methods/email/register")),
                    method("reg-sms", "sms", relation: "enroll", href: path("auth/methods/sms/register")),
                ]
            ],
        ]
    }

    static func activate(token: String) -> [String: Any] {
        [
            "state": "interactionRequired", "action": "activate", "id": "9b2e", "type": "sms", "hint": "+*******0123",
            "payload": ["codeLength": 6], "continuationToken": token,
            "_links": [
                "activate": ["href": path("auth/methods/sms/9b2e/activate")], "resend": ["href": path("auth/methods/sms/9b2e/challenge")],
            ],
        ]
    }

    static func continued(token: String) -> [String: Any] {
        ["state": "continue", "continuationToken": token, "_links": ["continue": ["href": "\(tenant)/oauth2/v2.0/authorize-challenge"]]]
    }

    static let code = "0.AXcA-code"

    static func halError(_ code: String, _ message: String, inner: String? = nil) -> [String: Any] {
        var error: [String: Any] = ["code": code, "message": message, "timestamp": "2026-11-30 10:00:00Z", "traceId": "trace"]
        if let inner { error["innerError"] = ["code": inner] }
        return ["error": error]
    }

    static var webFallbackHAL: [String: Any] {
        [
            "state": "webFallbackRequired",
            "error": [
                "code": "invalid_grant", "message": "Sign-in must continue in a web browser.",
                "innerError": ["code": "web_redirect_required"],
            ],
        ]
    }

    static var emailMethods: [[String: Any]] { [method("m-e1", "email", hint: "g****e@e****e")] }
    static var firstFactors: [[String: Any]] { [method("m-p", "password"), method("m-e", "email", hint: "b****a@e****e")] }
    static var mfaMethods: [[String: Any]] {
        [method("7f1c-a001", "email", hint: "a****p@e****e"), method("7f1c-a002", "sms", hint: "+*******0100")]
    }
}

extension Harness {
    /// Queues a JSON answer to a request whose path ends with `path`.
    func v2(_ path: String, _ status: Int, _ body: [String: Any], check: (@Sendable (HTTPTransportRequest) -> String?)? = nil) {
        stub.expect(path: path, reply: .json(status, body), check: check)
    }

    /// The entry and `sign_in` answered with `startAnswer`.
    func v2Start(_ startAnswer: [String: Any], status: Int = 200) {
        v2(V2Fixture.entryPath, 401, V2Fixture.entry)
        v2(V2Fixture.startPath, status, startAnswer)
    }

    /// `state: continue`, the resume's code and the tokens, after whichever request answers `continue`.
    func v2Finish(after path: String, token: String = "c9") {
        v2(path, 200, V2Fixture.continued(token: token))
        v2(V2Fixture.entryPath, 200, ["code": V2Fixture.code])
        v2("/oauth2/v2.0/token", 200, Fixture.tokenBody())
    }

    var v2Parameters: MSALNativeAuthSignInParametersV2 { MSALNativeAuthSignInParametersV2(username: Fixture.username) }

    /// A V2 sign-in by password that the service answers with a just-in-time registration (an email
    /// method with `emailHint` as its destination, and an SMS one).
    func v2RegistrationState(emailHint: String? = nil) async throws -> MSALNativeAuthStrongAuthRegistrationRequiredState {
        v2Start(V2Fixture.challenge("singleFactor", [V2Fixture.method("m-p", "password")], token: "c1"))
        v2(V2Fixture.path("auth/methods/password/m-p/challenge"), 200, V2Fixture.verify("m-p", "password", token: "c2"))
        let password = try expectState(try await app.signInV2(parameters: v2Parameters), MSALNativeAuthPasswordRequiredState.self)
        v2(V2Fixture.path("auth/methods/password/m-p/verify"), 200, V2Fixture.register(token: "j1", emailHint: emailHint))
        return try expectState(try await password.submitPassword(Fixture.password), MSALNativeAuthStrongAuthRegistrationRequiredState.self)
    }
}

extension HTTPTransportRequest {
    /// The JSON body of an interaction request.
    var jsonBody: [String: String] {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: String] ?? [:]
    }
}

/// Records every V2 callback; conforms to every per-state protocol.
@MainActor
final class V2RecordingDelegate: MSALNativeAuthCodeRequiredDelegate, MSALNativeAuthPasswordRequiredDelegate,
    MSALNativeAuthNewPasswordRequiredDelegate, MSALNativeAuthAttributesRequiredDelegate,
    MSALNativeAuthAuthMethodSelectionRequiredDelegate, MSALNativeAuthMFARequiredDelegate,
    MSALNativeAuthMFAVerificationRequiredDelegate, MSALNativeAuthStrongAuthRegistrationRequiredDelegate,
    MSALNativeAuthStrongAuthVerificationRequiredDelegate, MSALNativeAuthSignInAfterSignUpRequiredDelegate,
    MSALNativeAuthSignInAfterResetPasswordRequiredDelegate
{
    enum Event {
        case completed(MSALNativeAuthUserAccountResult, MSALNativeAuthFlowScenario)
        case error(MSALNativeAuthFlowError, MSALNativeAuthFlowScenario)
        case state(String, MSALNativeAuthState)
    }

    private(set) var events: [Event] = []
    var names: [String] {
        events.map {
            switch $0 {
            case .completed: "onFlowCompleted"
            case .error: "onFlowError"
            case .state(let name, _): name
            }
        }
    }

    /// Waits (up to 10 s) until there are `count` events; returns the last.
    func waitForEvent(count: Int) async throws -> Event {
        for _ in 0..<10_000 where events.count < count { try await Task.sleep(nanoseconds: 1_000_000) }
        guard events.count >= count, let last = events.last else { throw UnexpectedOutcome("no callback \(count) (got \(names))") }
        return last
    }

    func state<State>(_ count: Int, _ type: State.Type) async throws -> State {
        guard case .state(_, let state) = try await waitForEvent(count: count), let typed = state as? State else {
            throw UnexpectedOutcome("expected \(State.self) at callback \(count), got \(names)")
        }
        return typed
    }

    func error(_ count: Int) async throws -> MSALNativeAuthFlowError {
        guard case .error(let error, _) = try await waitForEvent(count: count) else {
            throw UnexpectedOutcome("expected an error, got \(names)")
        }
        return error
    }

    func onFlowCompleted(result: MSALNativeAuthUserAccountResult, scenario: MSALNativeAuthFlowScenario) {
        events.append(.completed(result, scenario))
    }
    func onFlowError(error: MSALNativeAuthFlowError, scenario: MSALNativeAuthFlowScenario) { events.append(.error(error, scenario)) }
    func onCodeRequired(state: MSALNativeAuthCodeRequiredState, scenario: MSALNativeAuthFlowScenario) {
        events.append(.state("onCodeRequired", state))
    }
    func onPasswordRequired(state: MSALNativeAuthPasswordRequiredState, scenario: MSALNativeAuthFlowScenario) {
        events.append(.state("onPasswordRequired", state))
    }
    func onNewPasswordRequired(state: MSALNativeAuthNewPasswordRequiredState, scenario: MSALNativeAuthFlowScenario) {
        events.append(.state("onNewPasswordRequired", state))
    }
    func onAttributesRequired(state: MSALNativeAuthAttributesRequiredState, scenario: MSALNativeAuthFlowScenario) {
        events.append(.state("onAttributesRequired", state))
    }
    func onAuthMethodSelectionRequired(state: MSALNativeAuthAuthMethodSelectionRequiredState, scenario: MSALNativeAuthFlowScenario) {
        events.append(.state("onAuthMethodSelectionRequired", state))
    }
    func onMFARequired(state: MSALNativeAuthMFARequiredState, scenario: MSALNativeAuthFlowScenario) {
        events.append(.state("onMFARequired", state))
    }
    func onMFAVerificationRequired(state: MSALNativeAuthMFAVerificationRequiredState, scenario: MSALNativeAuthFlowScenario) {
        events.append(.state("onMFAVerificationRequired", state))
    }
    func onStrongAuthRegistrationRequired(state: MSALNativeAuthStrongAuthRegistrationRequiredState, scenario: MSALNativeAuthFlowScenario) {
        events.append(.state("onStrongAuthRegistrationRequired", state))
    }
    func onStrongAuthVerificationRequired(state: MSALNativeAuthStrongAuthVerificationRequiredState, scenario: MSALNativeAuthFlowScenario) {
        events.append(.state("onStrongAuthVerificationRequired", state))
    }
    func onSignInAfterSignUpRequired(state: MSALNativeAuthSignInAfterSignUpState, scenario: MSALNativeAuthFlowScenario) {
        events.append(.state("onSignInAfterSignUpRequired", state))
    }
    func onSignInAfterResetPasswordRequired(state: MSALNativeAuthSignInAfterResetPasswordState, scenario: MSALNativeAuthFlowScenario) {
        events.append(.state("onSignInAfterResetPasswordRequired", state))
    }
}

/// A delegate that opted in to no state protocol.
@MainActor final class V2BareDelegate: MSALNativeAuthFlowDelegate {
    var errors: [MSALNativeAuthFlowError] = []
    var completions = 0
    func onFlowCompleted(result: MSALNativeAuthUserAccountResult, scenario: MSALNativeAuthFlowScenario) { completions += 1 }
    func onFlowError(error: MSALNativeAuthFlowError, scenario: MSALNativeAuthFlowScenario) { errors.append(error) }
}
