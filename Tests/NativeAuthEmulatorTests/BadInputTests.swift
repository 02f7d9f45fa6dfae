import Foundation
import TestSupport
import Testing

@testable import NativeAuthEmulator

@Suite struct BadInputTests {
    typealias H = EmulatorHarness

    @Test func malformedRequestsGetJSONErrors() throws {
        let h = try H()
        let path = h.tenant + "/oauth2/v2.0/initiate"
        let form = ["Content-Type": "application/x-www-form-urlencoded"]
        let cases: [(H.Reply, Int)] = [
            (h.send("POST", path, body: Data("client_id=%ZZ".utf8), headers: form), 400),
            (h.send("POST", path, body: Data("client_id=a&client_id=b".utf8), headers: form), 400),
            (h.send("POST", path, body: Data("{}".utf8), headers: ["Content-Type": "application/json"]), 400),
            (h.send("POST", path, body: Data(repeating: UInt8(ascii: "a"), count: 70_000), headers: form), 413),
            (h.send("GET", path), 405),
            (h.send("POST", h.tenant + "/oauth2/v2.0/nothing", headers: form), 404),
            (h.send("POST", "/other-tenant.onmicrosoft.com/oauth2/v2.0/initiate", headers: form), 404),
            (h.send("GET", "/"), 404),
            (h.send("POST", path, body: Data([0xff, 0xfe, 0x3d]), headers: form), 400),
        ]
        for (reply, status) in cases {
            #expect(reply.status == status)
            #expect(reply.error != nil, "every error has a JSON body: \(String(decoding: reply.body, as: UTF8.self))")
        }
        #expect(h.send("GET", path).headers["Allow"] == "POST")
    }

    @Test func bothSpacesAndUnknownQueryParametersAreAccepted() throws {
        let h = try H()
        let reply = h.send(
            "POST", h.tenant + "/oauth2/v2.0/initiate", query: ["dc": "ESTS-PUB-WUS2-AZ1-FD000-TEST1"],
            body: Data("client_id=\(H.passwordApp)&username=ada%40example.com&challenge_type=oob%20password+redirect".utf8),
            headers: ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"])
        #expect(reply.status == 200)
    }

    @Test func capabilityParameterUnderEitherName() throws {
        let h = try H()
        #expect(
            h.post(
                "/oauth2/v2.0/initiate", ["username": H.ada, "challenge_type": H.all, "capabilities": "mfa_required registration_required"]
            ).status == 200)
        #expect(
            h.post(
                "/oauth2/v2.0/initiate", ["username": H.ada, "challenge_type": H.all, "capability": "mfa_required,registration_required"]
            ).status == 200)
    }

    @Test func badSeedsAreExplained() {
        #expect(throws: EmulatorError.self) { try Seed.load(from: Data("{}".utf8)) }
        #expect(throws: EmulatorError.self) { try Seed.load(from: Data("nope".utf8)) }
        var seed = Seed.demo
        seed.apis[0].requiredScope = "Missing"
        #expect(throws: EmulatorError.self) { try EmulatorRouter(seed: seed) }
        let error = try? Seed.load(from: Data(#"{"tenant":{"subdomain":"x"},"apps":[],"users":[],"apis":[]}"#.utf8))
        #expect(error == nil)
        do {
            _ = try Seed.load(from: Data(#"{"tenant":{"subdomain":"x"},"apps":[],"users":[],"apis":[]}"#.utf8))
        } catch {
            #expect("\(error)".contains("tenant.id"))
        }
    }
}
