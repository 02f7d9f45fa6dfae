import Foundation
import TestSupport
import Testing

@testable import MSAL

/// Each V2 answer shape, each error row of docs/protocol.md#errors, and inputs the decoder must
/// survive (malformed, huge, unknown) without trapping.
@Suite struct V2AnswerDecoderTests {
    let log = LogCapture()
    var decoder: V2AnswerDecoder { V2AnswerDecoder(links: V2Links(authority: V2Fixture.authority), logger: log.config) }

    func decode(_ object: [String: Any], status: Int = 200, as request: V2AnswerDecoder.Request = .interaction) -> V2Answer {
        decoder.decode(status: status, body: try! JSONSerialization.data(withJSONObject: object), as: request)
    }

    func url(_ path: String) -> URL { URL(string: "https://contoso.ciamlogin.com\(path)")! }

    @Test func entryInvitationWithFlatLinks() throws {
        guard case .entryInvitation("c0", let journeys) = decode(V2Fixture.entry, status: 401, as: .entry) else {
            Issue.record("expected the invitation")
            return
        }
        #expect(journeys.links["sign_in"] == .success(url(V2Fixture.startPath)))
        #expect(journeys.links["reset_password"] == .success(url(V2Fixture.path("resetpassword/start"))))
    }

    @Test func halJourneyLinksWinAndCamelCaseResetIsRead() throws {
        var body = V2Fixture.entry
        body["_links"] = ["signIn": ["href": "/T2/api/v2.0/signin/start"]]
        body.removeValue(forKey: "reset_password")
        body["resetPassword"] = "/T/reset"
        guard case .entryInvitation(_, let journeys) = decode(body, status: 401, as: .entry) else {
            throw UnexpectedOutcome("no invitation")
        }
        #expect(journeys.links["sign_in"] == .success(url("/T2/api/v2.0/signin/start")))
        #expect(journeys.links["reset_password"] == .success(url("/T/reset")))
    }

    @Test func entryWithoutTokenIsItsError() throws {
        let answer = decode(
            ["error": "unauthorized_client", "error_description": "AADSTS700016: Unknown app.", "error_codes": [700016]], status: 400,
            as: .entry)
        guard case .error(let error) = answer else { throw UnexpectedOutcome("expected an error, got \(answer)") }
        #expect(error.code == "unauthorized_client" && error.errorCodes == [700016])
    }

    @Test func challengeKeepsServerOrderAndDropsUnknownTypes() throws {
        let methods = [V2Fixture.method("m-x", "fido"), V2Fixture.method("m-p", "password"), V2Fixture.method("m-e", "email", hint: "h")]
        guard case .challenge(.singleFactor, let found, "c1") = decode(V2Fixture.challenge("singleFactor", methods, token: "c1")) else {
            throw UnexpectedOutcome("expected a challenge")
        }
        #expect(found.map(\.id) == ["m-p", "m-e"] && found[1].hint == "h")
        #expect(found[0].link == url(V2Fixture.path("auth/methods/password/m-p/challenge")))
        #expect(log.text.contains("unsupported type 'fido'"))
    }

    /// `state` decides only `webFallbackRequired` and `continue` (docs/protocol.md#how-the-sdk-reads-an-answer, rules 1 and 3); any other
    /// value leaves the answer to its `action`, as MSAL's V2 validator reads nothing of `state` but
    /// `continue`: with a known action the answer is that action's, without one it is unusable.
    @Test func anUnknownStateLeavesTheAnswerToItsAction() throws {
        var body = V2Fixture.verify("m-e1", "email", codeLength: 8, token: "c2")
        body["state"] = "awaitingSomethingNew"
        guard case .verify(let verification, "c2") = decode(body) else { throw UnexpectedOutcome("expected verify") }
        #expect(verification.submit == url(V2Fixture.path("auth/methods/email/m-e1/verify")) && verification.codeLength == 8)

        body.removeValue(forKey: "action")
        guard case .invalid(let reason) = decode(body) else { throw UnexpectedOutcome("expected invalid") }
        #expect(reason == "The server asked for an action the SDK does not support (none)")
        body.removeValue(forKey: "continuationToken")
        guard case .invalid("The answer has no continuation token") = decode(body) else { throw UnexpectedOutcome("expected invalid") }
    }

    @Test func challengeWithoutAKnownFactorIsInvalid() throws {
        var body = V2Fixture.challenge("singleFactor", V2Fixture.emailMethods, token: "c1")
        body["challengeContext"] = ["authenticationFactor": "thirdFactor"]
        guard case .invalid = decode(body) else { throw UnexpectedOutcome("expected invalid") }
    }

