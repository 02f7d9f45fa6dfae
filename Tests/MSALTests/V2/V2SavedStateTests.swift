import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// Saved native auth V2 states (docs/saved-states.md#version-2-native-auth-v2): each kind saved by
/// one application object and continued to a signed-in account by another, and each refusal.
@Suite struct V2SavedStateTests {
    /// `state` saved, and restored by a fresh application object (its own stub transport).
    static func restoredElsewhere(_ state: some MSALNativeAuthSerializableState) throws -> (Harness, MSALNativeAuthFlowResult) {
        let other = try Harness()
        return (other, try other.app.restoreStateV2(serialized: state.serialized()))
    }

    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func data(_ object: [String: Any]) throws -> Data { try JSONSerialization.data(withJSONObject: object) }

    /// The `RestoreStateError` `body` throws (nil for none or another error).
    static func error(_ body: () throws -> Void) -> RestoreStateError? {
        do {
            try body()
            return nil
        } catch { return error as? RestoreStateError }
    }

    func codeState(_ h: Harness) async throws -> MSALNativeAuthCodeRequiredState {
        h.v2Start(V2Fixture.challenge("singleFactor", V2Fixture.emailMethods, token: "c1"))
        h.v2(
            V2Fixture.path("auth/methods/email/m-e1/challenge"), 200,
            V2Fixture.verify("m-e1", "email", hint: "g****e@e****e", codeLength: 8, token: "c2"))
        return try expectState(try await h.app.signInV2(parameters: h.v2Parameters), MSALNativeAuthCodeRequiredState.self)
    }

    func passwordState(_ h: Harness) async throws -> MSALNativeAuthPasswordRequiredState {
        h.v2Start(V2Fixture.challenge("singleFactor", [V2Fixture.method("m-p", "password")], token: "c1"))
        h.v2(V2Fixture.path("auth/methods/password/m-p/challenge"), 200, V2Fixture.verify("m-p", "password", token: "c2"))
        return try expectState(try await h.app.signInV2(parameters: h.v2Parameters), MSALNativeAuthPasswordRequiredState.self)
    }

    func mfaSelection(_ h: Harness) async throws -> MSALNativeAuthAuthMethodSelectionRequiredState {
        h.v2Start(V2Fixture.challenge("multiFactor", V2Fixture.mfaMethods, token: "c3"))
        return try expectState(try await h.app.signInV2(parameters: h.v2Parameters), MSALNativeAuthAuthMethodSelectionRequiredState.self)
    }

    func registrationState(_ h: Harness) async throws -> MSALNativeAuthStrongAuthRegistrationRequiredState {
        let password = try await passwordState(h)
        h.v2(V2Fixture.path("auth/methods/password/m-p/verify"), 200, V2Fixture.register(token: "j1"))
        return try expectState(try await password.submitPassword(Fixture.password), MSALNativeAuthStrongAuthRegistrationRequiredState.self)
    }

    // MARK: Each kind, continued by another application object

    @Test func codeRequiredContinuesElsewhere() async throws {
        let h = try Harness()
        let state = try await codeState(h)
        let document = try Self.object(state.serialized())
        #expect(document["version"] as? Int == 2 && document["kind"] as? String == "v2CodeRequired")
        #expect(document["scenario"] as? String == "signIn" && document["purpose"] as? String == "firstFactor")
        #expect(document["sentTo"] as? String == "g****e@e****e" && document["channel"] as? String == "email")
        #expect(document["codeLength"] as? Int == 8 && document["username"] as? String == Fixture.username)
        let links = try #require(document["links"] as? [String: String])
        #expect(links["verify"] == "https://contoso.ciamlogin.com/contoso.onmicrosoft.com/api/v2.0/auth/methods/email/m-e1/verify")

        let (other, result) = try Self.restoredElsewhere(state)
        let restored = try expectState(result, MSALNativeAuthCodeRequiredState.self)
        #expect(restored.sentTo == state.sentTo && restored.codeLength == 8 && restored.channel.isEmailType && restored.scenario == .signIn)
        other.v2Finish(after: V2Fixture.path("auth/methods/email/m-e1/verify"))
        guard case .completed(let account, .signIn) = try await restored.submitCode(Fixture.code) else {
            throw UnexpectedOutcome("expected completion")
        }
        #expect(account.account.username == Fixture.username)
        #expect(other.stub.receivedRequests[0].jsonBody == ["continuationToken": "c2", "otp": Fixture.code])
        #expect(other.app.getNativeAuthUserAccount()?.account.username == Fixture.username)
        #expect(other.stubProblems.isEmpty, "\(other.stubProblems)")
    }

