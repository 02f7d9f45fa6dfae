import Foundation
import TestSupport
import Testing

@testable import NativeAuthEmulator

/// The emulator's V2 journeys, continued: password reset, inline recovery, and the request log.
extension V2SignUpResetTests {
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
