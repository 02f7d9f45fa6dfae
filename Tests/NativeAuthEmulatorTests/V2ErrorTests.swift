import Foundation
import TestSupport
import Testing

@testable import NativeAuthEmulator

/// The error catalogue rows V2 sign-in reaches, the token rules, and the OAuth endpoints' flat errors
/// (docs/protocol.md#native-auth-v2-experimental).
@Suite struct V2ErrorTests {
    typealias H = EmulatorHarness
    typealias C = V2TestClient

    @Test func anUnknownUserIsANestedErrorWithEveryMember() throws {
        let h = try H()
        let reply = C(h).start("nobody@example.com", extra: [:])
        #expect(reply.status == 400 && reply.hal.code == "invalidRequest" && reply.hal.inner == "userNotFound")
        #expect(reply.hal.message?.hasPrefix("AADSTS50034: ") == true)
        let error = try #require(reply["error"] as? [String: Any])
        for key in ["timestamp", "traceId", "correlationId"] { #expect(error[key] != nil, "\(key)") }
        #expect(reply.headers["x-ms-request-id"] != nil)
    }

    @Test func aMalformedUsernameIsInvalidRequest90100() throws {
        let h = try H()
        for username in ["not-an-address", ""] {
            let reply = C(h).start(username)
            #expect(
                reply.status == 400 && reply.hal.code == "invalidRequest" && reply.hal.message?.hasPrefix("AADSTS90100: username") == true)
        }
    }

    /// The pairs recorded from the service's V2 traffic (docs/protocol.md#native-auth-v2-experimental): an unknown, retired or
    /// other-step token is `invalidRequest`/`invalidContinuationToken` AADSTS10040144.
    @Test func unknownRetiredAndWrongStepTokensAreInvalidContinuationToken10040144() throws {
        let h = try H()
        let c = C(h)
        let entry = c.entry()
        let signIn = entry["sign_in"] as? String
        func isInvalid(_ reply: H.Reply) -> Bool {
            reply.status == 400 && reply.hal.code == "invalidRequest" && reply.hal.inner == "invalidContinuationToken"
                && reply.hal.message == "AADSTS10040144: The continuation_token is invalid."
        }
        #expect(isInvalid(c.follow(signIn, ["username": H.ada, "continuationToken": "nope"])))
        // The entry's token at a method's challenge: wrong step.
        let started = c.follow(signIn, ["username": H.ada, "continuationToken": entry.token ?? ""])
        #expect(isInvalid(c.follow(started.methodLink("password", "challenge"), ["continuationToken": entry.token ?? ""])))
        // The entry's token is retired once the flow moved on.
        #expect(isInvalid(c.follow(signIn, ["username": H.ada, "continuationToken": entry.token ?? ""])))
        // A sign-in token is not a resume token (flat, OAuth endpoint).
        let resumed = c.form("authorize-challenge", ["continuation_token": started.ct])
        #expect(resumed.status == 400 && resumed.error == "invalid_grant" && resumed.codes == [55200])
    }

    /// No token, or an empty one, is a missing parameter: AADSTS90100, as a missing username is.
    @Test func aMissingTokenIsTheMissingParameter90100() throws {
        let h = try H()
        let c = C(h)
        let signIn = c.entry()["sign_in"] as? String
        for body: [String: Any] in [["username": H.ada], ["username": H.ada, "continuationToken": ""]] {
            let reply = c.follow(signIn, body)
            #expect(reply.status == 400 && reply.hal.code == "invalidRequest" && reply.hal.inner == "invalidContinuationToken")
            #expect(reply.hal.message == "AADSTS90100: continuationToken parameter is empty or not valid.", "\(body)")
        }
    }

