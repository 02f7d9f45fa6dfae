import Foundation
import MSAL
import NativeAuthTesting
import TestSupport
import Testing

@testable import MSAL

/// `restoreState(serialized:)`: the application's checks (client id, authority, age, kind), and a
/// restored state continuing with the original's token, correlation id, scopes and methods.
@Suite struct RestoreStateTests {
    typealias Kinds = SavedFlowStateTests

    /// The `RestoreStateError` `body` throws (nil for none or another error).
    static func error(_ body: () throws -> Void) -> RestoreStateError? {
        do {
            try body()
            return nil
        } catch { return error as? RestoreStateError }
    }

    @Test(arguments: 0..<13) func everyKindRestoresToItsOwnCaseWithTheSameContents(index: Int) throws {
        let h = try Harness()
        let original = Kinds.everyKind(h.app)[index]
        let restored = try h.app.restoreState(serialized: original.serialized())
        #expect(restored.kind == original.kind)
        #expect(type(of: restored.state) == type(of: original.state))
        #expect(SavedFlowState(restored) == SavedFlowState(original))
        #expect(restored.state !== original.state)
    }

    @Test func aTypedRestoreOfAnotherKindSaysWhichKindItHolds() throws {
        let h = try Harness()
        let bytes = Kinds.everyKind(h.app)[0].serialized()
        #expect(try h.app.restoreState(serialized: bytes, as: SignInCodeRequiredState.self).continuationToken == "T1")
        let error = try #require(Self.error { _ = try h.app.restoreState(serialized: bytes, as: MFARequiredState.self) })
        #expect(error.isWrongKind && !error.isMalformed)
        #expect(error.errorDescription?.contains("signInCodeRequired") == true)
        #expect(error.correlationId == UUID(uuidString: "aaaaaaaa-bbbb-cccc-dddd-000000000001"))
    }

    @Test func anotherClientIdOrAuthorityIsTheWrongApplication() throws {
        let h = try Harness()
        let bytes = Kinds.everyKind(h.app)[0].serialized()
        let otherClient = try Harness { $0.clientId = "ffffffff-0000-0000-0000-000000000000" }
        let otherTenant = try Harness {
            $0.authority = try! MSALCIAMAuthority(url: URL(string: "https://fabrikam.ciamlogin.com/fabrikam.onmicrosoft.com")!)
        }
        for app in [otherClient.app, otherTenant.app] {
            let error = try #require(Self.error { _ = try app.restoreState(serialized: bytes) })
            #expect(error.isWrongApplication && !error.isExpired)
        }
    }

    @Test func aStateOlderThanTenMinutesIsExpiredAndOneAtTenMinutesIsNot() async throws {
        let h = try Harness()
        let bytes = Kinds.everyKind(h.app)[0].serialized()
        try await h.clock.sleep(seconds: 600)
        #expect(try h.app.restoreState(serialized: bytes).kind == "signInCodeRequired")
        try await h.clock.sleep(seconds: 1)
        let error = try #require(Self.error { _ = try h.app.restoreState(serialized: bytes) })
        #expect(error.isExpired && !error.isMalformed)
        #expect(error.errorDescription?.contains("601 seconds ago") == true)
    }