    @Test func passwordRequiredContinuesElsewhereAndNeverHoldsThePassword() async throws {
        let h = try Harness()
        let state = try await passwordState(h)
        let verify = V2Fixture.path("auth/methods/password/m-p/verify")
        h.v2(verify, 400, V2Fixture.halError("invalidGrant", "AADSTS50126: Wrong.", inner: "invalidUserNameOrPassword"))
        _ = try await flowError { () async throws(MSALNativeAuthFlowError) in try await state.submitPassword("Wrong-Password-1") }
        let bytes = state.serialized()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("Wrong-Password-1") && !text.contains(Fixture.password))
        #expect(try Self.object(bytes)["kind"] as? String == "v2PasswordRequired")

        let (other, result) = try Self.restoredElsewhere(state)
        let restored = try expectState(result, MSALNativeAuthPasswordRequiredState.self)
        other.v2Finish(after: verify)
        guard case .completed = try await restored.submitPassword(Fixture.password) else { throw UnexpectedOutcome("expected completion") }
        #expect(other.stub.receivedRequests[0].jsonBody == ["continuationToken": "c2", "password": Fixture.password])
        #expect(other.stubProblems.isEmpty, "\(other.stubProblems)")
    }

    @Test func firstFactorSelectionContinuesElsewhere() async throws {
        let h = try Harness()
        h.v2Start(V2Fixture.challenge("singleFactor", V2Fixture.firstFactors, token: "c1"))
        let state = try expectState(
            try await h.app.signInV2(parameters: h.v2Parameters), MSALNativeAuthAuthMethodSelectionRequiredState.self)
        let methods = try #require(try Self.object(state.serialized())["methods"] as? [[String: Any]])
        #expect(methods.map { $0["id"] as? String } == ["m-p", "m-e"] && methods[1]["hint"] as? String == "b****a@e****e")
        #expect(methods.allSatisfy { $0["challenge"] is String && $0["enroll"] == nil })

        let (other, result) = try Self.restoredElsewhere(state)
        let restored = try expectState(result, MSALNativeAuthAuthMethodSelectionRequiredState.self)
        #expect(restored.purpose == .firstFactor && restored.authMethods.map(\.id) == ["m-p", "m-e"])
        other.v2(V2Fixture.path("auth/methods/password/m-p/challenge"), 200, V2Fixture.verify("m-p", "password", token: "c2"))
        let password = try expectState(
            try await restored.selectAuthMethod(restored.authMethods[0]), MSALNativeAuthPasswordRequiredState.self)
        other.v2Finish(after: V2Fixture.path("auth/methods/password/m-p/verify"))
        guard case .completed = try await password.submitPassword(Fixture.password) else { throw UnexpectedOutcome("expected completion") }
        #expect(other.stub.receivedRequests[0].jsonBody == ["continuationToken": "c1"])
        #expect(other.stubProblems.isEmpty, "\(other.stubProblems)")
    }

    @Test func mfaVerificationContinuesElsewhere() async throws {
        let h = try Harness()
        let mfa = try await mfaSelection(h)
        h.v2(
            V2Fixture.path("auth/methods/email/7f1c-a001/challenge"), 200,
            V2Fixture.verify("7f1c-a001", "email", codeLength: 8, token: "c4"))
        let state = try expectState(try await mfa.selectAuthMethod(mfa.authMethods[0]), MSALNativeAuthMFAVerificationRequiredState.self)
        #expect(try Self.object(state.serialized())["purpose"] as? String == "mfa")

        let (other, result) = try Self.restoredElsewhere(state)
        let restored = try expectState(result, MSALNativeAuthMFAVerificationRequiredState.self)
        let verify = V2Fixture.path("auth/methods/email/7f1c-a001/verify")
        other.v2(verify, 400, V2Fixture.halError("invalidGrant", "AADSTS50181: Wrong code.", inner: "invalidOneTimeCode"))
        let wrong = try await flowError { () async throws(MSALNativeAuthFlowError) in try await restored.submitChallenge("00000000") }
        #expect(wrong.isInvalidChallenge, "the restored purpose decides the error kind")
        other.v2Finish(after: verify)
        guard case .completed = try await restored.submitChallenge(Fixture.code) else { throw UnexpectedOutcome("expected completion") }
        #expect(other.stubProblems.isEmpty, "\(other.stubProblems)")
    }

    @Test func registrationContinuesElsewhere() async throws {
        let h = try Harness()
        let state = try await registrationState(h)
        let methods = try #require(try Self.object(state.serialized())["methods"] as? [[String: Any]])
        #expect(methods.allSatisfy { $0["enroll"] is String && $0["challenge"] == nil })

        let (other, result) = try Self.restoredElsewhere(state)
        let restored = try expectState(result, MSALNativeAuthStrongAuthRegistrationRequiredState.self)
        #expect(restored.authMethods.map(\.id) == ["reg-email", "reg-sms"])
        other.v2Finish(after: V2Fixture.path("auth/methods/email/register"))
        guard case .completed = try await restored.selectAuthMethod(restored.authMethods[0], verificationContact: Fixture.username) else {
            throw UnexpectedOutcome("expected completion")
        }
        #expect(other.stub.receivedRequests[0].jsonBody == ["continuationToken": "j1", "target": Fixture.username])
        #expect(other.stubProblems.isEmpty, "\(other.stubProblems)")
    }

    @Test func registrationVerificationContinuesElsewhere() async throws {
        let h = try Harness()
        let registration = try await registrationState(h)
        h.v2(V2Fixture.path("auth/methods/sms/register"), 200, V2Fixture.riskVerify(token: "j2"))
        h.v2(V2Fixture.path("risk/phone/verify"), 200, V2Fixture.activate(token: "j3"))
        let state = try expectState(
            try await registration.selectAuthMethod(registration.authMethods[1], verificationContact: "+15550123"),
            MSALNativeAuthStrongAuthVerificationRequiredState.self)
        let document = try Self.object(state.serialized())
        #expect((document["links"] as? [String: String])?["activate"] != nil && document["purpose"] as? String == "registration")

        let (other, result) = try Self.restoredElsewhere(state)
        let restored = try expectState(result, MSALNativeAuthStrongAuthVerificationRequiredState.self)
        #expect(restored.sentTo == "+*******0123" && restored.codeLength == 6 && restored.channel.isSMSType)
        let activate = V2Fixture.path("auth/methods/sms/9b2e/activate")
        other.v2Finish(after: activate)
        guard case .completed = try await restored.submitChallenge("271828") else { throw UnexpectedOutcome("expected completion") }
        #expect(other.stub.receivedRequests[0].jsonBody == ["continuationToken": "j3", "code": "271828"])
        #expect(other.stubProblems.isEmpty, "\(other.stubProblems)")
    }

    @Test func theGenericRestoreTakesAV2Class() async throws {
        let h = try Harness()
        let bytes = try await codeState(h).serialized()
        let state = try h.app.restoreState(serialized: bytes, as: MSALNativeAuthCodeRequiredState.self)
        #expect(state.codeLength == 8)
        let error = try #require(Self.error { _ = try h.app.restoreState(serialized: bytes, as: MSALNativeAuthPasswordRequiredState.self) })
        #expect(error.isWrongKind && error.errorDescription?.contains("v2CodeRequired") == true)
        let v1 = try #require(Self.error { _ = try h.app.restoreState(serialized: bytes, as: SignInCodeRequiredState.self) })
        #expect(v1.isWrongKind)
    }

    /// A selection used once still selects, before and after a save: nothing marks it used, and a
    /// document of an earlier release that says `spent: true` is read and restores a usable state.
    @Test func aSelectionUsedOnceSelectsAgainRestoredOrNot() async throws {
        let h = try Harness()
        let mfa = try await mfaSelection(h)
        h.v2(
            V2Fixture.path("auth/methods/email/7f1c-a001/challenge"), 200,
            V2Fixture.verify("7f1c-a001", "email", codeLength: 8, token: "c4"))
        _ = try await mfa.selectAuthMethod(mfa.authMethods[0])
        var saved = try Self.object(mfa.serialized())
        #expect(saved["spent"] == nil)

        saved["spent"] = true
        let other = try Harness()
        let restored = try expectState(
            try other.app.restoreStateV2(serialized: Self.data(saved)), MSALNativeAuthAuthMethodSelectionRequiredState.self)
        other.v2(
            V2Fixture.path("auth/methods/sms/7f1c-a002/challenge"), 200,
            V2Fixture.verify("7f1c-a002", "sms", codeLength: 6, token: "c5"))
        let code = try expectState(
            try await restored.selectAuthMethod(restored.authMethods[1]), MSALNativeAuthMFAVerificationRequiredState.self)
        #expect(code.codeLength == 6 && other.stub.receivedRequests.count == 1)
        #expect(other.stubProblems.isEmpty, "\(other.stubProblems)")
    }

    // MARK: Refusals

    @Test func aLinkToAnotherHostIsMalformed() async throws {
        let h = try Harness()
        var document = try Self.object(try await codeState(h).serialized())
        var links = try #require(document["links"] as? [String: String])
        links["verify"] = "https://attacker.example/contoso.onmicrosoft.com/api/v2.0/auth/methods/email/m-e1/verify"
        document["links"] = links
        let error = try #require(Self.error { _ = try h.app.restoreStateV2(serialized: try Self.data(document)) })
        #expect(error.isMalformed && error.errorDescription?.contains("another host") == true)

        links["verify"] = "https://contoso.ciamlogin.com:8443/contoso.onmicrosoft.com/api/v2.0/auth/methods/email/m-e1/verify"
        document["links"] = links
        #expect(Self.error { _ = try h.app.restoreStateV2(serialized: try Self.data(document)) }?.isMalformed == true)
        links["verify"] = "http://contoso.ciamlogin.com/contoso.onmicrosoft.com/api/v2.0/auth/methods/email/m-e1/verify"
        document["links"] = links
        #expect(Self.error { _ = try h.app.restoreStateV2(serialized: try Self.data(document)) }?.isMalformed == true)
    }

    @Test func aMethodLinkToAnotherHostIsMalformed() async throws {
        let h = try Harness()
        var document = try Self.object(try await mfaSelection(h).serialized())
        var methods = try #require(document["methods"] as? [[String: Any]])
        methods[1]["challenge"] = "https://attacker.example/contoso.onmicrosoft.com/api/v2.0/auth/methods/sms/7f1c-a002/challenge"
        document["methods"] = methods
        let error = try #require(Self.error { _ = try h.app.restoreStateV2(serialized: try Self.data(document)) })
        #expect(error.isMalformed)
    }

    /// Every link a saved state holds is checked on restore, not only the one the next call sends to:
    /// `resend`, `recover` and `enroll` too, and a host that merely resembles the authority's is another.
    @Test(arguments: ["https://evilcontoso.ciamlogin.com", "https://a.contoso.ciamlogin.com", "https://attacker.example"])
    func everySavedLinkIsCheckedOnRestore(origin: String) async throws {
        let h = try Harness()
        let tenantPath = "/contoso.onmicrosoft.com/api/v2.0/auth/methods/"
        func refused(_ document: [String: Any]) throws -> Bool {
            try #require(Self.error { _ = try h.app.restoreStateV2(serialized: try Self.data(document)) }).isMalformed
        }
        func tampered(_ state: some MSALNativeAuthSerializableState, link relation: String, _ path: String) throws -> [String: Any] {
            var document = try Self.object(state.serialized())
            var links = try #require(document["links"] as? [String: String])
            try #require(links[relation] != nil, "the saved state has no \(relation) link")
            links[relation] = origin + tenantPath + path
            document["links"] = links
            return document
        }
        #expect(try refused(tampered(try await codeState(h), link: "resend", "email/m-e1/challenge")))
        #expect(try refused(tampered(try await passwordState(h), link: "recover", "password/m-p/recover")))

        var registration = try Self.object(try await registrationState(Harness()).serialized())
        var methods = try #require(registration["methods"] as? [[String: Any]])
        methods[0]["enroll"] = origin + tenantPath + "email/register"
        registration["methods"] = methods
        #expect(try refused(registration))
    }

    @Test func eachReaderRefusesTheOtherVersionAsTheWrongKind() async throws {
        let h = try Harness()
        let v2 = try await codeState(h).serialized()
        let byV1 = try #require(Self.error { _ = try h.app.restoreState(serialized: v2) })
        #expect(byV1.isWrongKind && byV1.errorDescription?.contains("restoreStateV2") == true)

        let v1 = SavedFlowStateTests.everyKind(h.app)[0].serialized()
        let byV2 = try #require(Self.error { _ = try h.app.restoreStateV2(serialized: v1) })
        #expect(byV2.isWrongKind && byV2.correlationId == UUID(uuidString: "aaaaaaaa-bbbb-cccc-dddd-000000000001"))
    }

    @Test func aVersion1ReaderSeesAnUnsupportedVersion() async throws {
        let h = try Harness()
        let v2 = try await codeState(h).serialized()
        // SavedFlowState.decode is the V1 reader, unchanged: what an older SDK runs.
        #expect(throws: RestoreFailure.unsupportedVersion("the saved state has format version 2; this SDK reads up to version 1")) {
            _ = try SavedFlowState.decode(v2)
        }
        var document = try Self.object(v2)
        document["version"] = 0
        #expect(Self.error { _ = try h.app.restoreStateV2(serialized: try Self.data(document)) }?.isMalformed == true)
        document["version"] = 3
        #expect(Self.error { _ = try h.app.restoreStateV2(serialized: try Self.data(document)) }?.isUnsupportedVersion == true)
        document["version"] = 2
        // The sign-up and reset kinds are read now: in a sign-in's document, one is the wrong kind for its scenario.
        document["kind"] = "v2SignInAfterSignUp"
        #expect(Self.error { _ = try h.app.restoreStateV2(serialized: try Self.data(document)) }?.isMalformed == true)
        document["kind"] = "v2Nonsense"
        #expect(Self.error { _ = try h.app.restoreStateV2(serialized: try Self.data(document)) }?.isMalformed == true)
    }

    @Test func anExpiredStateIsRefused() async throws {
        let h = try Harness()
        let bytes = try await codeState(h).serialized()
        try await h.clock.sleep(seconds: 600)
        _ = try h.app.restoreStateV2(serialized: bytes)
        try await h.clock.sleep(seconds: 1)
        let error = try #require(Self.error { _ = try h.app.restoreStateV2(serialized: bytes) })
        #expect(error.isExpired)
    }

    @Test func aTooLargeDocumentIsMalformed() async throws {
        let h = try Harness()
        var document = try Self.object(try await codeState(h).serialized())
        document["padding"] = String(repeating: "x", count: SavedStateEnvelope.maximumSize)
        let bytes = try Self.data(document)
        let error = try #require(Self.error { _ = try h.app.restoreStateV2(serialized: bytes) })
        #expect(error.isMalformed && error.errorDescription?.contains("more than the 65536") == true)
        #expect(Self.error { _ = try h.app.restoreState(serialized: bytes) }?.isMalformed == true)
    }

    @Test func theFuzzSeedsAreUsableDocumentsAndAnswers() throws {
        let corpus = MarkdownSnippetTests.repository.appendingPathComponent("Fuzz/corpus")
        let links = V2Links(authority: URL(string: "https://contoso.ciamlogin.com/contoso.onmicrosoft.com/")!)
        for name in [
            "seed4-v2-code", "seed5-v2-selection", "seed6-v2-register", "seed7-v2-attributes", "seed8-v2-sign-up-password",
            "seed9-v2-new-password", "seed10-v2-sign-in-after-reset",
        ] {
            let data = try Data(contentsOf: corpus.appendingPathComponent("savedFlowState/" + name))
            let saved = try SavedFlowStateV2.decode(data, links: links)
            #expect(try SavedFlowStateV2.decode(saved.encoded(), links: links) == saved, "\(name)")
        }
        let decoder = V2AnswerDecoder(links: links, logger: MSALLoggerConfig())
        let requests: [V2AnswerDecoder.Request] = [.entry, .interaction, .resume]
        for name in ["entry", "challenge", "verify", "error", "resume"] {
            let data = try Data(contentsOf: corpus.appendingPathComponent("v2Answer/" + name))
            let answer = decoder.decode(status: 200, body: Data(data.dropFirst()), as: requests[Int(data[0]) % 3])
            if case .invalid(let reason) = answer { Issue.record("\(name): \(reason)") }
        }
    }

    @Test func anotherApplicationIsRefused() async throws {
        let h = try Harness()
        let bytes = try await codeState(h).serialized()
        let other = try Harness { $0.clientId = "ffffffff-0000-0000-0000-000000000000" }
        #expect(Self.error { _ = try other.app.restoreStateV2(serialized: bytes) }?.isWrongApplication == true)
    }
}