    @Test func anExpiredTokenIsExpiredTokenExpiredContinuationToken552001() throws {
        let h = try H()
        let c = C(h)
        let started = c.start(H.ada)
        h.advanceClock(601)
        let reply = c.challenge(started, type: "password")
        #expect(reply.status == 400 && reply.hal.code == "expiredToken" && reply.hal.inner == "expiredContinuationToken")
        #expect(reply.hal.message == "AADSTS552001: The continuation_token has expired.")
        // Entry tokens too.
        let entry = c.entry()
        h.advanceClock(601)
        let expired = c.follow(entry["sign_in"] as? String, ["username": H.ada, "continuationToken": entry.token ?? ""])
        #expect(expired.hal.code == "expiredToken" && expired.hal.inner == "expiredContinuationToken")
    }

    @Test func everyAnswerCarriesANewTokenBoundToItsStep() throws {
        let h = try H()
        let c = C(h)
        let entry = c.entry()
        let started = c.follow(entry["sign_in"] as? String, ["username": H.grace, "continuationToken": entry.token ?? ""])
        let challenged = c.challenge(started, type: "email")
        let tokens = [entry.token, started.ct, challenged.ct].compactMap { $0 }
        #expect(Set(tokens).count == 3 && tokens.allSatisfy { $0.count == 43 })
        // A resend answer gets a new token too.
        let resent = c.follow(challenged.link("resend"), ["continuationToken": challenged.ct ?? ""])
        #expect(resent.ct != nil && resent.ct != challenged.ct)
    }

    @Test func aWrongCodeLeavesTheTokenUsable() throws {
        let h = try H()
        let c = C(h)
        let challenged = c.challenge(c.start(H.grace), type: "email")
        let wrong = c.verify(challenged, ["otp": "00000000"])
        #expect(wrong.status == 400 && wrong.hal.code == "invalidGrant" && wrong.hal.inner == "invalidOneTimeCode")
        #expect(wrong.hal.message?.hasPrefix("AADSTS50181:") == true)
        let code = try #require(c.lastMail(H.grace)?["code"] as? String)
        #expect(c.verify(challenged, ["otp": code]).state == "continue")
    }

    @Test func tooManyWrongCodesEndTheFlow() throws {
        let h = try H()
        let c = C(h)
        let challenged = c.challenge(c.start(H.grace), type: "email")
        for _ in 1..<5 { #expect(c.verify(challenged, ["otp": "00000000"]).hal.inner == "invalidOneTimeCode") }
        let last = c.verify(challenged, ["otp": "00000000"])
        #expect(
            last.hal.code == "invalidGrant" && last.hal.inner == "tooManyAttempts" && last.hal.message?.hasPrefix("AADSTS50053:") == true)
        let code = try #require(c.lastMail(H.grace)?["code"] as? String)
        #expect(c.verify(challenged, ["otp": code]).hal.inner == "invalidContinuationToken")
    }

    @Test func aWrongPasswordLeavesTheTokenUsable() throws {
        let h = try H()
        let c = C(h)
        let asked = c.challenge(c.start(H.ada), type: "password")
        let wrong = c.verify(asked, ["password": "Not-Her-Password-1"])
        #expect(wrong.status == 400 && wrong.hal.code == "invalidGrant" && wrong.hal.inner == "invalidUserNameOrPassword")
        #expect(wrong.hal.message?.hasPrefix("AADSTS50126:") == true)
        #expect(c.verify(asked, ["password": H.adaPassword]).state == "continue")
    }

