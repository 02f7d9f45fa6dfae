import Foundation
import TestSupport
import Testing

@testable import NativeAuthEmulator

/// Native auth V2 sign-up, password reset and inline recovery end to end at the HTTP level
/// (docs/protocol.md#native-auth-v2-experimental): every journey through the token exchange, then V1 and V2
/// sign-ins with what it created or changed; the error rows of these steps; polling; MFA after a reset.
@Suite struct V2SignUpResetTests {
    typealias H = EmulatorHarness
    typealias C = V2TestClient
    static let newPassword = "Apollo-11-Eagle-Landed"

    func claims(_ token: Any?, _ h: H) throws -> [String: Any] {
        try JWT.verify(try #require(token as? String), keys: h.router.keys)
    }

    /// The entry, then `signup/start` (with `username` unless nil).
    func signUpStart(_ c: C, _ username: String?, clientId: String = H.passwordApp) -> H.Reply {
        let entry = c.entry(clientId: clientId)
        var body: [String: Any] = ["continuationToken": entry.token ?? ""]
        if let username { body["username"] = username }
        return c.follow(entry["sign_up"] as? String, body)
    }

    /// The entry, then `resetpassword/start`.
    func resetStart(_ c: C, _ username: String) -> H.Reply {
        let entry = c.entry()
        return c.follow(entry["reset_password"] as? String, ["username": username, "continuationToken": entry.token ?? ""])
    }

    func submit(_ c: C, _ answer: H.Reply, _ attributes: [String: Any]) -> H.Reply {
        c.follow(answer.link("submitAttributes"), ["continuationToken": answer.ct ?? "", "attributes": attributes])
    }

    func update(_ c: C, _ answer: H.Reply, _ password: String) -> H.Reply {
        c.follow(answer.link("update"), ["continuationToken": answer.ct ?? "", "newPassword": password], method: "PUT")
    }

    func poll(_ c: C, _ answer: H.Reply) -> H.Reply {
        c.follow(answer.link("poll"), ["continuationToken": answer.ct ?? ""])
    }

    func ids(_ answer: H.Reply) -> [String?] {
        (answer["attributes"] as? [[String: Any]] ?? []).map { $0["attributeId"] as? String }
    }

    /// The email code of a sign-up or reset for `username`, checked against its purpose.
    func code(_ c: C, _ username: String, purpose: String, length: Int = 8) throws -> String {
        let mail = try #require(c.lastMail(username))
        #expect(mail["purpose"] as? String == purpose && mail["api"] as? String == "v2", "\(mail)")
        let code = try #require(mail["code"] as? String)
        #expect(code.count == length)
        return code
    }

    /// A V1 password sign-in (initiate, challenge, password grant).
    func v1SignIn(_ h: H, _ username: String, _ password: String) throws -> H.Reply {
        h.passwordGrant(try h.passwordToken(username), username: username, password: password)
    }

    // MARK: Sign-up

    @Test func passwordSignUpAsksEmailThenCodeThenPasswordAndAttributesAndCreatesTheAccount() throws {
        let h = try H()
        let c = C(h)
        let lin = "lin@example.com"
        let started = signUpStart(c, lin)
        #expect(
            started.status == 200 && started.action == "collectAttributes" && started["scenario"] as? String == "signup", "\(started.json)")
        #expect(started.link("submitAttributes") == "/emulator.onmicrosoft.com/api/v2.0/signup/submitattributes")
        let email = try #require((started["attributes"] as? [[String: Any]])?.first)
        #expect(email["attributeId"] as? String == "email" && email["inputType"] as? String == "text" && email["required"] as? Bool == true)
        #expect(email["hidden"] as? Bool == false && email["canChange"] as? Bool == true && email["label"] as? String == "Email")

        // Ids the step does not ask are ignored; without `email` it is asked again.
        let again = submit(c, started, ["displayName": "Lin"])
        #expect(again.status == 200 && ids(again) == ["email"] && again.ct != started.ct)
        let sent = submit(c, again, ["email": lin])
        #expect(sent.action == "verify" && sent["type"] as? String == "email" && sent["hint"] as? String == "l****n@e****e", "\(sent.json)")
        #expect(sent["codeLength"] as? Int == 8 && sent.link("resend") != nil && sent["scenario"] as? String == "signup")
        let code = try code(c, lin, purpose: "sign_up")
        let wrong = c.verify(sent, ["otp": "00000000"])
        #expect(wrong.status == 400 && wrong.hal.inner == "invalidOneTimeCode" && wrong.hal.message?.hasPrefix("AADSTS50181:") == true)

        let asked = c.verify(sent, ["otp": code])
        #expect(asked.action == "collectAttributes" && ids(asked) == ["password", "displayName", "city"], "\(asked.json)")
        let descriptors = asked["attributes"] as? [[String: Any]] ?? []
        #expect(descriptors[0]["inputType"] as? String == "password" && descriptors[0]["confirmationInput"] as? String == "retype")
        #expect(descriptors[1]["required"] as? Bool == true && descriptors[1]["label"] as? String == "Display name")
        #expect(descriptors[1]["regex"] as? String == "^.{1,64}$" && descriptors[1]["inputType"] as? String == "text")
        #expect(descriptors[2]["required"] as? Bool == false && descriptors[2]["label"] as? String == "City")

        // The password alone: displayName, still missing, is asked again (200, not an error).
        let reasked = submit(c, asked, ["password": "Hamming-Code-1950", "city": "Oslo"])
        #expect(reasked.status == 200 && reasked.action == "collectAttributes" && ids(reasked) == ["displayName"], "\(reasked.json)")
        // A value the regex refuses, then a weak password: errors that leave the token usable.
        let refused = submit(c, reasked, ["displayName": String(repeating: "x", count: 65)])
        #expect(refused.status == 400 && refused.hal.code == "invalidRequest" && refused.hal.inner == "attributeValidationError")
        #expect(refused.hal.message?.hasPrefix("AADSTS1002027:") == true)
        let detail = try #require(((refused["error"] as? [String: Any])?["innerError"] as? [String: Any])?["details"] as? [[String: Any]])
        #expect(
            detail.first?["attributeIds"] as? [String] == ["displayName"] && detail.first?["code"] as? String == "invalidAttributeValue")
        let weak = submit(c, reasked, ["password": "short", "displayName": "Lin"])
        let weakDetail = ((weak["error"] as? [String: Any])?["innerError"] as? [String: Any])?["details"] as? [[String: Any]]
        #expect(weak.status == 400 && weak.hal.inner == "attributeValidationError" && weak.hal.message?.hasPrefix("AADSTS1002027:") == true)
        #expect(
            weakDetail?.first?["attributeIds"] as? [String] == ["password"]
                && weakDetail?.first?["code"] as? String == "passwordPolicyViolation")
        #expect(h.router.world.withLock { $0.users[lin] } == nil)

        let done = submit(c, reasked, ["displayName": "Lin Lanying"])
        #expect(done.state == "continue" && done["scenario"] as? String == "signup", "\(done.json)")
        let tokens = try c.finish(done)
        let id = try claims(tokens["id_token"], h)
        #expect(id["preferred_username"] as? String == lin && id["name"] as? String == "Lin Lanying")
        #expect(h.router.world.withLock { $0.users[lin]?.attributes["city"] } == "Oslo")
        // The account signs in with V1 and with V2.
        #expect(try v1SignIn(h, lin, "Hamming-Code-1950").status == 200)
        _ = try c.finish(c.password(lin, "Hamming-Code-1950"))
        // A new sign-up of the same address with the email submit: userAlreadyExists.
        let twice = submit(c, signUpStart(c, nil), ["email": lin])
        #expect(twice.status == 400 && twice.hal.message?.hasPrefix("AADSTS1003037:") == true)
    }

    @Test func emailCodeSignUpAsksNoPasswordAndTheAccountSignsInByCode() throws {
        let h = try H()
        let c = C(h)
        let mae = "mae@example.com"
        let started = signUpStart(c, mae, clientId: H.codeApp)
        let sent = submit(c, started, ["email": mae])
        let asked = c.verify(sent, ["otp": try code(c, mae, purpose: "sign_up")])
        #expect(asked.action == "collectAttributes" && ids(asked) == ["displayName"], "\(asked.json)")
        // A password is not asked, so it is ignored; displayName is still missing.
        #expect(ids(submit(c, asked, ["password": "Hamming-Code-1950"])) == ["displayName"])
        let done = submit(c, asked, ["displayName": "Mae Jemison"])
        _ = try c.finish(done, clientId: H.codeApp)
        #expect(h.router.world.withLock { $0.users[mae]?.password == nil })
        // V2 sign-in by email code; V1 sign-in sends a code too.
        let signIn = c.start(mae)
        #expect(signIn.methods.map { $0["type"] as? String } == ["email"])
        let challenged = c.challenge(signIn, type: "email")
        _ = try c.finish(c.verify(challenged, ["otp": try code(c, mae, purpose: "sign_in")]))
        let v1 = h.challenge(h.initiate(mae, clientId: H.codeApp).token, clientId: H.codeApp)
        #expect(v1.status == 200 && v1["challenge_type"] as? String == "oob", "\(v1.json)")
    }

    /// An email-code app that collects no attributes has nothing to ask after the code: the account is
    /// created and the flow answers `continue` at once (never an empty `collectAttributes`).
    @Test func emailCodeSignUpWithoutAttributesContinuesRightAfterTheCode() throws {
        var seed = Seed.demo
        seed.apps[1].attributes = []
        let h = try H(seed: seed)
        let c = C(h)
        let ida = "ida@example.com"
        let sent = submit(c, signUpStart(c, ida, clientId: H.codeApp), ["email": ida])
        let done = c.verify(sent, ["otp": try code(c, ida, purpose: "sign_up")])
        #expect(done.status == 200 && done["state"] as? String == "continue" && done.link("continue") != nil, "\(done.json)")
        #expect(h.router.world.withLock { $0.users[ida] != nil && $0.users[ida]?.password == nil })
        _ = try c.finish(done, clientId: H.codeApp)
    }

    /// An empty `attributes` object is a submit like any other: with nothing missing, the account is created.
    @Test func anEmptyAttributesSubmitFinishesWhenNothingRequiredIsMissing() throws {
        var seed = Seed.demo
        seed.apps[1].attributes = seed.apps[1].attributes.map { attribute in
            var optional = attribute
            optional.required = false
            return optional
        }
        let h = try H(seed: seed)
        let c = C(h)
        let ida = "ida@example.com"
        let sent = submit(c, signUpStart(c, ida, clientId: H.codeApp), ["email": ida])
        let asked = c.verify(sent, ["otp": try code(c, ida, purpose: "sign_up")])
        #expect(asked.action == "collectAttributes" && !ids(asked).isEmpty, "\(asked.json)")
        let done = submit(c, asked, [:])
        #expect(done.status == 200 && done["state"] as? String == "continue", "\(done.json)")
        _ = try c.finish(done, clientId: H.codeApp)
    }

    @Test func signUpWithoutUsernameAsksTheEmailAndAnExistingAddressIsUserAlreadyExists() throws {
        let h = try H()
        let c = C(h)
        let started = signUpStart(c, nil)
        #expect(started.action == "collectAttributes" && ids(started) == ["email"])
        let exists = submit(c, started, ["email": "ADA@example.com"])
        #expect(exists.status == 400 && exists.hal.code == "invalidRequest" && exists.hal.message?.hasPrefix("AADSTS1003037:") == true)
        let detail = ((exists["error"] as? [String: Any])?["innerError"] as? [String: Any])?["details"] as? [[String: Any]]
        #expect(detail?.first?["code"] as? String == "userAlreadyExists" && detail?.first?["attributeIds"] as? [String] == ["email"])
        // The flow is over.
        #expect(submit(c, started, ["email": "new@example.com"]).hal.inner == "invalidContinuationToken")
        // A malformed address is an attribute refusal; the token stays usable.
        let other = signUpStart(c, nil)
        let bad = submit(c, other, ["email": "not-an-address"])
        #expect(bad.status == 400 && bad.hal.inner == "attributeValidationError")
        #expect(submit(c, other, ["email": "new@example.com"]).action == "verify")
        // A malformed username at the start: invalidRequest 90100.
        let malformed = signUpStart(c, "nobody")
        #expect(malformed.status == 400 && malformed.hal.message?.hasPrefix("AADSTS90100:") == true)
        // Attributes that are not an object: 90100.
        #expect(
            c.follow(other.link("submitAttributes"), ["continuationToken": other.ct ?? ""]).hal.message?.hasPrefix("AADSTS90100:") == true)
    }

    @Test func signUpOfAnExistingAccountWithUsernameIsDiscoveredLikeSignIn() throws {
        let h = try H()
        let c = C(h)
        let ada = signUpStart(c, H.ada)
        #expect(ada.action == "challenge" && ada["scenario"] as? String == "signup", "\(ada.json)")
        #expect((ada["challengeContext"] as? [String: Any])?["authenticationFactor"] as? String == "singleFactor")
        #expect(ada.methods.map { $0["type"] as? String } == ["password"])
        let tokens = try c.finish(c.verify(c.challenge(ada, type: "password"), ["password": H.adaPassword]))
        #expect(try claims(tokens["id_token"], h)["preferred_username"] as? String == H.ada)
        // barbara: a choice of methods; the email branch.
        let barbara = signUpStart(c, C.barbara)
        #expect(barbara.methods.map { $0["type"] as? String } == ["password", "email"])
        let challenged = c.challenge(barbara, type: "email")
        _ = try c.finish(c.verify(challenged, ["otp": try code(c, C.barbara, purpose: "sign_in")]))
    }

    @Test func theSignUpCodeIsResentAndSeedLabelsTypesAndSwitchesShapeTheDescriptors() throws {
        var seed = Seed.demo
        seed.apps[0].attributes = [
            Seed.Attribute(name: "displayName"), Seed.Attribute(name: "newsletter", type: "boolean", required: false, label: "News"),
        ]
        seed.apps[1].signUpEnabled = false
        let h = try H(seed: seed)
        let c = C(h)
        let lin = "lin@example.com"
        let sent = submit(c, signUpStart(c, lin), ["email": lin])
        let first = try code(c, lin, purpose: "sign_up")
        let resent = c.follow(sent.link("resend"), ["continuationToken": sent.ct ?? ""])
        #expect(resent.action == "verify" && resent["scenario"] as? String == "signup", "\(resent.json)")
        let second = try code(c, lin, purpose: "sign_up")
        #expect(c.verify(resent, ["otp": first]).hal.inner == "invalidOneTimeCode")
        let asked = c.verify(resent, ["otp": second])
        let descriptors = asked["attributes"] as? [[String: Any]] ?? []
        #expect(descriptors.map { $0["label"] as? String } == ["Password", "displayName", "News"], "\(asked.json)")
        #expect(descriptors.map { $0["inputType"] as? String } == ["password", "text", "boolean"])
        #expect(descriptors[1]["regex"] == nil)
        // A Boolean value is kept as its text.
        let done = submit(c, asked, ["password": "Hamming-Code-1950", "displayName": "Lin", "newsletter": true])
        _ = try c.finish(done)
        #expect(h.router.world.withLock { $0.users[lin]?.attributes["newsletter"] } == "true")
        // Sign-up switched off for the code app: invalidRequest 50097, the entry token stays usable.
        let entry = c.entry(clientId: H.codeApp)
        let off = c.follow(entry["sign_up"] as? String, ["continuationToken": entry.token ?? "", "username": "x@example.com"])
        #expect(off.status == 400 && off.hal.code == "invalidRequest" && off.hal.message?.hasPrefix("AADSTS50097:") == true)
        #expect(c.follow(entry["sign_in"] as? String, ["continuationToken": entry.token ?? "", "username": H.ada]).action == "challenge")
        // A seed label must not be empty.
        var empty = Seed.demo
        empty.apps[0].attributes[0].label = " "
        #expect(throws: EmulatorError.self) { try EmulatorRouter(seed: empty) }
        let decoded = try Seed.load(
            from: Data(
                #"{"tenant":{"subdomain":"x","id":"t"},"apps":[{"client_id":"a","attributes":[{"name":"city","label":"Town"}]}],"users":[],"apis":[]}"#
                    .utf8))
        #expect(decoded.apps[0].attributes[0].label == "Town")
    }
}
