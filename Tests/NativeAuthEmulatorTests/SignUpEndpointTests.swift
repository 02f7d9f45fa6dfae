import Foundation
import TestSupport
import Testing

@testable import NativeAuthEmulator

@Suite struct SignUpEndpointTests {
    typealias H = EmulatorHarness
    static let newUser = "new.user@example.com"
    static let goodPassword = "Fresh-Start-2026"

    private func start(_ h: H, password: String? = goodPassword, attributes: String? = nil, clientId: String = H.passwordApp) -> H.Reply {
        h.post(
            "/signup/v1.0/start", ["username": Self.newUser, "password": password, "attributes": attributes, "challenge_type": H.all],
            clientId: clientId)
    }

    private func verify(_ h: H, _ token: String?, clientId: String = H.passwordApp) throws -> H.Reply {
        let challenge = h.post("/signup/v1.0/challenge", ["continuation_token": token, "challenge_type": H.all], clientId: clientId)
        try #require(challenge["challenge_type"] as? String == "oob", "\(challenge.json)")
        let code = try #require(h.lastCode(Self.newUser))
        return h.post(
            "/signup/v1.0/continue", ["continuation_token": challenge.token, "grant_type": "oob", "oob": code], clientId: clientId)
    }

    @Test func passwordAtStartThenCodeThenAttributesThenSignIn() throws {
        let h = try H()
        let verified = try verify(h, start(h).token)
        #expect(verified.error == "attributes_required" && verified.codes == [55106])
        let required = try #require(verified["required_attributes"] as? [[String: Any]])
        #expect(required.map { $0["name"] as? String } == ["displayName"])
        #expect((required[0]["options"] as? [String: String])?["regex"] == "^.{1,64}$")

        let done = h.post(
            "/signup/v1.0/continue",
            [
                "continuation_token": verified.token, "grant_type": "attributes",
                "attributes": #"{"displayName":"New User"}"#,
            ])
        #expect(done.status == 200 && done.token != nil && done["expires_in"] != nil)
        let mail = h.hook("GET", "mailbox", query: ["username": Self.newUser]).list
        #expect(mail.last?["purpose"] as? String == "sign_up")

        let tokens = h.post(
            "/oauth2/v2.0/token",
            [
                "continuation_token": done.token, "grant_type": "continuation_token", "username": Self.newUser,
                "scope": "openid profile offline_access", "challenge_type": H.all, "client_info": "true",
            ])
        #expect(tokens.status == 200)
        let id = try JWT.verify(try #require(tokens["id_token"] as? String), keys: h.router.keys)
        #expect(id["name"] as? String == "New User")
        // The new account signs in with its password.
        #expect(h.passwordGrant(try h.passwordToken(Self.newUser), username: Self.newUser, password: Self.goodPassword).status == 200)
    }

    @Test func passwordAfterVerification() throws {
        let h = try H()
        let verified = try verify(h, start(h, password: nil, attributes: #"{"displayName":"Late Password"}"#).token)
        #expect(verified.error == "credential_required" && verified.codes == [55103])
        let challenge = h.post("/signup/v1.0/challenge", ["continuation_token": verified.token, "challenge_type": H.all])
        #expect(challenge["challenge_type"] as? String == "password")
        let weak = h.post(
            "/signup/v1.0/continue", ["continuation_token": challenge.token, "grant_type": "password", "password": "weakweak"])
        #expect(weak.error == "invalid_grant" && weak.suberror == "password_too_weak")
        let done = h.post(
            "/signup/v1.0/continue", ["continuation_token": challenge.token, "grant_type": "password", "password": Self.goodPassword])
        #expect(done.status == 200)
    }

    @Test func codeOnlySignUp() throws {
        let h = try H()
        let started = start(h, password: nil, attributes: #"{"displayName":"Code Person"}"#, clientId: H.codeApp)
        let done = try verify(h, started.token, clientId: H.codeApp)
        #expect(done.status == 200, "\(done.json)")
    }

    @Test func attributesOnSeveralScreens() throws {
        var seed = Seed.demo
        seed.apps[0].attributes = [
            Seed.Attribute(name: "displayName", screen: 1), Seed.Attribute(name: "city", screen: 2),
            Seed.Attribute(name: "country", screen: 2),
        ]
        let h = try H(seed: seed)
        let first = try verify(h, start(h).token)
        #expect((first["required_attributes"] as? [[String: Any]])?.map { $0["name"] as? String } == ["displayName"])
        let second = h.post(
            "/signup/v1.0/continue", ["continuation_token": first.token, "grant_type": "attributes", "attributes": #"{"displayName":"X"}"#])
        #expect((second["required_attributes"] as? [[String: Any]])?.compactMap { $0["name"] as? String }.sorted() == ["city", "country"])
        let done = h.post(
            "/signup/v1.0/continue",
            [
                "continuation_token": second.token, "grant_type": "attributes",
                "attributes": #"{"city":"Oslo","country":"Norway"}"#,
            ])
        #expect(done.status == 200)
    }

    @Test func invalidAttributesAreNamedAndTheTokenSurvives() throws {
        let h = try H()
        let atStart = start(h, attributes: #"{"displayName":""}"#)
        #expect(atStart.error == "invalid_grant" && atStart.suberror == "attribute_validation_failed")
        #expect((atStart["invalid_attributes"] as? [[String: String]])?.first?["name"] == "displayName")
        let verified = try verify(h, start(h).token)
        let bad = h.post(
            "/signup/v1.0/continue",
            ["continuation_token": verified.token, "grant_type": "attributes", "attributes": #"{"displayName":""}"#])
        #expect(bad.suberror == "attribute_validation_failed")
        let good = h.post(
            "/signup/v1.0/continue",
            ["continuation_token": verified.token, "grant_type": "attributes", "attributes": #"{"displayName":"Ok"}"#])
        #expect(good.status == 200)
    }

    @Test func startErrors() throws {
        let h = try H()
        let exists = h.post("/signup/v1.0/start", ["username": H.ada, "password": Self.goodPassword, "challenge_type": H.all])
        #expect(exists.error == "user_already_exists" && exists.codes == [1_003_037])
        let invalid = h.post("/signup/v1.0/start", ["username": "not-an-email", "challenge_type": H.all])
        #expect(invalid.error == "invalid_request" && invalid.codes == [90100])
        #expect((invalid["error_description"] as? String)?.contains("username parameter is empty or not valid") == true)
        for (password, suberror) in [
            ("Sh0rt!", "password_too_short"), ("alllowercase", "password_too_weak"),
            (String(repeating: "Aa1!", count: 65), "password_too_long"), ("My-Password-1", "password_banned"),
            ("New.User-2026", "password_banned"),
        ] {
            let reply = start(h, password: password)
            #expect(reply.error == "invalid_grant" && reply.suberror == suberror, "\(password) → \(reply.json)")
        }
        let noOOB = h.post("/signup/v1.0/start", ["username": Self.newUser, "challenge_type": "password redirect"])
        #expect(noOOB["challenge_type"] as? String == "redirect")
        let noPassword = h.post("/signup/v1.0/start", ["username": Self.newUser, "challenge_type": "oob redirect"])
        #expect(noPassword["challenge_type"] as? String == "redirect")
    }

    @Test func resendGivesANewCode() throws {
        let h = try H()
        let t0 = start(h).token
        let first = h.post("/signup/v1.0/challenge", ["continuation_token": t0, "challenge_type": H.all])
        let code1 = h.lastCode(Self.newUser)
        let second = h.post("/signup/v1.0/challenge", ["continuation_token": first.token, "challenge_type": H.all])
        let code2 = h.lastCode(Self.newUser)
        #expect(second.status == 200 && code1 != code2)
        let stale = h.post("/signup/v1.0/continue", ["continuation_token": second.token, "grant_type": "oob", "oob": code1])
        #expect(stale.suberror == "invalid_oob_value")
        // The token that asked for the resend takes the new code.
        let verified = h.post("/signup/v1.0/continue", ["continuation_token": first.token, "grant_type": "oob", "oob": code2])
        #expect(
            verified.error != "invalid_request" && verified.error != "expired_token" && verified.suberror != "invalid_oob_value",
            "\(verified.json)")
        #expect(verified.status == 200 || verified.error == "credential_required" || verified.error == "attributes_required")
    }
}