    @Test func tooManyWrongPasswordsEndTheFlowAsWrongCodesDo() throws {
        let h = try H { $0.maxPasswordAttempts = 3 }
        let c = C(h)
        let asked = c.challenge(c.start(H.ada), type: "password")
        for _ in 1..<3 { #expect(c.verify(asked, ["password": "Not-Her-Password-1"]).hal.inner == "invalidUserNameOrPassword") }
        let last = c.verify(asked, ["password": "Not-Her-Password-1"])
        #expect(last.status == 400 && last.hal.code == "invalidGrant" && last.hal.inner == "tooManyAttempts", "\(last.json)")
        #expect(last.hal.message?.hasPrefix("AADSTS50053:") == true)
        // The token is spent: the right password on it is refused too.
        #expect(c.verify(asked, ["password": H.adaPassword]).hal.inner == "invalidContinuationToken")
    }

    @Test func injectedServerFailuresReachV2Routes() throws {
        let h = try H()
        let c = C(h)
        #expect(h.hook("POST", "faults", json: [["endpoint": "/signin/start", "status": 500]]).status == 200)
        let failed = c.start(H.ada)
        #expect(failed.status == 500)
        #expect(failed.hal.code == "serverError" && failed.hal.message?.hasPrefix("AADSTS") == true, "\(failed.json)")
        #expect(c.start(H.ada).status == 200)
    }

    @Test func toleranceUnknownMembersAndQueryParametersButNotMalformedJSON() throws {
        let h = try H()
        let c = C(h)
        let entry = c.entry()
        let started = c.follow(
            entry["sign_in"] as? String, ["username": H.ada, "continuationToken": entry.token ?? "", "somethingNew": ["x": 1]])
        #expect(started.action == "challenge")
        let malformed = h.send(
            "POST", started.methodLink("password", "challenge") ?? "", body: Data("{not json".utf8),
            headers: ["Content-Type": "application/json"])
        #expect(
            malformed.status == 400 && malformed.hal.code == "invalidRequest" && malformed.hal.message?.hasPrefix("AADSTS90100:") == true)
        // Query parameters (`dc`) are ignored.
        let withQuery = h.send(
            "POST", started.methodLink("password", "challenge") ?? "", query: ["dc": "ESTS-PUB-WUS2-AZ1-FD000-TEST1"],
            body: try JSONSerialization.data(withJSONObject: ["continuationToken": started.ct ?? ""]),
            headers: ["Content-Type": "application/json"])
        #expect(withQuery.action == "verify")
    }

    @Test func unknownRoutesWrongMethodsAndLargeBodies() throws {
        let h = try H()
        let c = C(h)
        #expect(c.follow("/emulator.onmicrosoft.com/api/v2.0/signin/begin", [:]).status == 404)
        #expect(c.follow("/emulator.onmicrosoft.com/api/v9.9/signin/start", [:]).status == 404)
        let get = c.follow("/emulator.onmicrosoft.com/api/v2.0/signin/start", [:], method: "GET")
        #expect(get.status == 405 && get.headers["Allow"] == "POST")
        #expect(c.follow("/emulator.onmicrosoft.com/oauth2/v2.0/authorize-challenge", [:], method: "GET").status == 405)
        let big = h.send(
            "POST", "/emulator.onmicrosoft.com/api/v2.0/signin/start", body: Data(repeating: UInt8(ascii: " "), count: 64 * 1024 + 1),
            headers: ["Content-Type": "application/json"])
        #expect(big.status == 413)
    }

    @Test func entryErrorsAreFlat() throws {
        var seed = Seed.demo
        seed.apps[1].v2Enabled = false
        let h = try H(seed: seed)
        let c = C(h)
        let noClient = c.form("authorize-challenge", ["response_type": "code"])
        #expect(noClient.status == 400 && noClient.error == "invalid_request" && noClient.codes == [90100])
        #expect(c.entry(clientId: "99999999-0000-0000-0000-000000000000").error == "unauthorized_client")
        let disabled = c.entry(clientId: H.codeApp)
        #expect(disabled.error == "invalid_client" && disabled.suberror == "nativeauthapi_disabled")
        #expect(c.entry(extra: ["response_type": "token"]).error == "unsupported_response_type")
        #expect(c.entry(extra: ["claims": "{nope"]).error == "invalid_request")
        #expect(c.entry(scope: "api://elsewhere/Read").error == "invalid_scope")
    }

    @Test func theResumeIsSingleUseAndChecksTheClient() throws {
        let h = try H()
        let c = C(h)
        let done = c.password(H.ada, H.adaPassword)
        let other = c.form("authorize-challenge", ["continuation_token": done.ct, "client_id": H.codeApp])
        #expect(other.status == 400 && other.error == "invalid_grant")
        let resumed = c.form("authorize-challenge", ["continuation_token": done.ct, "client_id": H.passwordApp])
        #expect(resumed.status == 200 && resumed.json.keys.sorted() == ["code"])
        let spent = c.resume(done)
        #expect(spent.status == 400 && spent.error == "invalid_grant")
    }

