import Foundation
import MSAL
import NativeAuthTesting
import Testing

@testable import MSAL

/// The sign-up and reset answers of docs/protocol.md#the-journeys as the emulator writes them.
extension V2Fixture {
    static let signUpStartPath = path("signup/start")
    static let submitAttributesPath = path("signup/submitattributes")
    static let resetStartPath = path("resetpassword/start")

    static func attribute(_ id: String, _ inputType: String = "text", required: Bool = true, label: String? = nil) -> [String: Any] {
        var descriptor: [String: Any] = [
            "attributeId": id, "inputType": inputType, "required": required, "hidden": false, "canChange": true,
        ]
        if let label { descriptor["label"] = label }
        if id == "password" { descriptor["confirmationInput"] = "retype" }
        return descriptor
    }

    static func collectAttributes(_ attributes: [[String: Any]], token: String) -> [String: Any] {
        [
            "state": "interactionRequired", "action": "collectAttributes", "scenario": "signup", "continuationToken": token,
            "attributes": attributes, "_links": ["submitAttributes": ["href": submitAttributesPath]],
        ]
    }

    static func update(_ id: String = "m-p", token: String) -> [String: Any] {
        [
            "state": "interactionRequired", "action": "update", "scenario": "recovery", "id": id, "type": "password", "payload": [:],
            "continuationToken": token, "_links": ["update": ["href": path("auth/methods/password/\(id)")]],
        ]
    }

    static func poll(_ id: String = "m-p", token: String, interval: Int? = nil) -> [String: Any] {
        var body: [String: Any] = [
            "state": "interactionRequired", "action": "poll", "scenario": "recovery", "continuationToken": token,
            "_links": ["poll": ["href": path("auth/methods/password/\(id)/pollUpdate")]],
        ]
        if let interval { body["pollInterval"] = interval }
        return body
    }

    static func recoveryChallenge(_ methods: [[String: Any]], token: String) -> [String: Any] {
        var body = challenge("singleFactor", methods, token: token)
        body["scenario"] = "recovery"
        return body
    }

    static var recoveryMethods: [[String: Any]] {
        [method("r-e", "email", hint: "m****t@e****e"), method("r-s", "sms", hint: "+*******0101"), method("m-p", "password")]
    }

    static func attributeError(_ inner: String, detail: String, ids: [String], aadsts: Int) -> [String: Any] {
        [
            "error": [
                "code": "invalidRequest", "message": "AADSTS\(aadsts): An attribute was refused.",
                "innerError": ["code": inner, "details": [["attributeIds": ids, "code": detail, "message": "refused"]]],
            ]
        ]
    }
}

extension Harness {
    /// The entry and `signup/start` answered with `startAnswer`.
    func v2SignUpStart(_ startAnswer: [String: Any], status: Int = 200) {
        v2(V2Fixture.entryPath, 401, V2Fixture.entry)
        v2(V2Fixture.signUpStartPath, status, startAnswer)
    }

    /// The entry and `resetpassword/start` answered with `startAnswer`.
    func v2ResetStart(_ startAnswer: [String: Any], status: Int = 200) {
        v2(V2Fixture.entryPath, 401, V2Fixture.entry)
        v2(V2Fixture.resetStartPath, status, startAnswer)
    }

    /// Queues the answer to the PUT of an `update` link.
    func v2Put(_ path: String, _ status: Int, _ body: [String: Any]) {
        stub.expect(path: path, reply: .json(status, body), method: "PUT")
    }

    /// The resume's code and the tokens.
    func v2Redeem() {
        v2(V2Fixture.entryPath, 200, ["code": V2Fixture.code])
        v2("/oauth2/v2.0/token", 200, Fixture.tokenBody())
    }
}

extension HTTPTransportRequest {
    /// The JSON body of an interaction request, nested members kept.
    var jsonObject: [String: Any] {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }

    /// The `attributes` member of a `submitAttributes` request, as strings.
    var submittedAttributes: [String: String] {
        (jsonObject["attributes"] as? [String: Any] ?? [:]).mapValues { "\($0)" }
    }
}
