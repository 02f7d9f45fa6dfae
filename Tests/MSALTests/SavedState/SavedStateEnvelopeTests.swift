import Foundation
import Testing

@testable import MSAL

/// The envelope every saved state shares (Sources/MSAL/SavedState/SavedStateEnvelope.swift): documents
/// written before V1 and V2 shared it (by `native-auth login --no-prompt` against the emulator, on
/// main at e0d303c) read back and write again byte for byte.
struct SavedStateEnvelopeTests {
    static let version1 = #"""
        {"authority":"http://127.0.0.1:35425/emulator.onmicrosoft.com","clientId":"11111111-1111-4111-8111-111111111111","continuationToken":"XdOcqSRBHPevG_QtRiVhfrxXp166p5sZFg8cYWEAbPg","correlationId":"5E753445-FE15-48D4-BBAF-B47773180BF5","format":"msal-native-auth-flow-state","issuedAt":1796339207,"kind":"signInCodeRequired","scopes":["openid","profile","offline_access"],"version":1}
        """#
    static let version2 = #"""
        {"authority":"http://127.0.0.1:35425/emulator.onmicrosoft.com","channel":"email","clientId":"11111111-1111-4111-8111-111111111111","codeLength":8,"continuationToken":"FZD2-vdRoKxyPR0B6OvxqlSw6_klr2DyBO4wLF2Tfes","correlationId":"09B52663-A2E0-4FA3-BD89-FCA296E0B5F6","format":"msal-native-auth-flow-state","issuedAt":1796339207,"kind":"v2CodeRequired","links":{"resend":"http://127.0.0.1:35425/emulator.onmicrosoft.com/api/v2.0/auth/methods/email/134811e9-c227-45c9-b0c2-594c46596cea/challenge","verify":"http://127.0.0.1:35425/emulator.onmicrosoft.com/api/v2.0/auth/methods/email/134811e9-c227-45c9-b0c2-594c46596cea/verify"},"methodId":"134811e9-c227-45c9-b0c2-594c46596cea","purpose":"firstFactor","scenario":"signIn","scopes":["openid","profile","offline_access"],"sentTo":"g****e@e****e","username":"grace@example.com","version":2}
        """#

    @Test func aVersion1DocumentWrittenBeforeReadsAndWritesTheSameBytes() throws {
        let saved = try SavedFlowState.decode(Data(Self.version1.utf8))
        #expect(saved.kind == .signInCodeRequired && saved.scopes == ["openid", "profile", "offline_access"])
        #expect(saved.correlationId == UUID(uuidString: "5E753445-FE15-48D4-BBAF-B47773180BF5"))
        #expect(saved.issuedAt == Date(timeIntervalSince1970: 1_796_339_207))
        #expect(String(decoding: saved.encoded(), as: UTF8.self) == Self.version1)
    }

    @Test func aVersion2DocumentWrittenBeforeReadsAndWritesTheSameBytes() throws {
        let links = V2Links(authority: URL(string: "http://127.0.0.1:35425/emulator.onmicrosoft.com")!)
        let saved = try SavedFlowStateV2.decode(Data(Self.version2.utf8), links: links)
        #expect(saved.kind == .v2CodeRequired && saved.continuationToken == "FZD2-vdRoKxyPR0B6OvxqlSw6_klr2DyBO4wLF2Tfes")
        #expect(saved.clientId == "11111111-1111-4111-8111-111111111111" && saved.username == "grace@example.com")
        #expect(String(decoding: saved.encoded(), as: UTF8.self) == Self.version2)
    }

    @Test func theEnvelopeSendsEachVersionToItsReader() throws {
        #expect(SavedStateEnvelope.version(of: Data(Self.version1.utf8)) == 1)
        #expect(SavedStateEnvelope.version(of: Data(Self.version2.utf8)) == 2)
        #expect(throws: RestoreFailure.self) { try SavedFlowState.decode(Data(Self.version2.utf8)) }
        let links = V2Links(authority: URL(string: "http://127.0.0.1:35425/emulator.onmicrosoft.com")!)
        #expect {
            try SavedFlowStateV2.decode(Data(Self.version1.utf8), links: links)
        } throws: { error in
            if case .wrongKind = error as? RestoreFailure { true } else { false }
        }
    }

    @Test func aVersion2DocumentWithoutAContinuationTokenLacksAMember() throws {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(Self.version2.utf8)) as? [String: Any])
        object.removeValue(forKey: "continuationToken")
        let links = V2Links(authority: URL(string: "http://127.0.0.1:35425/emulator.onmicrosoft.com")!)
        #expect {
            try SavedFlowStateV2.decode(try JSONSerialization.data(withJSONObject: object), links: links)
        } throws: { error in
            error as? RestoreFailure == .malformed("the saved state lacks a member or has one of the wrong type")
        }
    }
}
