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

    private func claims(_ token: Any?, _ h: H) throws -> [String: Any] {
        try JWT.verify(try #require(token as? String), keys: h.router.keys)
    }

    /// The entry, then `signup/start` (with `username` unless nil).
    private func signUpStart(_ c: C, _ username: String?, clientId: String = H.passwordApp) -> H.Reply {
        let entry = c.entry(clientId: clientId)
        var body: [String: Any] = ["continuationToken": entry.token ?? ""]
        if let username { body["username"] = username }
        return c.follow(entry["sign_up"] as? String, body)
    }

    /// The entry, then `resetpassword/start`.
    private func resetStart(_ c: C, _ username: String) -> H.Reply {
        let entry = c.entry()
        return c.follow(entry["reset_password"] as? String, ["username": username, "continuationToken": entry.token ?? ""])
    }

    private func submit(_ c: C, _ answer: H.Reply, _ attributes: [String: Any]) -> H.Reply {
        c.follow(answer.link("submitAttributes"), ["continuationToken": answer.ct ?? "", "attributes": attributes])
    }

    private func update(_ c: C, _ answer: H.Reply, _ password: String) -> H.Reply {
        c.follow(answer.link("update"), ["continuationToken": answer.ct ?? "", "newPassword": password], method: "PUT")
    }

    private func poll(_ c: C, _ answer: H.Reply) -> H.Reply {
        c.follow(answer.link("poll"), ["continuationToken": answer.ct ?? ""])
    }

    private func ids(_ answer: H.Reply) -> [String?] {
        (answer["attributes"] as? [[String: Any]] ?? []).map { $0["attributeId"] as? String }
    }

    /// The email code of a sign-up or reset for `username`, checked against its purpose.
    private func code(_ c: C, _ username: String, purpose: String, length: Int = 8) throws -> String {
        let mail = try #require(c.lastMail(username))
        #expect(mail["purpose"] as? String == purpose && mail["api"] as? String == "v2", "\(mail)")
        let code = try #require(mail["code"] as? String)
        #expect(code.count == length)
        return code
    }

    /// A V1 password sign-in (initiate, challenge, password grant).
    private func v1SignIn(_ h: H, _ username: String, _ password: String) throws -> H.Reply {
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

    // MARK: Password reset

    @Test func resetWithOneMethodUpdatesThePasswordAndRevokesRefreshTokens() throws {
        let h = try H()
        let c = C(h)
        let before = try h.signIn()
        let started = resetStart(c, H.ada)
        #expect(started.action == "challenge" && started["scenario"] as? String == "recovery", "\(started.json)")
        #expect((started["challengeContext"] as? [String: Any])?["authenticationFactor"] as? String == "singleFactor")
        #expect(started.methods.map { $0["type"] as? String } == ["email", "password"])
        #expect(started.methods[0]["hint"] as? String == "a****a@e****e" && started.methods[1]["hint"] == nil)
        let passwordId = try #require(started.methods[1]["id"] as? String)
        // The listed password method cannot be challenged (Choice); the list stays usable.
        let refused = c.challenge(started, type: "password")
        #expect(refused.status == 400 && refused.hal.code == "invalidRequest" && refused.hal.message?.hasPrefix("AADSTS90100:") == true)

        let sent = c.challenge(started, type: "email")
        #expect(sent.action == "verify" && sent["codeLength"] as? Int == 8 && sent["scenario"] as? String == "recovery")
        let asked = c.verify(sent, ["otp": try code(c, H.ada, purpose: "reset_password")])
        #expect(asked.action == "update" && asked["id"] as? String == passwordId && asked["type"] as? String == "password", "\(asked.json)")
        #expect((asked["payload"] as? [String: Any])?.isEmpty == true)
        #expect(asked.link("update") == "/emulator.onmicrosoft.com/api/v2.0/auth/methods/password/\(passwordId)")
        // update is PUT only.
        let wrongMethod = c.follow(asked.link("update"), ["continuationToken": asked.ct ?? "", "newPassword": Self.newPassword])
        #expect(wrongMethod.status == 405 && wrongMethod.headers["Allow"] == "PUT")
        // Weak, banned and reused passwords: 120002, the token stays usable.
        for (weak, inner) in [
            ("short", "passwordTooWeak"), ("Password-Strong-1", "passwordBanned"), (H.adaPassword, "passwordRecentlyUsed"),
        ] {
            let answer = update(c, asked, weak)
            #expect(answer.status == 400 && answer.hal.code == "invalidRequest" && answer.hal.inner == inner, "\(weak): \(answer.json)")
            #expect(answer.hal.message?.hasPrefix("AADSTS120002:") == true)
        }
        let polling = update(c, asked, Self.newPassword)
        #expect(polling.action == "poll" && polling["pollInterval"] == nil, "\(polling.json)")
        #expect(polling.link("poll") == "/emulator.onmicrosoft.com/api/v2.0/auth/methods/password/\(passwordId)/pollUpdate")
        // The update step is over.
        #expect(update(c, asked, Self.newPassword).hal.inner == "invalidContinuationToken")
        let inProgress = poll(c, polling)
        #expect(inProgress.action == "poll" && inProgress.ct != polling.ct)
        // Not applied while polls remain.
        #expect(try v1SignIn(h, H.ada, H.adaPassword).status == 200)
        let done = poll(c, inProgress)
        #expect(done.state == "continue" && done["scenario"] as? String == "recovery", "\(done.json)")
        let tokens = try c.finish(done)
        #expect(try claims(tokens["id_token"], h)["preferred_username"] as? String == H.ada)

        // The new password is V1's and V2's; the old one fails; earlier refresh tokens are revoked.
        #expect(try v1SignIn(h, H.ada, H.adaPassword).status == 400)
        #expect(try v1SignIn(h, H.ada, Self.newPassword).status == 200)
        #expect(c.password(H.ada, Self.newPassword).state == "continue")
        let refreshed = h.post(
            "/oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": before["refresh_token"] as? String, "scope": C.scope])
        #expect(refreshed.status == 400 && refreshed.error == "invalid_grant")
    }

    @Test func resetBySMSHopsPollsAsSetAndAsksMFAAfterTheNewPassword() throws {
        let h = try H()
        let c = C(h)
        #expect(h.hook("POST", "v2", json: ["poll_in_progress": 2, "poll_interval_ms": 1500]).status == 200)
        let started = resetStart(c, C.margaret)
        #expect(started.methods.map { $0["type"] as? String } == ["email", "sms", "password"])
        #expect(started.methods.map { $0["hint"] as? String } == ["m****t@e****e", "+*******0101", nil])
        let hop = c.challenge(started, type: "sms")
        #expect(hop.action == "riskverify" && hop["scenario"] as? String == "recovery", "\(hop.json)")
        let sent = c.follow(hop.link("riskverify"), ["continuationToken": hop.ct ?? ""])
        #expect(sent.action == "verify" && sent["codeLength"] as? Int == 6 && sent["hint"] as? String == "+*******0101")
        let mail = try #require(c.lastMail(C.margaret))
        #expect(mail["channel"] as? String == "sms" && mail["target"] as? String == "+15550101")
        let asked = c.verify(sent, ["otp": try code(c, C.margaret, purpose: "reset_password", length: 6)])
        var answer = update(c, asked, Self.newPassword)
        var polls = 0
        while answer.action == "poll" {
            #expect(answer["pollInterval"] as? Int == 1500)
            polls += 1
            answer = poll(c, answer)
        }
        // The PUT's poll and two in progress, then the answer after the password.
        #expect(polls == 3)
        #expect(answer.action == "challenge" && answer["scenario"] as? String == "recovery", "\(answer.json)")
        #expect((answer["challengeContext"] as? [String: Any])?["authenticationFactor"] as? String == "multiFactor")
        #expect(answer.methods.map { $0["hint"] as? String } == ["m****p@e****e"])
        let mfa = c.challenge(answer, type: "email")
        let done = c.verify(mfa, ["otp": try code(c, C.margaret, purpose: "mfa")])
        let tokens = try c.finish(done)
        #expect(try claims(tokens["id_token"], h)["preferred_username"] as? String == C.margaret)
        // The next sign-in takes the new password, then asks MFA.
        #expect(c.password(C.margaret, Self.newPassword).action == "challenge")
        #expect(c.password(C.margaret, "Apollo-Guidance-1969").hal.inner == "invalidUserNameOrPassword")
    }

    @Test func resetErrorRows() throws {
        let h = try H()
        let c = C(h)
        let grace = resetStart(c, H.grace)
        #expect(grace.status == 400 && grace.hal.code == "invalidRequest" && grace.hal.inner == "userDoesNotHavePassword")
        #expect(grace.hal.message?.hasPrefix("AADSTS500222:") == true)
        let nobody = resetStart(c, "nobody@example.com")
        #expect(nobody.hal.inner == "userNotFound" && nobody.hal.message?.hasPrefix("AADSTS50034:") == true)
        let malformed = resetStart(c, "nobody")
        #expect(malformed.hal.code == "invalidRequest" && malformed.hal.message?.hasPrefix("AADSTS90100:") == true)
        // A browser-only user: the browser fallback at every V2 start (reset, sign-up discovery).
        let hedy = resetStart(c, C.hedy)
        #expect(hedy.status == 400 && hedy.state == "webFallbackRequired" && hedy.hal.inner == "web_redirect_required")
        #expect(signUpStart(c, C.hedy).state == "webFallbackRequired")
        // Wrong recovery codes: usable until the fifth, which ends the flow.
        let sent = c.challenge(resetStart(c, H.ada), type: "email")
        for attempt in 1...5 {
            let wrong = c.verify(sent, ["otp": "00000000"])
            #expect(wrong.hal.inner == (attempt < 5 ? "invalidOneTimeCode" : "tooManyAttempts"))
        }
        // Tokens of other steps: the poll route with an update token, the update route with a code token.
        let other = c.challenge(resetStart(c, H.ada), type: "email")
        let asked = c.verify(other, ["otp": try #require(c.lastMail(H.ada)?["code"] as? String)])
        let pollLink = try #require(asked.link("update")) + "/pollUpdate"
        #expect(c.follow(pollLink, ["continuationToken": asked.ct ?? ""]).hal.inner == "invalidContinuationToken")
        #expect(
            c.follow(asked.link("update"), ["continuationToken": other.ct ?? "", "newPassword": Self.newPassword], method: "PUT").hal.inner
                == "invalidContinuationToken")
        #expect(
            c.follow(asked.link("update"), ["continuationToken": asked.ct ?? ""], method: "PUT").hal.message?.hasPrefix("AADSTS90100:")
                == true)
    }

    // MARK: Inline recovery

    @Test func inlineRecoveryFromTheSignInResumesTheSignInItself() throws {
        let h = try H()
        let c = C(h)
        let started = c.start(H.ada)
        let id = try #require(started.methods.first?["id"] as? String)
        #expect(started.methodLink("password", "recover") == "/emulator.onmicrosoft.com/api/v2.0/auth/methods/password/\(id)/recover")
        let asked = c.challenge(started, type: "password")
        #expect(asked.link("recover") == started.methodLink("password", "recover"))
        // A wrong password first; then recovery from the password step.
        #expect(c.verify(asked, ["password": "Wrong-Password-1"]).hal.inner == "invalidUserNameOrPassword")
        let methods = c.follow(asked.link("recover"), ["continuationToken": asked.ct ?? ""])
        #expect(methods.action == "challenge" && methods["scenario"] as? String == "recovery", "\(methods.json)")
        #expect(methods.methods.map { $0["type"] as? String } == ["email", "password"])
        #expect(methods.methods.last?["id"] as? String == id)
        // The password step is over.
        #expect(c.verify(asked, ["password": H.adaPassword]).hal.inner == "invalidContinuationToken")
        let sent = c.challenge(methods, type: "email")
        let update = c.verify(sent, ["otp": try code(c, H.ada, purpose: "reset_password")])
        #expect(update.link("update") == "/emulator.onmicrosoft.com/api/v2.0/auth/methods/password/\(id)")
        let polling = self.update(c, update, Self.newPassword)
        let done = poll(c, poll(c, polling))
        #expect(done.state == "continue" && done["scenario"] as? String == "recovery", "\(done.json)")
        let tokens = try c.finish(done)
        #expect(try claims(tokens["id_token"], h)["preferred_username"] as? String == H.ada)
        #expect(try v1SignIn(h, H.ada, Self.newPassword).status == 200)
        // From the method list too; a recover link of another method is refused.
        let again = c.start(H.ada)
        #expect(c.follow(again.methodLink("password", "recover"), ["continuationToken": again.ct ?? ""]).action == "challenge")
        let other = c.start(C.barbara)
        let foreign = c.follow(started.methodLink("password", "recover"), ["continuationToken": other.ct ?? ""])
        #expect(foreign.status == 400 && foreign.hal.code == "invalidRequest")
        // Email methods have no recover link.
        #expect(other.methodLink("email", "recover") == nil && other.methodLink("password", "recover") != nil)
    }

    // MARK: Log

    @Test func theRequestLogRedactsNewPasswordsAndAttributePasswords() throws {
        let h = try H()
        let c = C(h)
        let sent = submit(c, signUpStart(c, "lin@example.com"), ["email": "lin@example.com"])
        let asked = c.verify(sent, ["otp": try #require(c.lastMail("lin@example.com")?["code"] as? String)])
        _ = submit(c, asked, ["password": "Hamming-Code-1950", "displayName": "Lin"])
        let reset = c.verify(c.challenge(resetStart(c, H.ada), type: "email"), ["otp": try #require(c.lastMail(H.ada)?["code"] as? String)])
        _ = update(c, reset, Self.newPassword)
        let log = h.hook("GET", "requests").list
        let text = String(decoding: try JSONSerialization.data(withJSONObject: log), as: UTF8.self)
        for secret in ["Hamming-Code-1950", Self.newPassword] { #expect(!text.contains(secret), "\(secret) in the log") }
        let fields = log.compactMap { $0["fields"] as? [String: String] }
        #expect(fields.contains { $0["newPassword"] == "<redacted>" })
        #expect(fields.contains { $0["attributes"]?.contains("<redacted>") == true && $0["attributes"]?.contains("Lin") == true })
        #expect(
            log.contains {
                ($0["method"] as? String) == "PUT" && ($0["endpoint"] as? String)?.hasPrefix("/api/v2.0/auth/methods/password/") == true
            })
    }
}
