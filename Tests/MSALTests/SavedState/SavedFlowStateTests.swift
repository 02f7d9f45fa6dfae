import Foundation
import MSAL
import NativeAuthTesting
import Testing

@testable import MSAL

/// The saved-state document (Sources/MSAL/SavedState/SavedFlowState.swift): every kind writes and
/// reads back the same, and every way a document can be wrong is a typed failure.
@Suite struct SavedFlowStateTests {
    /// One state of every kind, each with values of its own, made on `app`'s controllers.
    static func everyKind(_ app: MSALNativeAuthPublicClientApplication) -> [MSALNativeAuthFlowState] {
        let id = UUID(uuidString: "aaaaaaaa-bbbb-cccc-dddd-000000000001")!
        var context = SignInContinuationContext(controller: app.signInController, scopes: ["api://todo/Read"], claims: #"{"acrs":1}"#)
        context.authMethods = [
            MSALAuthMethod(id: "m-sms", challengeType: "oob", channelTargetType: .init(value: "sms"), loginHint: "+*******0100")
        ]
        let signIn = app.signInController
        let signUp = app.signUpController
        let reset = app.resetPasswordController
        return [
            .signInCodeRequired(
                SignInCodeRequiredState(controller: signIn, continuationToken: "T1", correlationId: id, scopes: ["a"], claims: nil)),
            .signInPasswordRequired(
                SignInPasswordRequiredState(
                    controller: signIn, continuationToken: "T2", correlationId: id, username: "ada@contoso.com", scopes: ["b", "c"],
                    claims: #"{"x":1}"#)),
            .signInAfterSignUp(
                SignInAfterSignUpState(controller: signIn, username: "ada@contoso.com", continuationToken: "T3", correlationId: id)),
            .signInAfterResetPassword(
                SignInAfterResetPasswordState(controller: signIn, username: "ada@contoso.com", continuationToken: nil, correlationId: id)),
            .signUpCodeRequired(
                SignUpCodeRequiredState(controller: signUp, username: "new@contoso.com", continuationToken: "T5", correlationId: id)),
            .signUpPasswordRequired(
                SignUpPasswordRequiredState(controller: signUp, username: "new@contoso.com", continuationToken: "T6", correlationId: id)),
            .signUpAttributesRequired(
                SignUpAttributesRequiredState(controller: signUp, username: "new@contoso.com", continuationToken: "T7", correlationId: id)),
            .resetPasswordCodeRequired(
                ResetPasswordCodeRequiredState(controller: reset, username: "ada@contoso.com", continuationToken: "T8", correlationId: id)),
            .resetPasswordRequired(
                ResetPasswordRequiredState(controller: reset, username: "ada@contoso.com", continuationToken: "T9", correlationId: id)),
            .awaitingMFA(AwaitingMFAState(context: context, continuationToken: "T10", correlationId: id)),
            .mfaRequired(MFARequiredState(context: context, continuationToken: "T11", correlationId: id)),
            .registerStrongAuth(RegisterStrongAuthState(context: context, continuationToken: "T12", correlationId: id)),
            .registerStrongAuthVerificationRequired(
                RegisterStrongAuthVerificationRequiredState(context: context, continuationToken: "T13", correlationId: id)),
        ]
    }

    @Test func everyKindIsCovered() throws {
        let kinds = Self.everyKind(try Harness().app).map(\.kind)
        #expect(kinds == SavedFlowState.Kind.allCases.map(\.rawValue))
    }

    @Test(arguments: 0..<13) func everyKindReadsBackTheSame(index: Int) throws {
        let h = try Harness()
        let flow = Self.everyKind(h.app)[index]
        let bytes = flow.state.serialized()
        #expect(bytes == flow.serialized())
        let saved = try SavedFlowState.decode(bytes)
        #expect(saved == SavedFlowState(flow))
        #expect(saved.encoded() == bytes)
        #expect(saved.kind.rawValue == flow.kind)
        #expect(saved.clientId == Fixture.clientId)
        #expect(saved.correlationId == UUID(uuidString: "aaaaaaaa-bbbb-cccc-dddd-000000000001"))
        #expect(saved.issuedAt == h.clock.now())
    }

    @Test func theDocumentNamesItsMembersAsDocumented() throws {
        let h = try Harness()
        let flow = Self.everyKind(h.app)[9] // awaitingMFA: every member but username
        let object = try #require(try JSONSerialization.jsonObject(with: flow.serialized()) as? [String: Any])
        #expect(object["format"] as? String == "msal-native-auth-flow-state")
        #expect(object["version"] as? Int == 1)
        #expect(object["kind"] as? String == "awaitingMFA")
        #expect(object["continuationToken"] as? String == "T10")
        #expect(object["issuedAt"] as? Int == 1_800_000_000)
        #expect(object["scopes"] as? [String] == ["api://todo/Read"])
        #expect(object["claims"] as? String == #"{"acrs":1}"#)
        let methods = try #require(object["authMethods"] as? [[String: Any]])
        #expect(methods.first?["id"] as? String == "m-sms" && methods.first?["channel"] as? String == "sms")
        #expect(object["authority"] as? String == h.app.environment.authorityURL.absoluteString)
    }

    // MARK: Bad documents

    static func valid() throws -> Data { Self.everyKind(try Harness().app)[1].serialized() }

    static func edited(_ change: (inout [String: Any]) -> Void) throws -> Data {
        var object = try #require(try JSONSerialization.jsonObject(with: valid()) as? [String: Any])
        change(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    static func failure(_ data: Data) -> RestoreFailure? {
        do {
            _ = try SavedFlowState.decode(data)
            return nil
        } catch { return error }
    }

    static func isMalformed(_ data: Data) -> Bool {
        if case .malformed = failure(data) { return true }
        return false
    }

    @Test func everyCutOfAValidDocumentIsMalformed() throws {
        let bytes = try Self.valid()
        for length in 0..<bytes.count {
            #expect(Self.isMalformed(bytes.prefix(length)), "cut at \(length)")
        }
    }

    @Test func notJSONOrNotAStateIsMalformed() throws {
        for text in ["", "null", "[]", "42", "\"state\"", "{}", #"{"format":"other","version":1}"#, "\u{0}\u{1}garbage", "{\"format\":"] {
            #expect(Self.isMalformed(Data(text.utf8)), "\(text)")
        }
    }

    @Test func aHugeDocumentIsMalformedBeforeItIsParsed() throws {
        let huge = try Self.edited { $0["continuationToken"] = String(repeating: "t", count: SavedStateEnvelope.maximumSize) }
        guard case .malformed(let message) = Self.failure(huge) else {
            Issue.record("not malformed")
            return
        }
        #expect(message.contains("more than"))
    }

    @Test func aNewerVersionIsUnsupportedAndAnOlderOrMissingOneMalformed() throws {
        guard case .unsupportedVersion(let message) = Self.failure(try Self.edited { $0["version"] = 2 }) else {
            Issue.record("version 2 is not refused as unsupported")
            return
        }
        #expect(message.contains("version 2"))
        // A newer version may change any other member: the version decides before they are read.
        #expect(
            {
                if case .unsupportedVersion = Self.failure(try! Self.edited { $0 = ["format": SavedStateEnvelope.format, "version": 3] }) {
                    return true
                }
                return false
            }())
        #expect(Self.isMalformed(try Self.edited { $0["version"] = 0 }))
        #expect(Self.isMalformed(try Self.edited { $0.removeValue(forKey: "version") }))
        #expect(Self.isMalformed(try Self.edited { $0["version"] = "1" }))
    }

    @Test func missingOrWrongMembersAreMalformed() throws {
        let edits: [(String, (inout [String: Any]) -> Void)] = [
            ("no kind", { $0.removeValue(forKey: "kind") }),
            ("unknown kind", { $0["kind"] = "signInSomething" }),
            ("no token", { $0.removeValue(forKey: "continuationToken") }),
            ("empty token", { $0["continuationToken"] = "" }),
            ("token a number", { $0["continuationToken"] = 5 }),
            ("no username", { $0.removeValue(forKey: "username") }),
            ("empty username", { $0["username"] = "" }),
            ("no scopes", { $0.removeValue(forKey: "scopes") }),
            ("scopes not strings", { $0["scopes"] = [1, 2] }),
            ("bad correlation id", { $0["correlationId"] = "not-a-uuid" }),
            ("no client id", { $0.removeValue(forKey: "clientId") }),
            ("empty client id", { $0["clientId"] = "" }),
            ("issuedAt a string", { $0["issuedAt"] = "yesterday" }),
            ("issuedAt fractional", { $0["issuedAt"] = 1.5 }),
            ("auth method without id", { $0["authMethods"] = [["challengeType": "oob", "channel": "sms"]] }),
        ]
        for (name, edit) in edits {
            #expect(Self.isMalformed(try Self.edited(edit)), "\(name)")
        }
    }

    @Test func theSignInAfterAFlowMayHaveNoToken() throws {
        let h = try Harness()
        let flow = Self.everyKind(h.app)[3]
        let saved = try SavedFlowState.decode(flow.serialized())
        #expect(saved.continuationToken == nil && saved.username == "ada@contoso.com")
    }
}
