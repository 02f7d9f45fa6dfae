import Foundation
import TestSupport
import Testing

@testable import NativeAuthEmulator

/// The shape of a V2 interaction request as the service reads it (docs/protocol.md#native-auth-v2-experimental):
/// a JSON body sent as `application/json`, its token under `continuationToken` only. A request the service
/// would not read is refused here too, so an app's own client cannot pass against the emulator and fail
/// against the service.
@Suite struct V2RequestShapeTests {
    typealias H = EmulatorHarness
    typealias C = V2TestClient

    /// A well-formed `signin/start` body for a fresh entry, and its link.
    private func startBody(_ c: C, token key: String = "continuationToken") -> (href: String?, token: String, body: Data) {
        let entry = c.entry()
        let token = entry.token ?? ""
        let body = (try? JSONSerialization.data(withJSONObject: ["username": H.ada, key: token])) ?? Data()
        return (entry["sign_in"] as? String, token, body)
    }

    @Test(arguments: [
        "application/x-www-form-urlencoded", "text/plain", "application/hal+json", "text/json", "application/jsonx", "",
    ])
    func aJSONBodyNotSentAsApplicationJSONIsRefused(contentType: String) throws {
        let h = try H()
        let c = C(h)
        let (href, token, body) = startBody(c)
        let headers = contentType.isEmpty ? [:] : ["Content-Type": contentType]
        let refused = h.send("POST", href ?? "", body: body, headers: headers)
        #expect(refused.status == 400 && refused.hal.code == "invalidRequest" && refused.hal.inner == nil, "\(refused.json)")
        #expect(refused.hal.message?.hasPrefix("AADSTS90100: Content-Type header is empty or not valid") == true)
        // Nothing was read: the entry's token still starts the flow.
        #expect(c.follow(href, ["username": H.ada, "continuationToken": token]).action == "challenge")
    }

    @Test func aFormBodyIsRefusedAsNotJSON() throws {
        let h = try H()
        let c = C(h)
        let (href, token, _) = startBody(c)
        let form = Data("username=ada%40example.com&continuationToken=\(token)".utf8)
        let refused = h.send("POST", href ?? "", body: form, headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(refused.status == 400 && refused.hal.code == "invalidRequest" && refused.hal.message?.hasPrefix("AADSTS90100:") == true)
    }

    @Test(arguments: ["application/json", "application/json; charset=utf-8", "Application/JSON", " application/json ;charset=UTF-8"])
    func applicationJSONIsReadInAnyCaseAndWithParameters(contentType: String) throws {
        let h = try H()
        let c = C(h)
        let (href, _, body) = startBody(c)
        #expect(h.send("POST", href ?? "", body: body, headers: ["Content-Type": contentType]).action == "challenge")
    }

    /// The camelCase routes read `continuationToken` alone: a token under another spelling is an unknown
    /// member, so the token is missing (AADSTS90100, as with none), and the token itself was not spent.
    @Test(arguments: ["continuation_token", "ContinuationToken", "continuationtoken", "continuation-token"])
    func aTokenUnderAnotherSpellingIsMissing(spelling: String) throws {
        let h = try H()
        let c = C(h)
        let (href, token, body) = startBody(c, token: spelling)
        let refused = h.send("POST", href ?? "", body: body, headers: ["Content-Type": "application/json"])
        #expect(refused.status == 400 && refused.hal.code == "invalidRequest" && refused.hal.inner == "invalidContinuationToken")
        #expect(refused.hal.message == "AADSTS90100: continuationToken parameter is empty or not valid.")
        #expect(c.follow(href, ["username": H.ada, "continuationToken": token]).action == "challenge")
    }

    /// Every step, not only the start: a method's challenge with the token spelled the OAuth way.
    @Test func aSnakeCaseTokenIsMissingAtEveryStep() throws {
        let h = try H()
        let c = C(h)
        let started = c.start(H.ada)
        let challenge = started.methodLink("password", "challenge")
        let refused = c.follow(challenge, ["continuation_token": started.ct ?? ""])
        #expect(refused.hal.message == "AADSTS90100: continuationToken parameter is empty or not valid.")
        #expect(c.follow(challenge, ["continuationToken": started.ct ?? ""]).action == "verify")
    }
}
