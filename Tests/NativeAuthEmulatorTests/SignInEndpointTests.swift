import Foundation
import TestSupport
import Testing

@testable import NativeAuthEmulator

@Suite struct SignInEndpointTests {
    typealias H = EmulatorHarness

    @Test func initiateValidatesInTheDocumentedOrder() throws {
        let h = try H()
        let noClient = h.post("/oauth2/v2.0/initiate", ["username": H.ada, "challenge_type": H.all], clientId: nil)
        #expect(noClient.status == 400 && noClient.error == "invalid_request" && noClient.codes == [90100])
        let unknown = h.initiate(H.ada, clientId: "99999999-0000-0000-0000-000000000000")
        #expect(unknown.error == "unauthorized_client")
        let noRedirect = h.initiate(H.ada, types: "oob password")
        #expect(noRedirect.error == "invalid_request" && noRedirect.codes == [901007])
        let odd = h.initiate(H.ada, types: "oob sms redirect")
        #expect(odd.error == "unsupported_challenge_type")
        let missingUser = h.post("/oauth2/v2.0/initiate", ["challenge_type": H.all])
        #expect(missingUser.error == "invalid_request" && missingUser.codes == [900144])
        let nobody = h.initiate("nobody@example.com")
        #expect(nobody.error == "user_not_found" && nobody.codes == [50034])
        let ok = h.initiate(H.ada)
        #expect(ok.status == 200 && ok.token != nil)
    }

    @Test func appNotEnabledForNativeAuthIsInvalidClient() throws {
        var seed = Seed.demo
        seed.apps[0].nativeAuthEnabled = false
        let h = try H(seed: seed)
        let reply = h.initiate(H.ada)
        #expect(reply.error == "invalid_client" && reply.suberror == "nativeauthapi_disabled")
    }