    @Test func aV2CodeIsSingleUseAndAReplayRevokesItsRefreshTokens() throws {
        let h = try H()
        let c = C(h)
        let code = c.resume(c.password(H.ada, H.adaPassword))["code"] as? String
        let tokens = c.redeem(code)
        #expect(tokens.status == 200 && tokens["redirect_uri"] == nil)
        let replay = c.redeem(code)
        #expect(replay.error == "invalid_grant" && replay.codes == [54005])
        let refreshed = h.post("/oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": tokens["refresh_token"] as? String])
        #expect(refreshed.error == "invalid_grant")
        #expect(c.redeem("no-such-code").error == "invalid_grant")
        let another = c.resume(c.password(H.ada, H.adaPassword))["code"] as? String
        #expect(c.redeem(another, clientId: H.codeApp).codes == [700005])
    }

    @Test func pkceIsCheckedOnlyWhenTheEntrySentAChallenge() throws {
        let h = try H()
        let c = C(h)
        let verifier = String(repeating: "v", count: 43)
        let challenge = Base64URLCoding.encode(BrowserRules.sha256(Data(verifier.utf8)))
        let entry = c.entry(extra: ["code_challenge": challenge, "code_challenge_method": "S256"])
        let started = c.follow(entry["sign_in"] as? String, ["username": H.ada, "continuationToken": entry.token ?? ""])
        let done = c.verify(c.challenge(started, type: "password"), ["password": H.adaPassword])
        let code = c.resume(done)["code"] as? String
        let missing = c.redeem(code)
        #expect(missing.error == "invalid_grant" && missing.codes == [50148])
        #expect(c.redeem(code, extra: ["code_verifier": String(repeating: "w", count: 43)]).codes == [50148])
        #expect(c.redeem(code, extra: ["code_verifier": verifier]).status == 200)
    }

    @Test func aFailedStartLeavesTheEntryTokenUsableAndEchoesTheCorrelationId() throws {
        let h = try H()
        let c = C(h)
        let entry = c.entry()
        let id = "6B29FC40-CA47-1067-B31D-00DD010662DA"
        let nobody = c.follow(
            entry["sign_in"] as? String, ["username": "nobody@example.com", "continuationToken": entry.token ?? ""],
            headers: ["client-request-id": id])
        #expect(nobody.hal.inner == "userNotFound" && nobody.headers["client-request-id"] == id)
        #expect((nobody["error"] as? [String: Any])?["correlationId"] as? String == id.lowercased())
        let ok = c.follow(entry["sign_in"] as? String, ["username": H.ada, "continuationToken": entry.token ?? ""])
        #expect(ok.action == "challenge")
    }

    @Test func aBlockedEmailMethodIsRefusedAtItsChallenge() throws {
        var seed = Seed.demo
        seed.users[2].strongAuthMethods[0].blocked = true // alan's email method
        let h = try H(seed: seed)
        let c = C(h)
        let mfa = c.password(H.alan, C.alanPassword)
        let refused = c.challenge(mfa, type: "email")
        #expect(refused.status == 400 && refused.hal.code == "accessDenied" && refused.hal.inner == "providerBlockedByRep")
        #expect(c.lastMail(H.alan) == nil)
        #expect(c.challenge(mfa, type: "sms").action == "riskverify")
    }

    @Test func v1AndV2TokensNeverMix() throws {
        let h = try H()
        let c = C(h)
        let v1 = try h.passwordToken()
        let entry = c.entry()
        #expect(
            c.follow(entry["sign_in"] as? String, ["username": H.ada, "continuationToken": v1]).hal.inner == "invalidContinuationToken")
        #expect(c.form("authorize-challenge", ["continuation_token": v1]).error == "invalid_grant")
        let started = c.start(H.ada)
        #expect(h.challenge(started.ct).codes == [55200])
        #expect(h.passwordGrant(c.challenge(started, type: "password").ct ?? "").codes == [55200])
    }
}
