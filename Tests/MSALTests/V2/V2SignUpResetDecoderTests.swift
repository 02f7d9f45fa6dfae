import Foundation
import TestSupport
import Testing

@testable import MSAL

/// `collectAttributes`, `update` and `poll` answers (docs/protocol.md#answers).
@Suite struct V2SignUpResetDecoderTests {
    let log = LogCapture()
    var decoder: V2AnswerDecoder { V2AnswerDecoder(links: V2Links(authority: V2Fixture.authority), logger: log.config) }

    func decode(_ object: [String: Any]) -> V2Answer {
        decoder.decode(status: 200, body: try! JSONSerialization.data(withJSONObject: object), as: .interaction)
    }

    func url(_ path: String) -> URL { URL(string: "https://contoso.ciamlogin.com\(path)")! }

    @Test func collectAttributesReadsEveryDescriptorMember() throws {
        var select = V2Fixture.attribute("color", "radioSingleSelect", required: false, label: "Colour")
        select["options"] = ["red", ["value": "blue", "label": "Blue"]]
        select["validationRegex"] = "^[a-z]+$"
        select["hidden"] = true
        select["canChange"] = false
        let body = V2Fixture.collectAttributes(
            [V2Fixture.attribute("password", "password", label: "Password"), select, ["inputType": "text"]], token: "s1")
        guard case .collectAttributes(let descriptors, let submit, "s1") = decode(body) else { throw UnexpectedOutcome("\(decode(body))") }
        #expect(submit == url(V2Fixture.submitAttributesPath))
        #expect(descriptors.count == 2)
        #expect(
            descriptors[0]
                == V2AttributeDescriptor(
                    id: "password", inputType: "password", required: true, label: "Password", confirmationInput: "retype"))
        #expect(
            descriptors[1]
                == V2AttributeDescriptor(
                    id: "color", inputType: "radioSingleSelect", hidden: true, canChange: false, label: "Colour", regex: "^[a-z]+$",
                    options: ["red", "blue"]))
    }

    @Test func collectAttributesFallsBackToSelfAndNeedsALink() throws {
        var body = V2Fixture.collectAttributes([V2Fixture.attribute("email")], token: "s1")
        body["_links"] = ["self": ["href": "/T/api/v2.0/signup/submitattributes"]]
        guard case .collectAttributes(_, let submit, _) = decode(body) else { throw UnexpectedOutcome("no answer") }
        #expect(submit == url("/T/api/v2.0/signup/submitattributes"))
        body["_links"] = [:]
        guard case .invalid(let reason) = decode(body) else { throw UnexpectedOutcome("expected invalid") }
        #expect(reason.contains("submitAttributes"))
    }

    @Test func updateAndPoll() throws {
        guard case .update(let update, "p3") = decode(V2Fixture.update(token: "p3")) else { throw UnexpectedOutcome("no update") }
        #expect(update.submit == url(V2Fixture.path("auth/methods/password/m-p")) && update.methodId == "m-p" && update.isPassword)
        guard case .poll(let link, nil, "p4") = decode(V2Fixture.poll(token: "p4")) else { throw UnexpectedOutcome("no poll") }
        #expect(link == url(V2Fixture.path("auth/methods/password/m-p/pollUpdate")))
        guard case .poll(_, 750, _) = decode(V2Fixture.poll(token: "p4", interval: 750)) else { throw UnexpectedOutcome("no interval") }
        var noLink = V2Fixture.poll(token: "p4")
        noLink["_links"] = [:]
        guard case .invalid = decode(noLink) else { throw UnexpectedOutcome("expected invalid") }
        var foreign = V2Fixture.update(token: "p3")
        foreign["_links"] = ["update": ["href": "https://evil.example.com/steal"]]
        guard case .invalid = decode(foreign) else { throw UnexpectedOutcome("a foreign update link must be refused") }
    }

    @Test func attributeValuesFromTheApp() {
        let values = V2AttributeValue.convert(
            [
                "name": "Ada", "age": 36, "score": 1.5, "agreed": true, "tags": ["a", "b"], "EMAIL": "x", "Password": "y", "bad": Date(),
                "notANumber": Double.nan, "endless": -Double.infinity,
            ],
            logger: log.config)
        #expect(
            values == [
                "name": .string("Ada"), "age": .number(36), "score": .number(1.5), "agreed": .bool(true), "tags": .strings(["a", "b"]),
            ])
        #expect(log.text.contains("'EMAIL'") && log.text.contains("'bad'"))
        // JSON has no non-finite number: sent, it would fail the request; saved, it would empty the document.
        #expect(log.text.contains("'notANumber'") && log.text.contains("'endless'"))
        let body = V2Body.attributes(values).members(token: "t")
        let data = try! JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"attributes":{"age":36,"agreed":true,"name":"Ada","score":1.5,"tags":["a","b"]},"continuationToken":"t"}"#)
    }
}