    @Test func everyErrorBodyIsComplete() throws {
        let h = try H()
        let reply = h.initiate("nobody@example.com")
        let description = try #require(reply["error_description"] as? String)
        #expect(description.hasPrefix("AADSTS50034: "))
        #expect(description.contains("Trace ID: ") && description.contains("Correlation ID: ") && description.contains("Timestamp: "))
        for key in ["timestamp", "trace_id", "correlation_id", "error_uri"] { #expect(reply[key] != nil, "\(key)") }
        #expect(reply.headers["Content-Type"]?.hasPrefix("application/json") == true)
    }

    @Test func clientRequestIdIsEchoedAndUsedAsCorrelationId() throws {
        let h = try H()
        let id = "6B29FC40-CA47-1067-B31D-00DD010662DA"
        let reply = h.post(
            "/oauth2/v2.0/initiate", ["username": "nobody@example.com", "challenge_type": H.all], headers: ["client-request-id": id])
        #expect(reply.headers["client-request-id"] == id)
        #expect(reply["correlation_id"] as? String == id.lowercased())
    }

    @Test func passwordUserGetsAPasswordChallenge() throws {
        let h = try H()
        let reply = h.challenge(h.initiate(H.ada).token)
        #expect(reply.status == 200 && reply["challenge_type"] as? String == "password" && reply.token != nil)
    }

    @Test func codeUserGetsACodeByMail() throws {
        let h = try H()
        let reply = h.challenge(h.initiate(H.grace, clientId: H.codeApp).token, clientId: H.codeApp)
        #expect(reply["challenge_type"] as? String == "oob")
        #expect(reply["challenge_channel"] as? String == "email")
        #expect(reply["binding_method"] as? String == "prompt")
        #expect(reply["code_length"] as? Int == 8)
        #expect(reply["challenge_target_label"] as? String == "g***e@e*****e.com")
        let mail = h.hook("GET", "mailbox", query: ["username": H.grace]).list
        #expect(mail.count == 1 && mail[0]["purpose"] as? String == "sign_in")
        #expect((mail[0]["code"] as? String)?.count == 8)
        #expect((mail[0]["code"] as? String)?.allSatisfy(\.isNumber) == true)
    }

    @Test func aMethodTheClientCannotHandleRedirects() throws {
        let h = try H()
        let codeUser = h.challenge(h.initiate(H.grace, types: "password redirect").token, types: "password redirect")
        #expect(codeUser.status == 200 && codeUser["challenge_type"] as? String == "redirect" && codeUser["redirect_reason"] != nil)
        let passwordUser = h.challenge(h.initiate(H.ada, types: "oob redirect").token, types: "oob redirect")
        #expect(passwordUser["challenge_type"] as? String == "redirect")
    }

    @Test func anEmailAndPasswordUserFlowRedirectsAClientWithoutPasswordsEvenForACodeUser() throws {
        let h = try H()
        // The email + password app, a user who signs in with a code, a client that declares only `oob`:
        // the client cannot do what the user flow requires, so the browser, and no code is sent.
        let onlyCodes = h.challenge(h.initiate(H.grace, types: "oob redirect").token, types: "oob redirect")
        #expect(onlyCodes.status == 200 && onlyCodes["challenge_type"] as? String == "redirect", "\(onlyCodes.json)")
        #expect((onlyCodes["redirect_reason"] as? String)?.contains("password") == true)
        #expect(h.hook("GET", "mailbox", query: ["username": H.grace]).list.isEmpty)
        // With `password` declared too, the same user gets a code (docs/protocol.md#sign-in-endpoints)…
        let both = h.challenge(h.initiate(H.grace).token)
        #expect(both["challenge_type"] as? String == "oob", "\(both.json)")
        // …and on the email-code app `oob` alone is enough.
        let codeApp = h.challenge(
            h.initiate(H.grace, clientId: H.codeApp, types: "oob redirect").token, clientId: H.codeApp, types: "oob redirect")
        #expect(codeApp["challenge_type"] as? String == "oob", "\(codeApp.json)")
        #expect(h.hook("GET", "mailbox", query: ["username": H.grace]).list.count == 2)
    }

    @Test func continuationTokensAreCheckedForValidityEndpointAndExpiry() throws {
        let h = try H()
        #expect(h.challenge("not-a-token").error == "invalid_request")
        #expect(h.challenge("not-a-token").codes == [55200])
        // An initiate token is not a token-endpoint token.
        let t0 = try #require(h.initiate(H.ada).token)
        let wrong = h.passwordGrant(t0)
        #expect(wrong.error == "invalid_request" && wrong.codes == [901007])
        // A token of another client is invalid.
        #expect(h.challenge(t0, clientId: H.codeApp).codes == [55200])
        // Expiry.
        let t1 = try #require(h.initiate(H.ada).token)
        h.advanceClock(601)
        let expired = h.challenge(t1)
        #expect(expired.error == "expired_token" && expired.codes == [552003])
    }

    @Test func wrongPasswordKeepsTheTokenUsable() throws {
        let h = try H()
        let t1 = try h.passwordToken()
        let wrong = h.passwordGrant(t1, password: "Wrong-Password-1")
        #expect(wrong.error == "invalid_grant" && wrong.codes == [50126])
        let right = h.passwordGrant(t1)
        #expect(right.status == 200)
        // Once used, the token is spent.
        #expect(h.passwordGrant(t1).status == 400)
    }

    @Test func tooManyWrongPasswordsEndTheFlow() throws {
        let h = try H { $0.maxPasswordAttempts = 2 }
        let t1 = try h.passwordToken()
        _ = h.passwordGrant(t1, password: "Wrong-Password-1")
        _ = h.passwordGrant(t1, password: "Wrong-Password-2")
        #expect(h.passwordGrant(t1).status == 400)
    }

    @Test func codeSignInWithWrongCodeResendAndAttemptLimit() throws {
        let h = try H { $0.maxCodeAttempts = 3 }
        let first = h.challenge(h.initiate(H.grace, clientId: H.codeApp).token, clientId: H.codeApp)
        let t1 = try #require(first.token)
        let code1 = try #require(h.lastCode(H.grace))
        let wrong = h.post(
            "/oauth2/v2.0/token", ["continuation_token": t1, "grant_type": "oob", "oob": "00000000", "scope": "openid"], clientId: H.codeApp
        )
        #expect(wrong.error == "invalid_grant" && wrong.suberror == "invalid_oob_value")

        // Resend: a new, different code; the old code no longer works.
        let resent = h.challenge(t1, clientId: H.codeApp)
        let t2 = try #require(resent.token)
        let code2 = try #require(h.lastCode(H.grace))
        #expect(code1 != code2)
        let old = h.post(
            "/oauth2/v2.0/token", ["continuation_token": t2, "grant_type": "oob", "oob": code1, "scope": "openid"], clientId: H.codeApp)
        #expect(old.suberror == "invalid_oob_value")
        let good = h.post(
            "/oauth2/v2.0/token", ["continuation_token": t2, "grant_type": "oob", "oob": code2, "scope": "openid", "client_info": "1"],
            clientId: H.codeApp)
        #expect(good.status == 200 && good["id_token"] != nil && good["client_info"] != nil)

        // Attempt limit: the third wrong code ends the flow.
        let t3 = try #require(h.challenge(h.initiate(H.grace, clientId: H.codeApp).token, clientId: H.codeApp).token)
        let code3 = try #require(h.lastCode(H.grace))
        for _ in 0..<3 {
            _ = h.post(
                "/oauth2/v2.0/token", ["continuation_token": t3, "grant_type": "oob", "oob": "11111111", "scope": "openid"],
                clientId: H.codeApp)
        }
        let after = h.post(
            "/oauth2/v2.0/token", ["continuation_token": t3, "grant_type": "oob", "oob": code3, "scope": "openid"], clientId: H.codeApp)
        #expect(after.status == 400 && after.error == "invalid_grant")
    }

    /// MSAL's end-to-end tests submit the resent code with the token of the state that asked for
    /// the resend: a resend stays on the code step, so that token keeps working.
    @Test func theTokenThatAskedForAResendTakesTheNewCode() throws {
        let h = try H()
        let t1 = try #require(h.challenge(h.initiate(H.grace, clientId: H.codeApp).token, clientId: H.codeApp).token)
        let t2 = try #require(h.challenge(t1, clientId: H.codeApp).token)
        #expect(t1 != t2)
        let code2 = try #require(h.lastCode(H.grace))
        let good = h.post(
            "/oauth2/v2.0/token", ["continuation_token": t1, "grant_type": "oob", "oob": code2, "scope": "openid"], clientId: H.codeApp)
        #expect(good.status == 200 && good["id_token"] != nil)
        // Once the flow moved past the code step, neither token works.
        let spent = h.post(
            "/oauth2/v2.0/token", ["continuation_token": t2, "grant_type": "oob", "oob": code2, "scope": "openid"], clientId: H.codeApp)
        #expect(spent.status == 400)
    }

    @Test func codesExpire() throws {
        let h = try H { $0.codeLifetime = 60 }
        let t1 = try #require(h.challenge(h.initiate(H.grace, clientId: H.codeApp).token, clientId: H.codeApp).token)
        let code = try #require(h.lastCode(H.grace))
        h.advanceClock(61)
        let late = h.post(
            "/oauth2/v2.0/token", ["continuation_token": t1, "grant_type": "oob", "oob": code, "scope": "openid"], clientId: H.codeApp)
        #expect(late.suberror == "invalid_oob_value")
    }
}