    @Test func verifyReadsBothCodeLengthSpellings() throws {
        guard case .verify(let top, "c2") = decode(V2Fixture.verify("m-e1", "email", hint: "g", codeLength: 8, token: "c2")) else {
            throw UnexpectedOutcome("expected verify")
        }
        #expect(
            top.codeLength == 8 && top.type == "email" && top.resend != nil
                && top.submit == url(V2Fixture.path("auth/methods/email/m-e1/verify")))
        guard case .verify(let nested, _) = decode(V2Fixture.verify("m-s", "sms", codeLength: 6, token: "r2", payload: true)) else {
            throw UnexpectedOutcome("expected verify")
        }
        #expect(nested.codeLength == 6)
        guard case .verify(let password, _) = decode(V2Fixture.verify("m-p", "password", token: "c2")) else {
            throw UnexpectedOutcome("verify")
        }
        #expect(password.isPassword && password.recover != nil)
    }

    @Test func riskVerifyRegisterActivateAndContinue() throws {
        guard case .riskVerify(let risk, "r1") = decode(V2Fixture.riskVerify(token: "r1")) else { throw UnexpectedOutcome("riskverify") }
        #expect(risk == url(V2Fixture.path("risk/phone/verify")))
        guard case .register(let methods, "j1") = decode(V2Fixture.register(token: "j1")) else { throw UnexpectedOutcome("register") }
        #expect(
            methods.map(\.link) == [url(V2Fixture.path("auth/methods/email/register")), url(V2Fixture.path("auth/methods/sms/register"))])
        guard case .activate(let activation, "j3") = decode(V2Fixture.activate(token: "j3")) else { throw UnexpectedOutcome("activate") }
        #expect(activation.codeLength == 6 && activation.submit == url(V2Fixture.path("auth/methods/sms/9b2e/activate")))
        guard case .resume("c9", let link) = decode(V2Fixture.continued(token: "c9")) else { throw UnexpectedOutcome("continue") }
        #expect(link == url("\(V2Fixture.tenant)/oauth2/v2.0/authorize-challenge"))
    }

    @Test func resumeCodeInBothSpellings() throws {
        guard case .code("abc") = decode(["code": "abc"], as: .resume) else { throw UnexpectedOutcome("code") }
        guard case .code("def") = decode(["authorizationCode": "def"], as: .resume) else { throw UnexpectedOutcome("authorizationCode") }
        guard case .invalid = decode(["state": "continue"], as: .resume) else { throw UnexpectedOutcome("expected invalid") }
    }

    @Test func snakeCaseTokenIsAccepted() throws {
        var body = V2Fixture.riskVerify(token: "x")
        body.removeValue(forKey: "continuationToken")
        body["continuation_token"] = "snake"
        guard case .riskVerify(_, "snake") = decode(body) else { throw UnexpectedOutcome("expected the snake_case token") }
    }

    @Test func missingTokenUnknownActionAndMissingLinksAreInvalid() throws {
        var noToken = V2Fixture.riskVerify(token: "x")
        noToken.removeValue(forKey: "continuationToken")
        var unknown = V2Fixture.riskVerify(token: "x")
        unknown["action"] = "dance"
        var noLink = V2Fixture.verify("m", "email", token: "x")
        noLink["_links"] = [:] as [String: Any]
        var continueNoToken = V2Fixture.continued(token: "x")
        continueNoToken.removeValue(forKey: "continuationToken")
        for body in [noToken, unknown, noLink, continueNoToken] {
            guard case .invalid = decode(body) else { throw UnexpectedOutcome("expected invalid for \(body)") }
        }
    }

    @Test func aForeignLinkMakesTheAnswerInvalid() throws {
        let evil = V2Fixture.method("m", "email", href: "https://evil.example.com/x")
        guard case .invalid(let reason) = decode(V2Fixture.challenge("singleFactor", [evil], token: "c")) else {
            throw UnexpectedOutcome("invalid")
        }
        #expect(reason.contains("another host"))
    }

    @Test(arguments: [
        ("not json", 200), ("[1,2,3]", 200), ("", 400), ("\"text\"", 500), ("{\"error\":", 400), ("<html>oops</html>", 502),
    ])
    func malformedBodiesAreInvalid(body: String, status: Int) throws {
        guard case .invalid = decoder.decode(status: status, body: Data(body.utf8), as: .interaction) else {
            throw UnexpectedOutcome("expected invalid for \(body)")
        }
    }

    @Test func hugeAndDeepBodiesDoNotTrap() throws {
        let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
        _ = decoder.decode(status: 200, body: Data(deep.utf8), as: .interaction)
        let big = ["action": "verify", "continuationToken": String(repeating: "t", count: 500_000), "codeLength": 1e300] as [String: Any]
        guard case .invalid = decode(big) else { throw UnexpectedOutcome("expected invalid (no verify link)") }
        let wrongTypes: [String: Any] = ["action": 7, "continuationToken": ["x"], "_links": "no", "_embedded": ["methods": "no"]]
        guard case .invalid = decode(wrongTypes) else { throw UnexpectedOutcome("expected invalid") }
    }

    // MARK: Browser fallback (docs/protocol.md#how-the-sdk-reads-an-answer, rule 1)

    @Test func browserFallbackInEveryShape() throws {
        let shapes: [[String: Any]] = [
            V2Fixture.webFallbackHAL, ["state": "webFallbackRequired"], ["error": "redirect_to_web"],
            ["error": "invalid_grant", "suberror": "web_redirect_required", "error_description": "Use a browser."],
        ]
        for shape in shapes {
            for request in [V2AnswerDecoder.Request.entry, .interaction, .resume] {
                guard case .browserRequired = decode(shape, status: 400, as: request) else {
                    throw UnexpectedOutcome("expected browser for \(shape)")
                }
            }
        }
    }

    // MARK: Errors (docs/protocol.md#errors)

    @Test func nestedErrorWithEveryAADSTSAndBodyCorrelation() throws {
        let id = UUID()
        let body: [String: Any] = [
            "error": [
                "code": "invalidRequest", "message": "AADSTS1002027: bad. See also AADSTS90100 and AADSTS1002027.",
                "correlationId": id.uuidString,
                "innerError": [
                    "code": "attributeValidationError",
                    "details": [["attributeIds": ["postalCode", "city"], "code": "invalidAttributeValue", "message": "no"]],
                ],
            ]
        ]
        guard case .error(let error) = decode(body, status: 400) else { throw UnexpectedOutcome("expected an error") }
        #expect(error.code == "invalidRequest" && error.innerCode == "attributeValidationError")
        #expect(error.errorCodes == [1_002_027, 90100] && error.correlationId == id)
        #expect(error.detailCodes == ["invalidAttributeValue"] && error.attributeIds == ["postalCode", "city"])
    }

    @Test func flatErrorMergesListedAndQuotedCodes() throws {
        let body: [String: Any] = [
            "error": "invalid_grant", "error_description": "AADSTS552003: expired. AADSTS50000.", "error_codes": [552003],
            "correlation_id": "not-a-uuid", "suberror": "expiredToken",
        ]
        guard case .error(let error) = decode(body, status: 400, as: .resume) else { throw UnexpectedOutcome("expected an error") }
        #expect(error.errorCodes == [552003, 50000] && error.innerCode == "expiredToken" && error.correlationId == nil)
    }

    /// Each row of docs/protocol.md#errors that sign-in can reach, through the mapping.
    @Test(
        arguments: [
            ("invalidRequest", "userNotFound", 50034, V2FlowMachine.Step.start, NativeAuthErrorKind.userNotFound),
            ("invalidRequest", nil, 90100, .start, .invalidUsername),
            ("invalidRequest", "invalidContinuationToken", 90100, .start, .generalError),
            ("invalid_request", nil, 90100, .entry, .generalError),
            ("invalidGrant", "expiredToken", 552003, .submitPassword, .generalError),
            ("invalidGrant", "invalidOneTimeCode", 50181, .submitCode(.firstFactor), .invalidCode),
            ("invalidGrant", "invalidOneTimeCode", 50181, .submitCode(.mfa), .invalidChallenge),
            ("invalidGrant", "invalidOneTimeCode", 50181, .submitCode(.registration), .invalidChallenge),
            ("invalidGrant", "tooManyAttempts", 50053, .submitCode(.firstFactor), .generalError),
            ("invalidGrant", "invalidUserNameOrPassword", 50126, .submitPassword, .invalidPassword),
            ("invalidRequest", "passwordTooWeak", 120002, .submitPassword, .invalidPassword),
            ("invalidRequest", "userDoesNotHavePassword", 500222, .start, .userDoesNotHavePassword),
            ("accessDenied", "providerBlockedByRep", 550024, .selectMethod(.mfa), .authMethodBlocked),
            ("accessDenied", "providerBlockedByRep", 550024, .selectMethod(.registration), .verificationContactBlocked),
            ("invalidRequest", "invalidVerificationContact", 901001, .selectMethod(.registration), .invalidInput),
            ("invalidRequest", "attributeValidationError", 1_002_027, .start, .invalidAttributes),
            ("serverError", nil, 50000, .start, .generalError),
        ] as [(String, String?, Int, V2FlowMachine.Step, NativeAuthErrorKind)])
    func errorCatalogue(code: String, inner: String?, aadsts: Int, step: V2FlowMachine.Step, kind: NativeAuthErrorKind) throws {
        guard case .error(let error) = decode(V2Fixture.halError(code, "AADSTS\(aadsts): text", inner: inner), status: 400) else {
            throw UnexpectedOutcome("expected an error")
        }
        #expect(V2ErrorMapping.kind(of: error, in: step) == kind)
    }

    @Test func wrongMFACodeSetsBothFlags() throws {
        let error = MSALNativeAuthFlowError(type: .invalidChallenge, NativeAuthErrorDetails(message: nil, correlationId: UUID()))
        #expect(error.isInvalidChallenge && error.isInvalidCode && !error.isGeneralError)
    }
}
