import Foundation
import TestSupport
import Testing

@testable import NativeAuthEmulator

@Suite struct ResetPasswordEndpointTests {
    typealias H = EmulatorHarness
    static let newPassword = "Difference-Engine-1822"

    private func resetToSubmit(_ h: H) throws -> String {
        let start = h.post("/resetpassword/v1.0/start", ["username": H.ada, "challenge_type": "oob redirect"])
        let challenge = h.post("/resetpassword/v1.0/challenge", ["continuation_token": start.token, "challenge_type": "oob redirect"])
        #expect(challenge["challenge_type"] as? String == "oob")
        let code = try #require(h.lastCode(H.ada))
        let verified = h.post("/resetpassword/v1.0/continue", ["continuation_token": challenge.token, "grant_type": "oob", "oob": code])
        #expect(verified.status == 200 && (verified["expires_in"] as? Int ?? 0) <= 600)
        return try #require(verified.token)
    }

    @Test func fullResetWithPollsThenSignIn() throws {
        let h = try H { $0.resetPasswordPollsInProgress = 2 }
        let t2 = try resetToSubmit(h)
        let same = h.post("/resetpassword/v1.0/submit", ["continuation_token": t2, "new_password": H.adaPassword])
        #expect(same.suberror == "password_recently_used")
        let submit = h.post("/resetpassword/v1.0/submit", ["continuation_token": t2, "new_password": Self.newPassword])
        #expect(submit["poll_interval"] as? Int == 2)
        let t3 = try #require(submit.token)
        #expect(h.post("/resetpassword/v1.0/poll_completion", ["continuation_token": t3])["status"] as? String == "in_progress")
        #expect(h.post("/resetpassword/v1.0/poll_completion", ["continuation_token": t3])["status"] as? String == "in_progress")
        let done = h.post("/resetpassword/v1.0/poll_completion", ["continuation_token": t3])
        #expect(done["status"] as? String == "succeeded")
        let signIn = h.post(
            "/oauth2/v2.0/token",
            [
                "continuation_token": done.token, "grant_type": "continuation_token", "username": H.ada,
                "scope": "openid", "challenge_type": H.all,
            ])
        #expect(signIn.status == 200)
        #expect(h.passwordGrant(try h.passwordToken(), password: Self.newPassword).status == 200)
        #expect(h.passwordGrant(try h.passwordToken()).codes == [50126])
        #expect(h.hook("GET", "mailbox", query: ["username": H.ada]).list.last?["purpose"] as? String == "reset_password")
    }

    @Test func startErrors() throws {
        let h = try H()
        let codeOnly = h.post("/resetpassword/v1.0/start", ["username": H.grace, "challenge_type": "oob redirect"])
        #expect(codeOnly.error == "invalid_request" && codeOnly.codes == [500222])
        let nobody = h.post("/resetpassword/v1.0/start", ["username": "nobody@example.com", "challenge_type": "oob redirect"])
        #expect(nobody.error == "user_not_found")
        let noOOB = h.post("/resetpassword/v1.0/start", ["username": H.ada, "challenge_type": "password redirect"])
        #expect(noOOB["challenge_type"] as? String == "redirect")
    }

    @Test func tokensOfEachStepWorkOnlyAtTheirEndpoint() throws {
        let h = try H()
        let t2 = try resetToSubmit(h)
        #expect(h.post("/resetpassword/v1.0/poll_completion", ["continuation_token": t2]).codes == [901007])
        #expect(h.post("/signup/v1.0/continue", ["continuation_token": t2, "grant_type": "oob", "oob": "1"]).codes == [901007])
    }
}