    @Test func aStateIssuedFarInTheFutureIsMalformed() throws {
        let h = try Harness()
        var object = try #require(
            try JSONSerialization.jsonObject(with: Kinds.everyKind(h.app)[0].serialized()) as? [String: Any])
        object["issuedAt"] = 1_800_000_000 + 601
        let error = try #require(Self.error { _ = try h.app.restoreState(serialized: try! JSONSerialization.data(withJSONObject: object)) })
        #expect(error.isMalformed)
        object["issuedAt"] = 1_800_000_000 + 600
        #expect(try h.app.restoreState(serialized: try JSONSerialization.data(withJSONObject: object)).kind == "signInCodeRequired")
    }

    @Test func aRestoredStateKeepsItsAgeSoItExpiresWhenTheOriginalWould() async throws {
        let h = try Harness()
        let first = Kinds.everyKind(h.app)[0].serialized()
        try await h.clock.sleep(seconds: 400)
        let again = try h.app.restoreState(serialized: first).serialized()
        #expect(again == first)
        try await h.clock.sleep(seconds: 201)
        #expect(Self.error { _ = try h.app.restoreState(serialized: again) }?.isExpired == true)
    }

    @Test func errorsAreTypedAndNameTheirKind() throws {
        let h = try Harness()
        let cases: [(Data, (RestoreStateError) -> Bool)] = [
            (Data("garbage".utf8), \.isMalformed),
            (try Kinds.edited { $0["version"] = 9 }, \.isUnsupportedVersion),
        ]
        for (bytes, flag) in cases {
            let error = try #require(Self.error { _ = try h.app.restoreState(serialized: bytes) })
            #expect(flag(error))
            #expect(error.errorDescription?.hasPrefix("Cannot restore the flow state: ") == true)
            #expect(!error.isBrowserRequired)
            #expect((error as MSALNativeAuthError).description.contains("RestoreStateError"))
        }
    }

    @Test func neitherRestoringNorRefusingLogsTheToken() throws {
        let h = try Harness(pii: false)
        let flow = Kinds.everyKind(h.app)[1]
        _ = try h.app.restoreState(serialized: flow.serialized())
        let other = try Harness { $0.clientId = "ffffffff-0000-0000-0000-000000000000" }
        _ = Self.error { _ = try other.app.restoreState(serialized: flow.serialized()) }
        _ = Self.error { _ = try h.app.restoreState(serialized: try! Kinds.edited { $0["continuationToken"] = "" }) }
        for log in [h.log.text, other.log.text] {
            #expect(log.contains("state"))
            #expect(!log.contains("T2") && !log.contains("ada@contoso.com"))
        }
    }

    // MARK: A restored state continues the flow

    @Test func aRestoredCodeStateSendsTheOriginalTokenCorrelationIdAndScopes() async throws {
        let h = try Harness()
        h.expectStart(challenge: .json(200, Fixture.oobChallenge))
        guard
            case .codeRequired(let original, _, _, _) = try await h.app.signIn(parameters: h.signInParameters(scopes: ["api://todo/Read"]))
        else { throw UnexpectedOutcome("expected .codeRequired") }

        let other = try Harness()
        let restored = try other.app.restoreState(serialized: original.serialized(), as: SignInCodeRequiredState.self)
        other.stub.expect(
            path: "/oauth2/v2.0/token", reply: .json(200, Fixture.tokenBody(scope: "api://todo/Read")),
            check: { request in
                let form = request.formFields
                if form["continuation_token"] != original.continuationToken { return "token \(form["continuation_token"] ?? "-")" }
                if form["grant_type"] != "oob" || form["oob"] != Fixture.code { return "grant" }
                if form["scope"] != "api://todo/Read openid profile offline_access" { return "scope \(form["scope"] ?? "-")" }
                if request.headers["client-request-id"] != original.correlationId.uuidString { return "correlation" }
                return nil
            })
        guard case .completed(let result) = try await restored.submitCode(code: Fixture.code) else {
            throw UnexpectedOutcome("expected .completed")
        }
        #expect(result.account.username == Fixture.username)
        #expect(other.stubProblems.isEmpty, "\(other.stubProblems)")
    }

    @Test func aRestoredMFAStateOffersTheMethodsAndRequestsAChallengeThroughTheDelegate() async throws {
        let h = try Harness()
        let (methods, awaiting) = try await h.awaitingMFA()
        let other = try Harness()
        let restored = try other.app.restoreState(serialized: awaiting.serialized(), as: AwaitingMFAState.self)
        #expect(restored.authMethods.map(\.id) == methods.map(\.id))
        #expect(restored.authMethods.map(\.loginHint) == methods.map(\.loginHint))
        other.stub.expect(
            path: "/oauth2/v2.0/challenge", reply: StrongAuthFixture.mfaChallenge(),
            check: StrongAuthFixture.fields(["continuation_token": "Ti", "id": "m-sms"]))
        let delegate = RecordingMFADelegate()
        restored.requestChallenge(authMethod: restored.authMethods[1], delegate: delegate)
        let sent = await delegate.next()
        #expect(sent == "verificationRequired +*******0100")
        #expect(other.stubProblems.isEmpty, "\(other.stubProblems)")
    }
}

/// Records the one callback of a challenge request.
@MainActor final class RecordingMFADelegate: MFARequestChallengeDelegate {
    private var waiter: CheckedContinuation<String, Never>?
    private var event: String?

    func onMFARequestChallengeVerificationRequired(
        newState: MFARequiredState, sentTo: String, channelTargetType: MSALNativeAuthChannelType, codeLength: Int
    ) { record("verificationRequired \(sentTo)") }

    func onMFARequestChallengeError(error: MFARequestChallengeError, newState: MFARequiredState?) {
        record("error \(error.errorDescription ?? "")")
    }

    private func record(_ text: String) {
        if let waiter { waiter.resume(returning: text) } else { event = text }
        waiter = nil
    }

    func next() async -> String {
        if let event { return event }
        return await withCheckedContinuation { waiter = $0 }
    }
}
